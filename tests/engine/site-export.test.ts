/**
 * SiteExport through Pulumi's real dynamic-provider host, from the packed package installed in a
 * consumer project's node_modules.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as yauzl from "yauzl";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  findText,
  isSecret,
  secret,
  unwrapSecrets,
  urn,
  type PropertyMap,
} from "../../tools/harness/property-values";
import {
  type Consumer,
  type Registration,
  consumerWithHost,
  closeAll,
  expectOurRegistration,
} from "../../tools/harness/consumer";
import { type Host, hostFailure } from "../../tools/harness/host-types";
import { runTempDir } from "../../tools/harness/temp";

const PASSWORD = "export-Engine-Pw-7e2a";
const NEW_PASSWORD = "export-Rotated-Pw-93b1";
const URN = urn("backup");

let emu: TestEmulator;
let consumer: Consumer;
let host: Host;
let downloads: string;
let registration: Registration;
let checkedInputs: PropertyMap;
let created: { id: string; properties: PropertyMap };
const errorTexts: string[] = [];

function program(): string {
  return `
    const pulumi = require("@pulumi/pulumi");
    const { SiteExport } = require("pulumi-arcgis-admin");
    const config = new pulumi.Config("arcgis");
    new SiteExport("backup", {
      adminUrl: ${JSON.stringify(emu.adminUrl)},
      username: "siteadmin",
      password: config.requireSecret("password"),
      downloadTo: ${JSON.stringify(downloads)},
      triggers: ["release-1"],
      tls: { caCert: ${JSON.stringify(emu.caCert)} },
    });
  `;
}

/** The entry names of a zip file, read with an independent zip reader. */
function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error !== null) return reject(error);
      const names: string[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on("end", () => resolve(names));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 50, exportDelayMs: 100 });
  const siteChecked = await site.check(
    {},
    siteInputs(emu, { runAsync: false, password: PASSWORD }),
  );
  await site.create(siteChecked.inputs);
  downloads = runTempDir("engine-exports-");
  ({ consumer, host } = await consumerWithHost());
  const registrations = await consumer.runProgram(program(), {
    config: { "arcgis:password": PASSWORD },
  });
  expect(registrations).toHaveLength(1);
  registration = registrations[0]!;
}, 180_000);

afterAll(async () => {
  await closeAll(host, consumer, emu);
  if (downloads !== undefined) fs.rmSync(downloads, { recursive: true, force: true });
});

describe("SiteExport in a user's program (setMocks)", () => {
  it("registers one dynamic resource with the password as a secret and a small provider that loads the installed package by name", () => {
    expectOurRegistration(registration, {
      type: "pulumi-nodejs:dynamic/arcgis-admin:SiteExport",
      name: "backup",
      secretInputs: ["password"],
      secretOutputs: ["password"],
      leaks: [PASSWORD],
    });
  });
});

describe("SiteExport through the dynamic-provider host", () => {
  it("checks the inputs and fills in the default timeout", async () => {
    const result = await host.check(URN, {}, registration.inputs);
    expect(result.failures).toEqual([]);
    checkedInputs = result.inputs;
    expect(unwrapSecrets(checkedInputs)).toMatchObject({
      adminUrl: emu.adminUrl,
      username: "siteadmin",
      downloadTo: downloads,
      triggers: ["release-1"],
      timeouts: { exportMs: 1_800_000 },
    });
    expect(isSecret(checkedInputs.password)).toBe(true);
  });

  it("returns every check failure with its property path in the reason", async () => {
    const bad = { ...registration.inputs, location: "D:\\backups", timeouts: { exportMs: -1 } };
    const result = await host.check(URN, {}, bad);
    // No `property`: the engine would print the input under that key, secrets in plain text.
    expect(result.failures.every((f) => f.property === "")).toBe(true);
    expect(result.failures.map((f) => f.reason.split(": ")[0]).sort()).toEqual([
      "downloadTo",
      "timeouts.exportMs",
    ]);
    const downloadTo = result.failures.find((f) => f.reason.startsWith("downloadTo: "));
    expect(downloadTo?.reason).toMatch(/cannot be combined with location/);
  });

  it("exports and downloads the archive, with outputs that survive the protobuf round trip", async () => {
    created = await host.create(URN, checkedInputs, { additionalSecretOutputs: ["password"] });
    const outs = unwrapSecrets(created.properties);
    expect(created.id).toBe(outs.location);
    expect(outs.location).toMatch(new RegExp(`^${emu.adminUrl}/uploads/[^/]+$`));
    expect(outs.fileName).toMatch(/^\d{8}-\d{6}-UTC.*\.agssite$/);
    expect(Number.isNaN(Date.parse(outs.exportedAt as string))).toBe(false);
    expect(outs).toMatchObject({
      adminUrl: emu.adminUrl,
      username: "siteadmin",
      downloadTo: downloads,
      triggers: ["release-1"],
      timeouts: { exportMs: 1_800_000 },
      localPath: path.join(downloads, outs.fileName as string),
    });
    const bytes = fs.readFileSync(outs.localPath as string);
    expect(outs.sizeBytes).toBe(bytes.length);
    expect(outs.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(await zipEntries(outs.localPath as string)).toEqual(
      expect.arrayContaining(["services.json", "machines.json"]),
    );
    expect(emu.stats().exportsCompleted).toBe(1);
  });

  it("keeps the password only under a key Pulumi marks secret", () => {
    const places = findText(created.properties, PASSWORD);
    expect(places.map((p) => p.path)).toEqual(["password"]);
    expect(places.every((p) => p.secret)).toBe(true);
  });

  it("keeps a verified download on refresh", async () => {
    const read = await host.read(created.id, URN, created.properties, checkedInputs);
    expect(read.id).toBe(created.id);
    expect(unwrapSecrets(read.properties)).toEqual(unwrapSecrets(created.properties));
  });

  it("forgets a download that changed or disappeared, so the next up exports again", async () => {
    const tampered = path.join(downloads, "tampered.agssite");
    fs.copyFileSync(created.properties.localPath as string, tampered);
    fs.appendFileSync(tampered, "tampered");
    const changed = await host.read(created.id, URN, {
      ...created.properties,
      localPath: tampered,
    });
    expect(changed.id).toBe("");
    expect(host.stdout() + host.stderr()).toMatch(
      new RegExp(`warning: .*${tampered}.*the next \`pulumi up\` exports again`),
    );
    const missing = path.join(downloads, "missing.agssite");
    const gone = await host.read(created.id, URN, { ...created.properties, localPath: missing });
    expect(gone.id).toBe("");
  });

  it("exports again (a replacement) when triggers change", async () => {
    const news = { ...checkedInputs, triggers: ["release-2"] };
    const diff = await host.diff(created.id, URN, created.properties, news);
    expect(diff).toMatchObject({ changes: "DIFF_SOME", replaces: ["triggers"] });
  });

  it("treats a password change as an update, not a new export", async () => {
    const news = { ...checkedInputs, password: secret(NEW_PASSWORD) };
    const diff = await host.diff(created.id, URN, created.properties, news);
    expect(diff.changes).toBe("DIFF_SOME");
    expect(diff.replaces).toEqual([]);
  });

  it("updates state-only inputs and keeps every output", async () => {
    const news = {
      ...checkedInputs,
      password: secret(NEW_PASSWORD),
      timeouts: { exportMs: 60_000 },
    };
    const updated = await host.update(created.id, URN, created.properties, news, {
      additionalSecretOutputs: ["password"],
    });
    expect(unwrapSecrets(updated.properties)).toEqual({
      ...unwrapSecrets(created.properties),
      password: NEW_PASSWORD,
      timeouts: { exportMs: 60_000 },
    });
    const places = findText(updated.properties, NEW_PASSWORD);
    expect(places.map((p) => p.path)).toEqual(["password"]);
    expect(places.every((p) => p.secret)).toBe(true);
    expect(findText(updated.properties, PASSWORD)).toEqual([]);
    expect(emu.stats().exportsCompleted).toBe(1);
    created = { id: created.id, properties: updated.properties };
  });

  it("reports an export the server refuses, with the server's reason", async () => {
    // An existing folder, but not one the server may export to (only its data dir).
    const inputs: PropertyMap = { ...checkedInputs, location: downloads };
    delete inputs.downloadTo;
    const error = await hostFailure(host.create(URN, inputs), errorTexts);
    expect(error.message).toMatch(
      new RegExp(`^exportSite on ${emu.adminUrl} failed \\(code \\d+\\): .*outside the folders`),
    );
  });

  it("keeps the archive on disk on delete, and says so", async () => {
    const localPath = created.properties.localPath as string;
    await host.delete(created.id, URN, created.properties);
    expect(fs.existsSync(localPath)).toBe(true);
    expect(host.stdout()).toContain(`Kept the site export ${localPath}`);
  });

  it("never prints the password, nor puts it in an error or a URL", () => {
    expect(errorTexts.length).toBeGreaterThan(0);
    for (const pw of [PASSWORD, NEW_PASSWORD]) {
      expect(host.stdout()).not.toContain(pw);
      expect(host.stderr()).not.toContain(pw);
      for (const text of errorTexts) expect(text).not.toContain(pw);
      expect(emu.requestLog().some((r) => r.url.includes(pw))).toBe(false);
    }
  });
});

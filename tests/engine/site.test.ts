/**
 * Site through Pulumi's real dynamic-provider host, from the packed package installed in a
 * consumer project's node_modules.
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  findText,
  isSecret,
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

const PASSWORD = "site-Engine-Pw-4c1d";
const URN = urn("site");

let emu: TestEmulator;
let consumer: Consumer;
let host: Host;
let registration: Registration;
let checkedInputs: PropertyMap;
let created: { id: string; properties: PropertyMap };
const errorTexts: string[] = [];

function program(extra = ""): string {
  return `
    const pulumi = require("@pulumi/pulumi");
    const { Site } = require("pulumi-arcgis-admin");
    const config = new pulumi.Config("arcgis");
    new Site("site", {
      adminUrl: ${JSON.stringify(emu.adminUrl)},
      username: "siteadmin",
      password: config.requireSecret("password"),
      directories: [{ name: "arcgissystem", physicalPath: "D:\\\\arcgis\\\\system", directoryType: "SYSTEM" }],
      deleteSiteOnDestroy: true,
      tls: { caCert: ${JSON.stringify(emu.caCert)} },
      ${extra}
    });
  `;
}

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 300 });
  ({ consumer, host } = await consumerWithHost());
  const registrations = await consumer.runProgram(program(), {
    config: { "arcgis:password": PASSWORD },
  });
  expect(registrations).toHaveLength(1);
  registration = registrations[0]!;
}, 180_000);

afterAll(() => closeAll(host, consumer, emu));

describe("Site in a user's program (setMocks)", () => {
  it("registers one dynamic resource with the password as a secret and a small provider that loads the installed package by name", () => {
    expectOurRegistration(registration, {
      type: "pulumi-nodejs:dynamic/arcgis-admin:Site",
      name: "site",
      secretInputs: ["password"],
      secretOutputs: ["password"],
      leaks: [PASSWORD],
    });
  });
});

describe("Site's config store connection in a user's program", () => {
  const withStore = (store: string) => `
    const { Site } = require("pulumi-arcgis-admin");
    new Site("store", {
      adminUrl: "https://gis.example.com:20443/arcgis/admin",
      username: "siteadmin",
      password: "not-used-here",
      configStoreConnection: ${store},
    });
  `;

  it("is a secret when it carries a connectionSecret", async () => {
    const [reg] = await consumer.runProgram(
      withStore(
        `{ type: "AZURE", connectionString: "NAMESPACE=x", connectionSecret: "k3y-Store" }`,
      ),
    );
    expect(isSecret(reg!.inputs.configStoreConnection)).toBe(true);
  });

  it("stays readable when it is only a path", async () => {
    const [reg] = await consumer.runProgram(
      withStore(`{ type: "FILESYSTEM", connectionString: "\\\\\\\\fs\\\\store" }`),
    );
    expect(isSecret(reg!.inputs.configStoreConnection)).toBe(false);
    expect(reg!.inputs.configStoreConnection).toMatchObject({ type: "FILESYSTEM" });
  });
});

describe("Site through the dynamic-provider host", () => {
  it("checks the inputs and fills in the defaults", async () => {
    const result = await host.check(URN, {}, registration.inputs);
    expect(result.failures).toEqual([]);
    checkedInputs = result.inputs;
    expect(unwrapSecrets(checkedInputs)).toMatchObject({
      serverType: "mission-server",
      runAsync: false,
      adoptExisting: false,
      timeouts: { serverReadyMs: 900_000, createMs: 3_600_000 },
    });
    expect(isSecret(checkedInputs.password)).toBe(true);
  });

  it("returns every check failure with its property path in the reason", async () => {
    const bad = {
      ...registration.inputs,
      adminUrl: "gis.example.com/arcgis/admin",
      directories: [{ name: "x", physicalPath: "/x", directoryType: "TEMP" }],
    };
    const result = await host.check(URN, {}, bad);
    // No `property`: the engine would print the input under that key, secrets in plain text.
    expect(result.failures.every((f) => f.property === "")).toBe(true);
    expect(result.failures.map((f) => f.reason.split(": ")[0]).sort()).toEqual([
      "adminUrl",
      "directories[0].directoryType",
    ]);
  });

  it("creates the site, with outputs that survive the protobuf round trip", async () => {
    created = await host.create(URN, checkedInputs, { additionalSecretOutputs: ["password"] });
    expect(created.id).toBe(emu.adminUrl);
    const outs = unwrapSecrets(created.properties);
    expect(outs).toMatchObject({
      adminUrl: emu.adminUrl,
      username: "siteadmin",
      state: "created",
      deleteSiteOnDestroy: true,
      directories: [
        { name: "arcgissystem", physicalPath: "D:\\arcgis\\system", directoryType: "SYSTEM" },
      ],
    });
    expect(Number.isNaN(Date.parse(outs.createdAt as string))).toBe(false);
    expect(outs.serverVersion).toBe(emu.serverVersion);
    // Read at the next refresh, not after createNewSite's synchronous answer.
    expect(outs).not.toHaveProperty("machines");
    expect(outs).not.toHaveProperty("serverLogSettings");
    expect(emu.stats().sitesCreated).toBe(1);
  });

  it("keeps the password only under a key Pulumi marks secret", () => {
    const places = findText(created.properties, PASSWORD);
    expect(places.length).toBeGreaterThan(0);
    expect(places.every((p) => p.secret)).toBe(true);
    expect(places.map((p) => p.path)).toEqual(["password"]);
  });

  it("reads the site back on refresh", async () => {
    const read = await host.read(created.id, URN, created.properties, checkedInputs);
    expect(read.id).toBe(created.id);
    expect(unwrapSecrets(read.properties)).toMatchObject({
      state: "created",
      machines: [expect.any(String)],
      serverLogSettings: { logLevel: expect.any(String) },
    });
  });

  it("rejects a change to the directories with an error naming it", async () => {
    const changed = {
      ...checkedInputs,
      directories: [{ name: "other", physicalPath: "E:\\sys", directoryType: "SYSTEM" }],
      deleteSiteOnDestroy: false,
    };
    const olds = { ...created.properties, deleteSiteOnDestroy: false };
    const error = await hostFailure(host.diff(created.id, URN, olds, changed), errorTexts);
    expect(error.message).toMatch(
      /Cannot change directories of the site at .*createNewSite cannot run/,
    );
  });

  it("replaces (deleting first) when deleteSiteOnDestroy is set", async () => {
    const changed = {
      ...checkedInputs,
      directories: [{ name: "other", physicalPath: "E:\\sys", directoryType: "SYSTEM" }],
    };
    const diff = await host.diff(created.id, URN, created.properties, changed);
    expect(diff).toMatchObject({
      changes: "DIFF_SOME",
      replaces: ["directories"],
      deleteBeforeReplace: true,
    });
  });

  it("updates state-only inputs and keeps every output", async () => {
    const news = { ...checkedInputs, timeouts: { serverReadyMs: 1000, createMs: 2000 } };
    const diff = await host.diff(created.id, URN, created.properties, news);
    expect(diff.changes).toBe("DIFF_SOME");
    expect(diff.replaces).toEqual([]);
    const updated = await host.update(created.id, URN, created.properties, news, {
      additionalSecretOutputs: ["password"],
    });
    const outs = unwrapSecrets(updated.properties);
    expect(outs).toMatchObject({
      ...unwrapSecrets(created.properties),
      timeouts: { serverReadyMs: 1000, createMs: 2000 },
    });
    expect(findText(updated.properties, PASSWORD).every((p) => p.secret)).toBe(true);
    created = { id: created.id, properties: updated.properties };
  });

  it("reports a machine already in a site when created again", async () => {
    const error = await hostFailure(host.create(URN, checkedInputs), errorTexts);
    expect(error.message).toMatch(/already participates in a site.*adoptExisting/);
  });

  it("deletes the site on destroy when deleteSiteOnDestroy is set", async () => {
    await host.delete(created.id, URN, created.properties);
    const read = await host.read(created.id, URN, created.properties, checkedInputs);
    expect(read.id).toBe("");
  });

  it("never prints the password, nor puts it in an error", () => {
    expect(host.stdout()).not.toContain(PASSWORD);
    expect(host.stderr()).not.toContain(PASSWORD);
    expect(errorTexts.length).toBeGreaterThan(0);
    for (const text of errorTexts) expect(text).not.toContain(PASSWORD);
    expect(emu.requestLog().some((r) => r.url.includes(PASSWORD))).toBe(false);
  });
});

/**
 * The one-shot guards and ownership rules of the day-two resources, through Pulumi's real
 * dynamic-provider host from the packed package (the engine's own calls: check, diff, create,
 * delete), against plain-HTTP emulators:
 * - SiteMachine: a machine the stack only adopted stays in the site on destroy (unless
 *   `unregisterAdoptedOnDestroy`); the site's own machine under another spelling is refused at
 *   check(); a trailing slash or the default machine name written out is no replacement.
 * - SiteImport: a planted item carrying the archive's fingerprint is never restored (the resource
 *   uploads the archive itself); a checksum added to the same archive or a trailing slash is no
 *   replacement (importSite is not sent again); a FIFO as `localArchive` is refused at check();
 *   an error answer saying "try again later" is no reason to send importSite again.
 * - Site: an in-place `logSettings` change waits while an export holds the site.
 * - LogSettings: `restoreOnDestroy` writes back only the fields it declares, and only where the
 *   server still holds its value; a replacement is deleted first.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  createAdminSession,
  createNewSite,
  editLogSettings,
  exportSite,
  getLogSettings,
  listMachines,
  uploadItem,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy } from "../../tools/harness/fault-proxy";
import { closeAll, consumerWithHost, type Consumer } from "../../tools/harness/consumer";
import { unwrapSecrets, urn, type PropertyMap } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";
import { runTempDir } from "../../tools/harness/temp";

const SITE_ADMIN = { username: "siteadmin", password: "one-Shot-Host-Pw-7" };
const SECRET = { additionalSecretOutputs: ["password"] };

jest.setTimeout(120_000);

let consumer: Consumer;
let host: Host;

beforeAll(async () => ({ consumer, host } = await consumerWithHost()), 180_000);

afterAll(() => closeAll(host, consumer));

const started: TestEmulator[] = [];
afterEach(async () => {
  for (const emu of started.splice(0)) await emu.close();
});

async function emulator(options: Parameters<typeof startTestEmulator>[0]): Promise<TestEmulator> {
  const emu = await startTestEmulator({ tls: false, createDelayMs: 0, ...options });
  started.push(emu);
  return emu;
}

async function siteOn(emu: TestEmulator): Promise<void> {
  await createNewSite(emu.adminUrl, { ...SITE_ADMIN, runAsync: false });
}

const session = (emu: TestEmulator) =>
  createAdminSession({ adminUrl: emu.adminUrl, ...SITE_ADMIN });

/** The inputs the program registers for one resource of the package, `__provider` included. */
async function registered(type: string, args: Record<string, unknown>): Promise<PropertyMap> {
  const [registration] = await consumer.runProgram(`
    const { ${type} } = require("pulumi-arcgis-admin");
    new ${type}("it", ${JSON.stringify(args)});
  `);
  return registration!.inputs;
}

async function checked(type: string, args: Record<string, unknown>): Promise<PropertyMap> {
  const result = await host.check(urn("it"), {}, await registered(type, args));
  expect(result.failures).toEqual([]);
  return result.inputs;
}

describe("SiteMachine ownership through the host", () => {
  it("leaves an adopted machine in the site on destroy, and unregisters it only when asked", async () => {
    const first = await emulator({ machineName: "machine-a" });
    const second = await emulator({ machineName: "machine-b", joinDelayMs: 0 });
    await siteOn(first);
    const args = {
      adminUrl: second.adminUrl,
      siteAdminUrl: first.adminUrl,
      machineName: "machine-b",
      ...SITE_ADMIN,
    };
    // Joined before the stack took it on (here: by an earlier create, whose state is lost).
    await host.create(urn("it"), await checked("SiteMachine", args), SECRET);
    const adopted = await host.create(urn("it"), await checked("SiteMachine", args), SECRET);
    expect(unwrapSecrets(adopted.properties)).toMatchObject({ state: "adopted" });
    const unregisters = () => first.requestLog().filter((r) => r.url.includes("/unregister"));

    await host.delete(adopted.id, urn("it"), adopted.properties);
    expect(await listMachines(session(first))).toEqual(["machine-a", "machine-b"]);
    expect(unregisters()).toHaveLength(0);

    const optedIn = await host.create(
      urn("it"),
      await checked("SiteMachine", { ...args, unregisterAdoptedOnDestroy: true }),
      SECRET,
    );
    await host.delete(optedIn.id, urn("it"), optedIn.properties);
    expect(await listMachines(session(first))).toEqual(["machine-a"]);
    expect(unregisters()).toHaveLength(1);
  });

  it("refuses the site's own machine under another spelling of its URL at check(), sending nothing", async () => {
    const first = await emulator({ machineName: "machine-a" });
    await siteOn(first);
    const before = first.requestLog().length;
    const spelled = first.adminUrl.replace("127.0.0.1", "LOCALHOST") + "/";
    const result = await host.check(
      urn("it"),
      {},
      await registered("SiteMachine", {
        adminUrl: spelled,
        siteAdminUrl: first.adminUrl,
        ...SITE_ADMIN,
      }),
    );
    // The host hands every failure over with property "" and the field first in the reason.
    expect(result.failures.map((f) => f.reason.split(": ")[0])).toEqual(["siteAdminUrl"]);
    expect(first.requestLog().length).toBe(before);
  });

  it("does not leave and rejoin for a trailing slash on siteAdminUrl or the default name written out", async () => {
    const first = await emulator({ machineName: "machine-a" });
    // Named as its URL's host, the machine's default name.
    const second = await emulator({ machineName: "127.0.0.1", joinDelayMs: 0 });
    await siteOn(first);
    const args = { adminUrl: second.adminUrl, siteAdminUrl: first.adminUrl, ...SITE_ADMIN };
    const created = await host.create(urn("it"), await checked("SiteMachine", args), SECRET);
    const news = await checked("SiteMachine", {
      ...args,
      siteAdminUrl: `${first.adminUrl}/`,
      machineName: "127.0.0.1",
    });
    const diff = await host.diff(created.id, urn("it"), created.properties, news);
    expect(diff.replaces).toEqual([]);
    await host.delete(created.id, urn("it"), created.properties);
  });
});

describe("SiteImport through the host", () => {
  let folder: string;
  beforeEach(() => {
    folder = runTempDir("one-shot-import-");
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  /** A site whose archive (log level WARNING) is on disk; the site then runs with DEBUG. */
  async function siteWithArchive(): Promise<{ emu: TestEmulator; archive: string }> {
    const emu = await emulator({ exportDelayMs: 0, importDelayMs: 0, exportRoots: [folder] });
    await siteOn(emu);
    const s = session(emu);
    await editLogSettings(s, { ...(await getLogSettings(s)), logLevel: "WARNING" });
    const { location } = await exportSite(s, { location: folder });
    await editLogSettings(s, { ...(await getLogSettings(s)), logLevel: "DEBUG" });
    return { emu, archive: location };
  }

  it("restores the archive it uploaded itself, never a planted item carrying its fingerprint", async () => {
    const { emu, archive } = await siteWithArchive();
    const sha = createHash("sha256").update(fs.readFileSync(archive)).digest("hex");
    const planted = path.join(folder, "planted.agssite");
    fs.writeFileSync(planted, "not the user's archive");
    const { itemID } = await uploadItem(session(emu), {
      file: planted,
      description: `pulumi-arcgis-admin site archive sha256:${sha}`,
    });
    const created = await host.create(
      urn("it"),
      await checked("SiteImport", {
        adminUrl: emu.adminUrl,
        ...SITE_ADMIN,
        localArchive: archive,
        archiveSha256: sha,
      }),
      SECRET,
    );
    const outs = unwrapSecrets(created.properties) as Record<string, unknown>;
    expect(outs.uploadedItemId).toEqual(expect.any(String));
    expect(outs.uploadedItemId).not.toBe(itemID);
    const imports = emu.requestLog().filter((r) => r.url.includes("/importSite"));
    expect(imports).toHaveLength(1);
    expect((await getLogSettings(session(emu))).logLevel).toBe("WARNING");
  });

  it("is no replacement for a checksum added to the same archive or a trailing slash", async () => {
    const { emu, archive } = await siteWithArchive();
    const args = { adminUrl: emu.adminUrl, ...SITE_ADMIN, localArchive: archive };
    const created = await host.create(urn("it"), await checked("SiteImport", args), SECRET);
    const sha = createHash("sha256").update(fs.readFileSync(archive)).digest("hex");
    const news = await checked("SiteImport", {
      ...args,
      adminUrl: `${emu.adminUrl}/`,
      archiveSha256: sha,
    });
    const diff = await host.diff(created.id, urn("it"), created.properties, news);
    expect(diff.replaces).toEqual([]);
    expect(emu.requestLog().filter((r) => r.url.includes("/importSite"))).toHaveLength(1);
  });

  it("sends importSite once when the answer is an error saying 'try again later'", async () => {
    const { emu, archive } = await siteWithArchive();
    const proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
    try {
      proxy.setRule(({ path: p }) =>
        p.endsWith("/importSite")
          ? {
              kind: "answer",
              status: 200,
              body: JSON.stringify({
                error: { code: 500, message: "The import stopped at step 3. Try again later." },
              }),
            }
          : undefined,
      );
      const inputs = await checked("SiteImport", {
        adminUrl: proxy.url + new URL(emu.adminUrl).pathname,
        ...SITE_ADMIN,
        location: archive,
        timeouts: { importMs: 5_000 },
      });
      const error = await host.create(urn("it"), inputs, SECRET).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/Try again later/);
      expect(proxy.seen.filter((x) => x.path.endsWith("/importSite"))).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it("refuses a FIFO as localArchive at check(), naming the field, without hanging", async () => {
    const emu = await emulator({});
    const fifo = path.join(folder, "pipe.agssite");
    execFileSync("mkfifo", [fifo]);
    const result = await host.check(
      urn("it"),
      {},
      await registered("SiteImport", { adminUrl: emu.adminUrl, ...SITE_ADMIN, localArchive: fifo }),
    );
    expect(result.failures.map((f) => f.reason.split(": ")[0])).toEqual(["localArchive"]);
  });
});

describe("LogSettings through the host", () => {
  it("restoreOnDestroy writes back only its own field, leaving another LogSettings' field and an operator's change", async () => {
    const emu = await emulator({});
    await siteOn(emu);
    const s = session(emu);
    const original = await getLogSettings(s);
    const level = await host.create(
      urn("it"),
      await checked("LogSettings", {
        adminUrl: emu.adminUrl,
        ...SITE_ADMIN,
        logLevel: "SEVERE",
        restoreOnDestroy: true,
      }),
      SECRET,
    );
    // Another LogSettings manages maxLogFileAge; an operator changes maxErrorReportsCount.
    await host.create(
      urn("it"),
      await checked("LogSettings", { adminUrl: emu.adminUrl, ...SITE_ADMIN, maxLogFileAge: 77 }),
      SECRET,
    );
    await editLogSettings(s, { ...(await getLogSettings(s)), maxErrorReportsCount: 33 });

    await host.delete(level.id, urn("it"), level.properties);
    expect(await getLogSettings(s)).toMatchObject({
      logLevel: original.logLevel,
      maxLogFileAge: 77,
      maxErrorReportsCount: 33,
    });
  });

  it("asks the engine to delete before replacing it for another server", async () => {
    const emu = await emulator({});
    const other = await emulator({});
    await siteOn(emu);
    await siteOn(other);
    const args = { adminUrl: emu.adminUrl, ...SITE_ADMIN, logLevel: "SEVERE" };
    const created = await host.create(urn("it"), await checked("LogSettings", args), SECRET);
    const news = await checked("LogSettings", { ...args, adminUrl: other.adminUrl });
    const diff = await host.diff(created.id, urn("it"), created.properties, news);
    expect(diff.replaces).toEqual(["adminUrl"]);
    expect(diff.deleteBeforeReplace).toBe(true);
    const [registration] = await consumer.runProgram(`
      const { LogSettings } = require("pulumi-arcgis-admin");
      new LogSettings("it", ${JSON.stringify(args)});
    `);
    expect(registration!.options?.deleteBeforeReplace).toBe(true);
  });
});

describe("Site through the host", () => {
  const LOGS = {
    logLevel: "WARNING",
    logDir: "D:\\arcgis\\logs",
    maxErrorReportsCount: 10,
    maxLogFileAge: 90,
  };

  it("applies an in-place logSettings change after an export that holds the site, instead of failing", async () => {
    const emu = await emulator({ exportDelayMs: 1_500 });
    const args = {
      adminUrl: emu.adminUrl,
      ...SITE_ADMIN,
      runAsync: false,
      logSettings: LOGS,
    };
    const inputs = await checked("Site", args);
    const created = await host.create(urn("it"), inputs, SECRET);
    const news = await checked("Site", { ...args, logSettings: { ...LOGS, logLevel: "SEVERE" } });
    const exporting = exportSite(session(emu));
    await new Promise((r) => setTimeout(r, 200));
    const updated = await host.update(created.id, urn("it"), created.properties, news, {
      ...SECRET,
      oldInputs: inputs,
    });
    await exporting;
    expect(unwrapSecrets(updated.properties)).toMatchObject({
      serverLogSettings: { logLevel: "SEVERE" },
    });
    expect(emu.stats().changesRefusedDuringExport).toBeGreaterThan(0);
  });
});

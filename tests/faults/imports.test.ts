/**
 * SiteImport under network faults and against the export lock, each with a measured outcome: a
 * proxy's 502 during importSite (after the server acted, and before it saw anything), a lost
 * upload answer followed by a second run, and imports and exports that meet on one site. The
 * emulator runs without TLS behind the fault proxy, and the implementations are called as the
 * provider host calls them.
 */
import * as fs from "node:fs";
import {
  createAdminSession,
  createNewSite,
  editLogSettings,
  exportSite,
  getLogSettings,
} from "../../provider/client";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { implementation as siteImport } from "../../provider/resources/site-import/lifecycle";
import type { SiteImportOutputs } from "../../provider/resources/site-import/generated";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  startFaultProxy,
  type FaultProxy,
  faultsSeen,
  proxiedAdminUrl,
} from "../../tools/harness/fault-proxy";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure, valueOf } from "../../tools/harness/outcome";
import { runTempDir } from "../../tools/harness/temp";

const figures = new SuiteFigures("faults-imports");
afterAll(() => figures.write());

const ADMIN = { username: "siteadmin", password: "import-Fault-Pass-1" };

let emu: TestEmulator;
let proxy: FaultProxy;
let folder: string;

/** A site whose archive (log level WARNING) is in `folder`; the site is then set to DEBUG. */
async function siteWithArchive(options: Record<string, unknown> = {}): Promise<string> {
  folder = runTempDir("faults-imports-");
  emu = await startTestEmulator({
    tls: false,
    createDelayMs: 0,
    exportDelayMs: 50,
    importDelayMs: 300,
    exportRoots: [folder],
    ...options,
  });
  proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  await createNewSite(emu.adminUrl, { serverType: "mission-server", ...ADMIN, runAsync: false });
  const session = createAdminSession({ adminUrl: emu.adminUrl, ...ADMIN });
  await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "WARNING" });
  const { location } = await exportSite(session, { location: folder });
  await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "DEBUG" });
  return location;
}

async function level(): Promise<unknown> {
  return (await getLogSettings(createAdminSession({ adminUrl: emu.adminUrl, ...ADMIN }))).logLevel;
}

async function checkedImport(extra: Record<string, unknown>) {
  const result = await siteImport.check(
    {},
    { adminUrl: proxiedAdminUrl(proxy, emu), ...ADMIN, timeouts: { importMs: 30_000 }, ...extra },
  );
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

const importRequests = () => proxy.seen.filter((s) => s.path.endsWith("/importSite"));

afterEach(async () => {
  await proxy?.close();
  await emu?.close();
  if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
});

describe("SiteImport: a proxy's 502 during importSite", () => {
  it("after the server acted: never sent again, recorded as answer-lost once the site is ready, the import done once", async () => {
    const location = await siteWithArchive();
    proxy.setRule(({ path: p }) =>
      p.endsWith("/importSite") ? { kind: "drop-answer", replaceWith: { status: 502 } } : undefined,
    );
    const outcome = await measure(siteImport.create(await checkedImport({ location })));
    const { outs } = valueOf(outcome);
    expect((outs as SiteImportOutputs).outcome).toBe("answer-lost");
    expect(importRequests()).toEqual([
      { method: "POST", path: "/arcgis/admin/importSite", fault: "drop-answer" },
    ]);
    expect(emu.stats()).toMatchObject({ importsStarted: 1, importsCompleted: 1 });
    expect(await level()).toBe("WARNING");
    figures.record(
      "proxy 502 during importSite, after the server acted",
      { faultsInjected: faultsSeen(proxy), faultsSurvived: faultsSeen(proxy), dataLost: 0 },
      { tookMs: outcome.ms, importSiteRequests: importRequests().length },
    );
  });

  it("before the server saw it: still never sent again: recorded as answer-lost, since the client cannot tell", async () => {
    const location = await siteWithArchive();
    proxy.setRule(({ path: p }) =>
      p.endsWith("/importSite") ? { kind: "status", status: 502 } : undefined,
    );
    const outcome = await measure(siteImport.create(await checkedImport({ location })));
    expect((valueOf(outcome).outs as SiteImportOutputs).outcome).toBe("answer-lost");
    expect(importRequests()).toHaveLength(1);
    expect(emu.stats().importsStarted).toBe(0);
    // Nothing was imported, and nothing was imported twice: the site keeps its configuration.
    expect(await level()).toBe("DEBUG");
    figures.record(
      "proxy 502 instead of importSite (never reached the server)",
      { faultsInjected: faultsSeen(proxy), faultsSurvived: faultsSeen(proxy), dataLost: 0 },
      { tookMs: outcome.ms, importSiteRequests: importRequests().length },
    );
  });

  it("a lost upload answer fails the run before any import; the next run uploads its own copy and imports once", async () => {
    const local = await siteWithArchive();
    proxy.setRule(({ path: p }) =>
      p.endsWith("/uploads/upload")
        ? { kind: "drop-answer", replaceWith: { status: 502 } }
        : undefined,
    );
    const inputs = await checkedImport({ localArchive: local });
    const first = await measure(siteImport.create(inputs));
    expect(errorOf(first).message).toMatch(/Nothing was imported/);
    expect(emu.stats()).toMatchObject({ itemsUploaded: 1, importsStarted: 0 });

    proxy.setRule(() => undefined);
    const second = await measure(siteImport.create(inputs));
    expect((valueOf(second).outs as SiteImportOutputs).outcome).toBe("imported");
    // The item the lost answer left behind is never trusted: the archive is uploaded again.
    expect(emu.stats()).toMatchObject({ itemsUploaded: 2, importsStarted: 1, importsCompleted: 1 });
    expect(await level()).toBe("WARNING");
    figures.record(
      "lost uploads/upload answer, then a second run",
      { faultsInjected: 1, faultsSurvived: 1, dataLost: 0 },
      { firstMs: first.ms, secondMs: second.ms, uploads: emu.stats().itemsUploaded },
    );
  });
});

describe("SiteImport and exports on one site", () => {
  it("an import while exports run waits for them, then imports once; an export during the import waits too", async () => {
    const location = await siteWithArchive({ exportDelayMs: 700, importDelayMs: 700 });
    const session = createAdminSession({ adminUrl: emu.adminUrl, ...ADMIN });
    const before = emu.stats();
    // Two exports hold the site one after the other while the import asks to start.
    const exports = [exportSite(session, { location: folder })];
    await new Promise((r) => setTimeout(r, 100));
    const importing = measure(siteImport.create(await checkedImport({ location })));
    exports.push(
      (async () => {
        await new Promise((r) => setTimeout(r, 900));
        const checked = await siteExport.check(
          {},
          { adminUrl: emu.adminUrl, ...ADMIN, location: folder, timeouts: { exportMs: 30_000 } },
        );
        return siteExport.create(checked.inputs).then((r) => ({ location: String(r.id) }));
      })(),
    );
    const outcome = await importing;
    await Promise.all(exports);
    expect((valueOf(outcome).outs as SiteImportOutputs).outcome).toBe("imported");
    const after = emu.stats();
    expect(after.importsStarted).toBe(1);
    expect(after.importsCompleted).toBe(1);
    expect(after.exportsCompleted - before.exportsCompleted).toBe(2);
    const refused = after.changesRefusedDuringExport - before.changesRefusedDuringExport;
    expect(refused).toBeGreaterThan(0);
    expect(await level()).toBe("WARNING");
    figures.record(
      "import while an export runs (and an export during the import)",
      { faultsInjected: refused, faultsSurvived: refused, dataLost: 0 },
      { tookMs: outcome.ms, refusedWithLock: refused, exports: 2, imports: 1 },
    );
  });
});

describe("SiteImport: an error answer that says 'try again later'", () => {
  it("is not a reason to send importSite again: only a 409 or an export or import in progress is", async () => {
    const local = await siteWithArchive();
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
    const inputs = await checkedImport({ location: local, timeouts: { importMs: 5_000 } });
    const outcome = await measure(siteImport.create(inputs));
    expect(errorOf(outcome).message).toMatch(/importSite .*Try again later.*Nothing was imported/);
    expect(errorOf(outcome).message).not.toMatch(/held the site/);
    expect(importRequests()).toHaveLength(1);
  });
});

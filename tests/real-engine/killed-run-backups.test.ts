/**
 * SiteImport, SiteExport, Collaboration and LogSettings after a `pulumi up` killed in the middle
 * of their create and recovered with the documented commands (see killed-run.test.ts): one
 * program (killed-run-backups-program.cjs) on two machines, so that one kill finds importSite,
 * exportSite, the Collaboration's read of its collaboration and a LogSettings waiting for that
 * export all under way. After the recovery: no
 * second importSite, one more export, the collaboration confirmed, both log settings applied.
 */
import * as fs from "node:fs";
import { createAdminSession, getLogSettings } from "../../provider/client";
import { portalSeed } from "../../tools/harness/emulator";
import {
  closeAfterAll,
  emulator,
  killedUp,
  pendingOperations,
  PORTAL,
  recover,
  requests,
  SITE_PASSWORD,
  stack,
} from "../../tools/harness/killed-run";
import { until } from "../../tools/harness/until";
import { archiveOf } from "../../tools/harness/site-stacks";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { runTempDir } from "../../tools/harness/temp";

jest.setTimeout(300_000);
closeAfterAll();
let proxy: FaultProxy | undefined;
afterAll(() => proxy?.close());

it("SiteImport, SiteExport, Collaboration and LogSettings: killed during importSite, exportSite and the collaboration's read, recovered: no second importSite, one more export, the collaboration confirmed, the log settings applied", async () => {
  const folder = runTempDir("killed-run-import-");
  const downloadDir = runTempDir("killed-run-export-");
  const archive = await archiveOf("mission-server", folder);
  // Each call is still under way when the last of them arrives and the CLI is killed; the
  // export holds its site, so the LogSettings beside it has had its edit refused and waits.
  const restore = await emulator({ createDelayMs: 0, importDelayMs: 15_000 });
  const exported = await emulator({
    createDelayMs: 0,
    exportDelayMs: 15_000,
    seed: portalSeed([{ username: "gisadmin", password: PORTAL.password, role: "org_admin" }]),
  });
  // The LogSettings reads the settings only once the export has started (a proxy holds its
  // read until then), so that its edit finds the site held, whichever create the engine ran first.
  // The portal's answer to the Collaboration's read of the collaboration is held until the kill:
  // the read has reached the portal, and the create is under way.
  proxy = await startFaultProxy(new URL(exported.adminUrl).origin);
  const exportStarted = until(
    () => requests(exported, "/exportSite") === 1,
    "the killed run's export",
  ).catch(() => undefined);
  let killedNow: () => void = () => undefined;
  const killDone = new Promise<void>((resolve) => (killedNow = resolve));
  const collaborationRead = (method: string, url: string) =>
    method === "GET" && url.split("?")[0]!.endsWith("/collaborations/hosted1");
  proxy.setRule(({ method, path: url }) => {
    if (method === "GET" && url.split("?")[0]!.endsWith("/logs/settings"))
      return { kind: "hold", forwardAfter: exportStarted };
    if (collaborationRead(method, url)) return { kind: "hold", answerAfter: killDone };
    return undefined;
  });
  const s = await stack("backups", "killed-run-backups-program.cjs");
  const config: Record<string, ConfigValue> = {
    sitePassword: { value: SITE_PASSWORD, secret: true },
    restore: {
      value: JSON.stringify({ adminUrl: restore.adminUrl, caCert: restore.caCert!, archive }),
    },
    export: {
      value: JSON.stringify({
        adminUrl: proxy.url + new URL(exported.adminUrl).pathname,
        caCert: exported.caCert!,
        sharingUrl: proxy.url + new URL(exported.sharingUrl).pathname,
        downloadDir,
        collaborationId: "hosted1",
      }),
    },
    portalUsername: { value: "gisadmin" },
    portalPassword: { value: PORTAL.password, secret: true },
  };
  const killed = await killedUp(
    s,
    config,
    () =>
      requests(restore, "/importSite") === 1 &&
      requests(exported, "/exportSite") === 1 &&
      exported.stats().changesRefusedDuringExport >= 1 &&
      proxy!.seen.some((r) => collaborationRead(r.method, r.path)),
  );
  killedNow();
  expect(killed.ok).toBe(false);
  // The SiteImport, the SiteExport, the Collaboration and the LogSettings waiting beside the
  // export are pending.
  const pending = (await pendingOperations(s)).map((op) =>
    String((op as { resource: { urn: string } }).resource.urn).replace(/.*::/, ""),
  );
  expect(pending).toEqual(expect.arrayContaining(["restore", "backup", "partners", "logs"]));
  proxy.setRule(() => undefined);
  await recover(s);
  await until(() => restore.stats().importsCompleted === 1, "the killed import to end");

  const up = await s.mustRun("up", { config });
  // The killed run's upload is its trace: importSite is not sent again, and the user is told.
  expect(up.outputs).toMatchObject({
    outcome: "answer-lost",
    importLogLevel: "WARNING",
    siteState: "created",
    collaborationName: expect.any(String),
    collaborationState: "confirmed",
    logLevel: "INFO",
  });
  expect(up.output).toMatch(/its importSite may have run, so it is not sent again/);
  expect(requests(restore, "/importSite")).toBe(1);
  // One more archive (an export is repeatable); the killed one's partial download is not used.
  // (The next run's exportSite may be refused while the killed export still runs: retried.)
  expect(exported.stats().exportsStarted).toBe(2);
  expect(fs.existsSync(String(up.outputs?.["backupFile"]))).toBe(true);
  expect(exported.stats().createNewSiteRequests).toBe(1);
  const session = createAdminSession({
    adminUrl: exported.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: exported.caCert! },
  });
  expect((await getLogSettings(session)).logLevel).toBe("INFO");
  expect(await pendingOperations(s)).toEqual([]);
  await s.mustRun("up", { config, options: { expectNoChanges: true } });

  // Destroy deletes the killed run's upload: a later SiteImport of the archive imports it again.
  await s.mustRun("destroy", { config });
  expect(requests(restore, "/delete")).toBe(1);
  fs.rmSync(folder, { recursive: true, force: true });
  fs.rmSync(downloadDir, { recursive: true, force: true });
});

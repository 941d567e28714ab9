/**
 * SiteImport, SiteExport, Collaboration and LogSettings after a `pulumi up` killed in the middle
 * of their create and recovered with the documented commands (see killed-run.test.ts): no second
 * importSite, one more export, the collaboration confirmed, the log settings applied.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
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
  until,
} from "./killed-run-support";
import { archiveOf, type ConfigValue } from "../../tools/harness/real-stack";

jest.setTimeout(300_000);
closeAfterAll();

it("SiteImport: killed during importSite, recovered with cancel and refresh --clear-pending-creates: no second importSite", async () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "killed-run-import-"));
  const archive = await archiveOf("mission-server", folder);
  const emu = await emulator({ createDelayMs: 0, importDelayMs: 5_000 });
  const s = await stack("import", "restore-program.cjs");
  const config: Record<string, ConfigValue> = {
    serverType: { value: "mission-server" },
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    archive: { value: archive },
    logLevel: { value: "WARNING" },
  };
  await killedUp(s, config, () => requests(emu, "/importSite") === 1);
  await recover(s);
  await until(() => emu.stats().importsCompleted === 1, "the killed import to end");
  const up = await s.mustRun("up", { config });
  // The killed run's upload is its trace: importSite is not sent again, and the user is told.
  expect(up.outputs).toMatchObject({ outcome: "answer-lost", logLevel: "WARNING" });
  expect(up.output).toMatch(/its importSite may have run, so it is not sent again/);
  expect(requests(emu, "/importSite")).toBe(1);
  expect(await pendingOperations(s)).toEqual([]);
  // Destroy deletes that upload: a later SiteImport of the archive imports it again.
  await s.mustRun("destroy", { config });
  expect(requests(emu, "/delete")).toBe(1);
  fs.rmSync(folder, { recursive: true, force: true });
});

it("SiteExport and Collaboration: killed during exportSite, recovered; the next up exports once more and confirms the collaboration", async () => {
  const downloadDir = fs.mkdtempSync(path.join(os.tmpdir(), "killed-run-export-"));
  const emu = await emulator({
    createDelayMs: 0,
    exportDelayMs: 5_000,
    seed: portalSeed([{ username: "gisadmin", password: PORTAL.password, role: "org_admin" }]),
  });
  const s = await stack("export");
  const config: Record<string, ConfigValue> = {
    adminUrl: { value: emu.adminUrl },
    sharingUrl: { value: emu.sharingUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    portalUsername: { value: "gisadmin" },
    portalPassword: { value: PORTAL.password, secret: true },
    collaborationId: { value: "hosted1" },
    downloadDir: { value: downloadDir },
  };
  await killedUp(s, config, () => requests(emu, "/exportSite") === 1);
  await recover(s);
  const up = await s.mustRun("up", { config });
  expect(up.outputs).toMatchObject({ siteState: "created", collaborationName: expect.any(String) });
  // One more archive (an export is repeatable); the killed one's partial download is not used.
  // (The next run's exportSite may be refused while the killed export still runs: retried.)
  expect(emu.stats().exportsStarted).toBe(2);
  expect(fs.existsSync(String(up.outputs?.["backupFile"]))).toBe(true);
  expect(emu.stats().createNewSiteRequests).toBe(1);
  expect(await pendingOperations(s)).toEqual([]);
  await s.mustRun("up", { config, options: { expectNoChanges: true } });
  fs.rmSync(downloadDir, { recursive: true, force: true });
});

it("LogSettings: killed while it waits for an export to release the site, recovered; the next up applies it", async () => {
  const downloadDir = fs.mkdtempSync(path.join(os.tmpdir(), "killed-run-logs-"));
  const emu = await emulator({ createDelayMs: 0, exportDelayMs: 8_000 });
  const s = await stack("logs", "site-logs-program.cjs");
  const config: Record<string, ConfigValue> = {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    downloadDir: { value: downloadDir },
  };
  // The export holds the site; the LogSettings create has read the settings and waits to edit.
  await killedUp(
    s,
    config,
    () => requests(emu, "/exportSite") === 1 && requests(emu, "/logs/settings") >= 1,
  );
  await recover(s);
  const up = await s.mustRun("up", { config });
  expect(up.outputs).toMatchObject({ logLevel: "WARNING" });
  const session = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: emu.caCert! },
  });
  expect((await getLogSettings(session)).logLevel).toBe("WARNING");
  expect(await pendingOperations(s)).toEqual([]);
  await s.mustRun("up", { config, options: { expectNoChanges: true } });
  fs.rmSync(downloadDir, { recursive: true, force: true });
});

/**
 * examples/restore-drill through the real Pulumi engine (the program copied into a consumer
 * project that installed the packed package, as a user's would be), against two emulators of
 * the same product: a production site, and a fresh machine the drill restores the backup onto.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  editLogSettings,
  getLogSettings,
  siteStatus,
} from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { runTempDir } from "../../tools/harness/temp";

const PRODUCTION = { username: "prodadmin", password: "prod-Drill-Pass-5" };
const DRILL_PASSWORD = "drill-Drill-Pass-6";

let production: TestEmulator;
let fresh: TestEmulator;
let stack: RealStack;
let backups: string;
let config: Record<string, ConfigValue>;

async function mustRun(...args: Parameters<RealStack["run"]>): Promise<RunResult> {
  const result = await stack.run(...args);
  if (!result.ok) {
    throw new Error(
      `pulumi ${args[0]} failed:\n${result.output}\n${result.error}\n${result.stderr}`,
    );
  }
  return result;
}

beforeAll(async () => {
  production = await startTestEmulator({ createDelayMs: 0, exportDelayMs: 50 });
  fresh = await startTestEmulator({ createDelayMs: 100, importDelayMs: 100 });
  const tls = { tls: { caCert: production.caCert! } };
  await createNewSite(
    production.adminUrl,
    { serverType: "mission-server", ...PRODUCTION, runAsync: false },
    tls,
  );
  // Production's own log settings, which the fresh site's defaults do not have.
  const session = createAdminSession({ adminUrl: production.adminUrl, ...PRODUCTION, ...tls });
  await editLogSettings(session, {
    ...(await getLogSettings(session)),
    logLevel: "FINE",
    maxLogFileAge: 30,
  });
  backups = runTempDir("restore-drill-");
  stack = await RealStack.create("drill", undefined, {
    dir: path.join(REPO_ROOT, "examples", "restore-drill"),
    entry: "index.ts",
  });
  config = {
    drill: { value: "2026-11-23" },
    "arcgis-admin:adminUrl": { value: production.adminUrl },
    "arcgis-admin:username": { value: PRODUCTION.username },
    "arcgis-admin:password": { value: PRODUCTION.password, secret: true },
    "arcgis-admin:caCert": { value: production.caCert! },
    drillCaCert: { value: fresh.caCert! },
    drillAdminUrl: { value: fresh.adminUrl },
    drillUsername: { value: "drilladmin" },
    drillPassword: { value: DRILL_PASSWORD, secret: true },
    backupDir: { value: backups },
  };
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  await production?.close();
  await fresh?.close();
  if (backups !== undefined) fs.rmSync(backups, { recursive: true, force: true });
  await closeDispatchers();
});

it("previews the backup, the drill site and the restore without touching either server", async () => {
  const preview = await mustRun("preview", { config });
  expect(preview.changeSummary).toEqual({ create: 4 });
  expect(production.stats().exportsStarted).toBe(0);
  expect(fresh.stats().createNewSiteRequests).toBe(0);
}, 120_000);

it("backs up production, restores it onto the fresh machine's site, and finds both configurations the same", async () => {
  const up = await mustRun("up");
  expect(up.changeSummary).toEqual({ create: 4 });
  expect(up.outputs).toMatchObject({
    restoreOutcome: "imported",
    logSettingsMatch: true,
    logSettingsDifferences: [],
  });
  expect(up.outputs?.restoredFingerprint).toBe(`sha256:${up.outputs?.backupSha256 as string}`);
  expect(fs.existsSync(up.outputs?.backupFile as string)).toBe(true);
  const drillLogs = await getLogSettings(
    createAdminSession({
      adminUrl: fresh.adminUrl,
      username: "drilladmin",
      password: DRILL_PASSWORD,
      tls: { caCert: fresh.caCert! },
    }),
  );
  expect(drillLogs).toMatchObject({ logLevel: "FINE", maxLogFileAge: 30 });
  expect(fresh.stats()).toMatchObject({ itemsUploaded: 1, importsCompleted: 1 });
}, 180_000);

it("does not drill again without a new drill value", async () => {
  const again = await mustRun("up", { options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 4 });
  expect(production.stats().exportsStarted).toBe(1);
  expect(fresh.stats().importsStarted).toBe(1);
}, 120_000);

it("destroy deletes the drill site and keeps the backup; a second destroy finds nothing", async () => {
  const destroyed = await mustRun("destroy");
  expect(destroyed.changeSummary).toEqual({ delete: 4 });
  expect((await siteStatus(fresh.adminUrl, { tls: { caCert: fresh.caCert! } })).state).toBe(
    "no-site",
  );
  expect(fs.readdirSync(backups).filter((f) => f.endsWith(".agssite"))).toHaveLength(1);
  const again = await mustRun("destroy");
  expect(again.changeSummary ?? {}).toEqual({});
}, 120_000);

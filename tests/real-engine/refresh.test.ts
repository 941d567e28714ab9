/**
 * `pulumi refresh` through the real engine after changes made behind the stack's back: a
 * collaboration deleted on the portal, the site deleted on the server, a downloaded export file
 * removed. The state must follow reality, and a refresh with nothing changed must change nothing.
 */
import * as fs from "node:fs";
import {
  createAdminSession,
  createPortalSession,
  deleteCollaboration,
  deleteSite,
} from "../../provider/client";
import {
  portalSeed,
  SEED_PORTAL_ID,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const SITE_PASSWORD = "site-Refresh-Pass-1";
const PORTAL_PASSWORD = "portal-Refresh-Pass-2";

let emu: TestEmulator;
let downloadDir: string;
const stacks: RealStack[] = [];

function configFor(collaborationId: string): Record<string, ConfigValue> {
  return {
    adminUrl: { value: emu.adminUrl },
    sharingUrl: { value: emu.sharingUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    portalUsername: { value: "gisadmin" },
    portalPassword: { value: PORTAL_PASSWORD, secret: true },
    collaborationId: { value: collaborationId },
    downloadDir: { value: downloadDir },
  };
}

/** The names of the resources in the stack's state (the stack itself and providers left out). */
async function managed(stack: RealStack): Promise<string[]> {
  const exported = await stack.mustRun("export");
  return stateResources(exported.state)
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/arcgis-admin:"))
    .map((r) => r.urn.split("::").pop()!)
    .sort();
}

beforeAll(async () => {
  emu = await startTestEmulator({
    createDelayMs: 200,
    seed: portalSeed([{ username: "gisadmin", password: PORTAL_PASSWORD, role: "org_admin" }]),
  });
  downloadDir = runTempDir("real-engine-refresh-");
}, 60_000);

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  await emu?.close();
  if (downloadDir !== undefined) fs.rmSync(downloadDir, { recursive: true, force: true });
});

it("drops from state what was deleted out of band, and a second refresh changes nothing", async () => {
  const stack = await RealStack.create("refresh");
  stacks.push(stack);
  const up = await stack.mustRun("up", { config: configFor("hosted2") });
  expect(await managed(stack)).toEqual(["backup", "partners", "site"]);

  const clean = await stack.mustRun("refresh");
  expect(clean.changeSummary).toEqual({ same: 4 });

  // Behind the stack's back.
  const tls = { tls: { caCert: emu.caCert! } };
  const portal = createPortalSession({
    sharingUrl: emu.sharingUrl,
    username: "gisadmin",
    password: PORTAL_PASSWORD,
    ...tls,
  });
  await deleteCollaboration(portal, SEED_PORTAL_ID, "hosted2");
  fs.rmSync(up.outputs?.backupFile as string);
  const admin = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    ...tls,
  });
  await deleteSite(admin);

  const refreshed = await stack.mustRun("refresh");
  expect(refreshed.changeSummary).toEqual({ delete: 3, same: 1 });
  expect(await managed(stack)).toEqual([]);
  const again = await stack.mustRun("refresh");
  expect(again.changeSummary).toEqual({ same: 1 });
}, 240_000);

/**
 * Drift through the real engine: log settings changed on the server behind the stack's back
 * (through the server's own API) show up in `pulumi refresh`, and the next `pulumi up` applies
 * the program's settings again, in place.
 */
import { createAdminSession, editLogSettings, getLogSettings } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const SITE_PASSWORD = "site-Drift-Pass-1";
const LOG_SETTINGS = {
  logLevel: "DEBUG",
  logDir: "D:\\arcgis\\logs",
  maxErrorReportsCount: 10,
  maxLogFileAge: 90,
};

let emu: TestEmulator;
let stack: RealStack | undefined;

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 200 });
}, 60_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
});

const config: () => Record<string, ConfigValue> = () => ({
  adminUrl: { value: emu.adminUrl },
  caCert: { value: emu.caCert! },
  siteUsername: { value: "siteadmin" },
  sitePassword: { value: SITE_PASSWORD, secret: true },
  siteOnly: { value: "true" },
  siteExtra: { value: JSON.stringify({ logSettings: LOG_SETTINGS }) },
});

async function siteOutputs(s: RealStack) {
  const exported = await s.mustRun("export");
  return stateResources(exported.state).find((r) => r.urn.endsWith("::site"))!.outputs!;
}

it("refresh records the server's log settings, and up applies the program's again", async () => {
  stack = await RealStack.create("drift");
  await stack.mustRun("up", { config: config() });
  expect((await siteOutputs(stack)).logSettings).toMatchObject({ logLevel: "DEBUG" });

  const admin = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: emu.caCert! },
  });
  await editLogSettings(admin, { ...LOG_SETTINGS, logLevel: "WARNING" });

  const refreshed = await stack.mustRun("refresh");
  expect(refreshed.changeSummary).toEqual({ same: 1, update: 1 });
  expect(refreshed.output).toContain(
    'logSettings.logLevel: "DEBUG" declared, "WARNING" on the server',
  );
  expect((await siteOutputs(stack)).logSettings).toMatchObject({ logLevel: "WARNING" });

  const up = await stack.mustRun("up", { config: config() });
  expect(up.changeSummary).toEqual({ same: 1, update: 1 });
  expect((await getLogSettings(admin)).logLevel).toBe("DEBUG");
  expect(emu.stats().createNewSiteRequests).toBe(1);
}, 240_000);

/**
 * What is LogSettings' own, its implementation called directly against a real emulator: what
 * check() refuses, and the server's whole set of log settings recorded, declared or not. The rule
 * it keeps its settings by (write what differs, refresh, update, restore on destroy, the wait
 * while an export holds the site), with SystemProperties: kept-settings.test.ts.
 */
import { closeDispatchers, type ServerType } from "../../provider/client";
import { implementation as logSettings } from "../../provider/resources/log-settings/lifecycle";
import type { LogSettingsOutputs } from "../../provider/resources/log-settings/generated";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const PASSWORD = "site-Password-1";

afterAll(() => closeDispatchers());

async function siteOn(serverType: ServerType, extra: Record<string, unknown> = {}) {
  const emu = await startTestEmulator({
    serverType,
    createDelayMs: 0,
    exportDelayMs: 600,
    ...extra,
  });
  const checked = await site.check(
    {},
    siteInputs(emu, {
      serverType,
      runAsync: false,
      logSettings: {
        logLevel: "WARNING",
        logDir: "/logs",
        maxErrorReportsCount: 10,
        maxLogFileAge: 90,
      },
    }),
  );
  expect(checked.failures ?? []).toEqual([]);
  await site.create(checked.inputs);
  return emu;
}

function inputsFor(emu: TestEmulator, extra: Record<string, unknown> = {}) {
  return {
    serverType: emu.serverType,
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    tls: { caCert: emu.caCert! },
    ...extra,
  };
}

async function checked(raw: Record<string, unknown>) {
  const result = await logSettings.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

describe("LogSettings check()", () => {
  const base = {
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: PASSWORD,
  };

  it("refuses a LogSettings that manages nothing, naming the fields it could manage", async () => {
    const result = await logSettings.check({}, base);
    expect(result.failures).toEqual([
      expect.objectContaining({
        property: "logLevel",
        reason: expect.stringMatching(/at least one of logLevel, logDir/),
      }),
    ]);
  });

  it("refuses usageMeteringEnabled on ArcGIS Server and a level that does not exist, at once", async () => {
    const result = await logSettings.check(
      {},
      { ...base, serverType: "arcgis-server", usageMeteringEnabled: true, logLevel: "LOUD" },
    );
    expect((result.failures ?? []).map((f) => f.property).sort()).toEqual([
      "logLevel",
      "usageMeteringEnabled",
    ]);
  });
});

describe.each(["mission-server", "arcgis-server"] as const)("LogSettings on %s", (serverType) => {
  let emu: TestEmulator;
  beforeEach(async () => {
    emu = await siteOn(serverType);
  });
  afterEach(async () => {
    await emu.close();
  });

  it("records the server's whole set: previousSettings and serverLogSettings hold the fields it does not declare too", async () => {
    const { outs } = await logSettings.create(await checked(inputsFor(emu, { logLevel: "DEBUG" })));
    const o = outs as LogSettingsOutputs;
    expect(o.previousSettings).toMatchObject({
      logLevel: "WARNING",
      logDir: "/logs",
      maxErrorReportsCount: 10,
      maxLogFileAge: 90,
    });
    expect(o.serverLogSettings).toMatchObject({
      logLevel: "DEBUG",
      logDir: "/logs",
      maxErrorReportsCount: 10,
      maxLogFileAge: 90,
    });
    expect(o.writtenSettings).toEqual({ logLevel: "DEBUG" });
  });
});

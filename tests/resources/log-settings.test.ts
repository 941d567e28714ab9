/**
 * LogSettings' rules, its implementation called directly against a real emulator: what check()
 * refuses, create writing only what differs and recording the previous settings, diff naming only
 * real changes, update in place, refresh reporting drift, destroy leaving or restoring, and the
 * wait while an export holds the site.
 */
import {
  closeDispatchers,
  createAdminSession,
  editLogSettings,
  exportSite,
  getLogSettings,
  type ServerType,
} from "../../provider/client";
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

function sessionOf(emu: TestEmulator) {
  return createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    tls: { caCert: emu.caCert! },
  });
}

const edits = (emu: TestEmulator) =>
  emu.requestLog().filter((r) => r.method === "POST" && r.url.includes("/logs/settings/edit"))
    .length;

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

  it("fills in restoreOnDestroy false and the default time limit", async () => {
    expect(await checked({ ...base, logLevel: "INFO" })).toMatchObject({
      restoreOnDestroy: false,
      timeouts: { changeMs: 600_000 },
    });
  });
});

describe("LogSettings diff()", () => {
  const olds = {
    serverType: "mission-server",
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: PASSWORD,
    logLevel: "WARNING",
    restoreOnDestroy: false,
    timeouts: { changeMs: 600_000 },
    previousSettings: { logLevel: "INFO" },
    serverLogSettings: { logLevel: "WARNING" },
  } as LogSettingsOutputs;
  const news = () => {
    const { previousSettings: _p, serverLogSettings: _s, ...inputs } = olds;
    return inputs as Record<string, unknown>;
  };

  it("finds nothing to do when the declared fields and the rest are unchanged", async () => {
    expect(await logSettings.diff("id", olds, news())).toEqual({ changes: false });
  });

  it("updates in place when a declared field changes, and replaces only for another server", async () => {
    expect(await logSettings.diff("id", olds, { ...news(), logLevel: "DEBUG" })).toEqual({
      changes: true,
    });
    expect(await logSettings.diff("id", olds, { ...news(), password: "other" })).toEqual({
      changes: true,
    });
    expect(
      await logSettings.diff("id", olds, {
        ...news(),
        adminUrl: "https://other:20443/arcgis/admin",
      }),
    ).toEqual({ changes: true, replaces: ["adminUrl"], deleteBeforeReplace: true });
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

  it("create records the previous settings and writes only the declared field that differs", async () => {
    const inputs = await checked(inputsFor(emu, { logLevel: "DEBUG", maxLogFileAge: 90 }));
    const before = edits(emu);
    const { outs } = await logSettings.create(inputs);
    expect(edits(emu) - before).toBe(1);
    const o = outs as LogSettingsOutputs;
    expect(o.previousSettings).toMatchObject({ logLevel: "WARNING", maxLogFileAge: 90 });
    expect(o.serverLogSettings).toMatchObject({
      logLevel: "DEBUG",
      logDir: "/logs",
      maxLogFileAge: 90,
    });
    expect((await getLogSettings(sessionOf(emu))).logLevel).toBe("DEBUG");

    // Nothing differs: nothing is written.
    const same = await checked(inputsFor(emu, { logLevel: "DEBUG" }));
    await logSettings.create(same);
    expect(edits(emu) - before).toBe(1);
  });

  it("update writes the changed field in place; refresh reports drift as the server's value", async () => {
    const inputs = await checked(inputsFor(emu, { logLevel: "INFO" }));
    const { id, outs } = await logSettings.create(inputs);
    const changed = await checked(inputsFor(emu, { logLevel: "SEVERE" }));
    expect(await logSettings.diff(id, outs, changed)).toEqual({ changes: true });
    const updated = (await logSettings.update(id, outs, changed)).outs as LogSettingsOutputs;
    expect(updated.logLevel).toBe("SEVERE");
    expect(updated.previousSettings).toEqual((outs as LogSettingsOutputs).previousSettings);
    expect((await getLogSettings(sessionOf(emu))).logLevel).toBe("SEVERE");

    // Behind the stack's back.
    const session = sessionOf(emu);
    await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "FINE" });
    const refreshed = await logSettings.read(id, updated);
    expect(refreshed.props).toMatchObject({
      logLevel: "FINE",
      serverLogSettings: { logLevel: "FINE" },
    });
    expect(await logSettings.diff(id, refreshed.props, changed)).toEqual({ changes: true });
    // Without drift, refresh changes nothing.
    const clean = await logSettings.read(
      id,
      (await logSettings.update(id, refreshed.props, changed)).outs,
    );
    expect(clean.props).toMatchObject({ logLevel: "SEVERE" });
    expect(await logSettings.diff(id, clean.props, changed)).toEqual({ changes: false });
  });

  it("restoreOnDestroy restores only the fields it manages, and only where the server still holds its value", async () => {
    const session = sessionOf(emu);
    const level = await logSettings.create(
      await checked(inputsFor(emu, { logLevel: "SEVERE", restoreOnDestroy: true })),
    );
    // Another LogSettings manages maxLogFileAge; an operator changes maxErrorReportsCount.
    const age = await logSettings.create(
      await checked(inputsFor(emu, { maxLogFileAge: 7, restoreOnDestroy: true })),
    );
    await editLogSettings(session, { ...(await getLogSettings(session)), maxErrorReportsCount: 3 });

    await logSettings.delete(level.id, level.outs);
    expect(await getLogSettings(session)).toMatchObject({
      logLevel: "WARNING",
      maxLogFileAge: 7,
      maxErrorReportsCount: 3,
    });

    // Changed behind the stack's back since: left as it is.
    await editLogSettings(session, { ...(await getLogSettings(session)), maxLogFileAge: 14 });
    await logSettings.delete(age.id, age.outs);
    expect((await getLogSettings(session)).maxLogFileAge).toBe(14);
  });

  it("another spelling of the server's URL, or serverType written out, is no replacement", async () => {
    const inputs = await checked(inputsFor(emu, { logLevel: "SEVERE", restoreOnDestroy: true }));
    const { id, outs } = await logSettings.create(inputs);
    for (const adminUrl of [`${emu.adminUrl}/`, emu.adminUrl.replace("127.0.0.1", "localhost")]) {
      expect(await logSettings.diff(id, outs, { ...inputs, adminUrl })).toEqual({
        changes: true,
      });
    }
    expect(
      await logSettings.diff(
        id,
        outs,
        await checked(inputsFor(emu, { logLevel: "SEVERE", restoreOnDestroy: true })),
      ),
    ).toEqual({ changes: false });
  });

  it("destroy leaves the settings as they are, or restores the previous ones with restoreOnDestroy", async () => {
    const kept = await logSettings.create(await checked(inputsFor(emu, { logLevel: "DEBUG" })));
    const before = edits(emu);
    await logSettings.delete(kept.id, kept.outs);
    expect(edits(emu)).toBe(before);
    expect((await getLogSettings(sessionOf(emu))).logLevel).toBe("DEBUG");

    const restoring = await logSettings.create(
      await checked(inputsFor(emu, { logLevel: "SEVERE", restoreOnDestroy: true })),
    );
    expect((restoring.outs as LogSettingsOutputs).previousSettings).toMatchObject({
      logLevel: "DEBUG",
    });
    await logSettings.delete(restoring.id, restoring.outs);
    expect((await getLogSettings(sessionOf(emu))).logLevel).toBe("DEBUG");
  });

  it("waits while an export holds the site, then writes", async () => {
    const exporting = exportSite(sessionOf(emu));
    await new Promise((r) => setTimeout(r, 150));
    const { outs } = await logSettings.create(
      await checked(inputsFor(emu, { logLevel: "VERBOSE" })),
    );
    await exporting;
    expect((outs as LogSettingsOutputs).serverLogSettings).toMatchObject({ logLevel: "VERBOSE" });
    expect(emu.stats().changesRefusedDuringExport).toBeGreaterThan(0);
  });
});

import { closeDispatchers, createNewSite } from "../../provider/client";
import { implementation, withTiming } from "../../provider/resources/site/lifecycle";
import type { SiteOutputs } from "../../provider/resources/site/report";
import { UNKNOWN } from "../../provider/resources/common/inputs/check";
import { connectionsDuring } from "../../tools/harness/connections";
import { implementation as logSettings } from "../../provider/resources/log-settings/lifecycle";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

/**
 * The Site implementation polling every 50 ms instead of 700 ms (a fresh install every 50 ms
 * instead of 1 s), so that the suite does not wait out the production intervals in real time.
 * The test of the polling rate uses `implementation`, with the production intervals.
 */
const site = withTiming({ pollIntervalMs: 50, serverPollIntervalMs: 50 });

/** Runs check() and fails the test if the inputs are rejected. */
async function checked(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await site.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

describe("Site check()", () => {
  const base = {
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: "site-Password-1",
  };

  it("fills in the defaults", async () => {
    const inputs = await checked(base);
    expect(inputs).toMatchObject({
      serverType: "mission-server",
      runAsync: false,
      adoptExisting: false,
      deleteSiteOnDestroy: false,
      timeouts: { serverReadyMs: 15 * 60_000, createMs: 60 * 60_000 },
    });
    expect(inputs).not.toHaveProperty("configStoreConnection");
    expect(inputs).not.toHaveProperty("directories");
  });

  it("returns every problem at once, each with its property path", async () => {
    const result = await site.check(
      {},
      {
        ...base,
        serverType: "arcgis-server",
        adminUrl: "ftp://gis.example.com/arcgis/admin",
        directories: [
          { name: "sys", physicalPath: "C:\\arcgis\\system", directoryType: "SYSTEM" },
          { name: "", physicalPath: "/x", directoryType: "BOGUS" },
          {
            name: "jobs",
            physicalPath: "/jobs",
            directoryType: "SYSTEM",
            cleanupMode: "NONE",
            maxFileAge: 5,
          },
          { name: "out", physicalPath: "/out", directoryType: "OUTPUT", cleanupMode: "SOMETIMES" },
        ],
        logSettings: {
          logLevel: "INFO",
          logDir: "/logs",
          maxErrorReportsCount: -1,
          maxLogFileAge: 3,
        },
        timeouts: { createMs: -5 },
      },
    );
    const byPath = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        "adminUrl",
        "directories[1].name",
        "directories[1].directoryType",
        "directories[2].maxFileAge",
        "directories[2].directoryType",
        "directories[3].cleanupMode",
        "logSettings.maxErrorReportsCount",
        "timeouts.createMs",
      ].sort(),
    );
    expect(byPath["adminUrl"]).toMatch(/http\(s\) URL/);
    expect(byPath["directories[1].directoryType"]).toMatch(
      /JOBS, OUTPUT, CACHE, SYSTEM for ArcGIS Server/,
    );
    expect(byPath["directories[2].directoryType"]).toMatch(/exactly one SYSTEM/);
    expect(byPath["directories[2].maxFileAge"]).toMatch(/0 when cleanupMode is NONE/);
    expect(byPath["logSettings.maxErrorReportsCount"]).toMatch(/negative/);
  });

  it("refuses, naming the field and the product, what the product's createNewSite has no place for", async () => {
    const mission = await site.check(
      {},
      {
        ...base,
        configStoreConnection: {
          type: "FILESYSTEM",
          connectionString: "/store",
          localRepositoryPath: "/local",
        },
        directories: [
          { name: "cache", physicalPath: "/c", directoryType: "CACHE" },
          {
            name: "jobs",
            physicalPath: "/j",
            directoryType: "JOBS",
            cleanupMode: "NONE",
            maxFileAge: 0,
            description: "Jobs",
          },
        ],
      },
    );
    const byPath = Object.fromEntries((mission.failures ?? []).map((f) => [f.property, f.reason]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        "configStoreConnection.localRepositoryPath",
        "directories[0].directoryType",
        "directories[1].cleanupMode",
        "directories[1].maxFileAge",
        "directories[1].description",
      ].sort(),
    );
    expect(byPath["directories[0].directoryType"]).toMatch(
      /JOBS, OUTPUT, SYSTEM, WORKSPACE for Mission Server \(WORKSPACE only on 10.8\)/,
    );
    expect(byPath["directories[1].cleanupMode"]).toMatch(/Mission Server's createNewSite has no/);

    const classic = await site.check(
      {},
      {
        ...base,
        serverType: "arcgis-server",
        configStoreConnection: { type: "AZURE", connectionString: "x", username: "acct" },
        logSettings: {
          logLevel: "INFO",
          logDir: "/l",
          maxErrorReportsCount: 1,
          maxLogFileAge: 1,
          usageMeteringEnabled: false,
        },
      },
    );
    expect((classic.failures ?? []).map((f) => f.property).sort()).toEqual([
      "configStoreConnection.username",
      "logSettings.usageMeteringEnabled",
    ]);

    const video = await site.check(
      {},
      {
        ...base,
        serverType: "video-server",
        directories: [
          { name: "up", physicalPath: "/u", directoryType: "UPLOADS" },
          { name: "sys", physicalPath: "/s", directoryType: "SYSTEM" },
        ],
      },
    );
    expect(video.failures).toEqual([
      {
        property: "directories[1].directoryType",
        reason: "must be one of UPLOADS, DATA for Video Server",
      },
    ]);
  });

  it("names unknown properties", async () => {
    const result = await site.check({}, { ...base, pasword: "typo" });
    expect(result.failures).toEqual([
      { property: "pasword", reason: "unknown property; check its spelling" },
    ]);
  });

  it("tolerates values that are still unknown during a preview", async () => {
    const result = await site.check(
      {},
      {
        ...base,
        adminUrl: UNKNOWN,
        directories: [{ name: "a", physicalPath: UNKNOWN, directoryType: "JOBS" }],
      },
    );
    expect(result.failures).toEqual([]);
  });

  it("still reports known problems next to unknown values", async () => {
    const result = await site.check({}, { ...base, adminUrl: UNKNOWN, username: "" });
    expect(result.failures).toEqual([{ property: "username", reason: "must not be empty" }]);
  });
});

describe("Site diff() and update()", () => {
  const olds = {
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: "site-Password-1",
    runAsync: true,
    adoptExisting: false,
    deleteSiteOnDestroy: false,
    timeouts: { serverReadyMs: 1000, createMs: 2000 },
    state: "created",
    createdAt: "2026-11-22T10:00:00.000Z",
    machines: ["MACHINE1"],
  } as SiteOutputs;
  const news = () => {
    const { state: _s, createdAt: _c, machines: _m, ...inputs } = olds;
    return { ...inputs };
  };

  it("reports no change when the inputs are the same", async () => {
    expect(await site.diff("id", olds, news())).toEqual({ changes: false });
  });

  it("rejects a change to a site-defining input, naming the properties and the reason", async () => {
    await expect(
      site.diff("id", olds, {
        ...news(),
        directories: [{ name: "d", physicalPath: "/d", directoryType: "JOBS" }],
        password: "other-Password-2",
      }),
    ).rejects.toThrow(/Cannot change directories of .*already in a site.*createNewSite cannot run/);
  });

  it("does not put the password in the rejection", async () => {
    await expect(
      site.diff("id", olds, {
        ...news(),
        directories: [{ name: "d", physicalPath: "/d", directoryType: "JOBS" }],
        password: "other-Password-2",
      }),
    ).rejects.toThrow(
      expect.objectContaining({ message: expect.not.stringMatching(/Password-[12]/) }),
    );
  });

  it.each([false, true])(
    "takes a credential change as an update, never a replacement (deleteSiteOnDestroy: %s)",
    async (deleteSiteOnDestroy) => {
      const before = { ...olds, deleteSiteOnDestroy };
      expect(
        await site.diff("id", before, {
          ...news(),
          deleteSiteOnDestroy,
          password: "rotated-Password-2",
        }),
      ).toEqual({ changes: true });
      expect(
        await site.diff("id", before, { ...news(), deleteSiteOnDestroy, username: "otheradmin" }),
      ).toEqual({ changes: true });
    },
  );

  it("replaces only for the site-defining inputs when credentials change with them", async () => {
    const result = await site.diff(
      "id",
      { ...olds, deleteSiteOnDestroy: true },
      {
        ...news(),
        deleteSiteOnDestroy: true,
        password: "rotated-Password-2",
        directories: [{ name: "d", physicalPath: "/d", directoryType: "JOBS" }],
      },
    );
    expect(result).toEqual({ changes: true, replaces: ["directories"], deleteBeforeReplace: true });
  });

  it("replaces, deleting first, when deleteSiteOnDestroy is set", async () => {
    const result = await site.diff(
      "id",
      { ...olds, deleteSiteOnDestroy: true },
      {
        ...news(),
        deleteSiteOnDestroy: true,
        configStoreConnection: { type: "FILESYSTEM", connectionString: "/other-store" },
      },
    );
    expect(result).toEqual({
      changes: true,
      replaces: ["configStoreConnection"],
      deleteBeforeReplace: true,
    });
  });

  it("waits for known values before judging a site-defining change", async () => {
    expect(await site.diff("id", olds, { ...news(), adminUrl: UNKNOWN })).toEqual({
      changes: true,
    });
  });

  it("treats tls, timeouts and the flags as state-only updates that keep every output", async () => {
    const next = {
      ...news(),
      runAsync: false,
      tls: { insecureSkipVerify: false },
      timeouts: { serverReadyMs: 5000, createMs: 6000 },
    };
    const d = await site.diff("id", olds, next);
    expect(d).toEqual({ changes: true });
    const { outs } = await site.update("id", olds, next);
    expect(outs).toEqual({
      ...olds,
      runAsync: false,
      tls: { insecureSkipVerify: false },
      timeouts: { serverReadyMs: 5000, createMs: 6000 },
    });
  });
});

/** The requests `emu` received from index `from` on, as `METHOD /path` (no query). */
function sentSince(emu: TestEmulator, from: number): string[] {
  return emu
    .requestLog()
    .slice(from)
    .map((r) => `${r.method} ${r.url.replace(/\?.*$/, "")}`);
}

describe("Site against the emulator", () => {
  let emu: TestEmulator;

  afterEach(async () => {
    await emu?.close();
  });

  it("creates a site synchronously by default with one createNewSite, and a refresh records its machines and log settings", async () => {
    emu = await startTestEmulator({ machineName: "GISMACHINE1", createDelayMs: 300 });
    const inputs = await checked(siteInputs(emu));
    const { id, outs } = await site.create(inputs);
    expect(id).toBe(emu.adminUrl);
    expect(outs).toMatchObject({
      state: "created",
      adminUrl: emu.adminUrl,
      serverType: "mission-server",
      serverVersion: emu.serverVersion,
    });
    const createCalls = emu.requestLog().filter((r) => r.url.includes("createNewSite"));
    expect(createCalls).toHaveLength(1);
    expect(new Date(outs.createdAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(emu.stats().sitesCreated).toBe(1);
    // The next refresh reads what the create did not: the machines and the log settings.
    const refreshed = (await site.read(id, outs)).props as SiteOutputs;
    expect(refreshed.machines).toEqual(["GISMACHINE1"]);
    expect(refreshed.serverLogSettings).toMatchObject({ logLevel: expect.any(String) });
    expect(refreshed).toMatchObject({ state: "created", createdAt: outs.createdAt });
  });

  it("refreshes over one connection: the site's reads travel one after the other, each TLS handshake saved", async () => {
    emu = await startTestEmulator({ createDelayMs: 0 });
    const { id, outs } = await site.create(await checked(siteInputs(emu)));
    await closeDispatchers();
    const before = emu.requestLog().length;
    const { result, connections } = await connectionsDuring(() => site.read(id, outs));
    const refreshed = result.props as SiteOutputs;
    expect(refreshed.serverDirectories).toBeDefined();
    expect(refreshed.serverConfigStore).toBeDefined();
    expect(connections).toBe(1);
    // The token proves the site: no status request at the admin root before it.
    expect(sentSince(emu, before)).toEqual([
      "POST /arcgis/admin/generateToken",
      "GET /arcgis/admin/machines",
      "GET /arcgis/rest/info",
      "GET /arcgis/admin/logs/settings",
      "GET /arcgis/admin/system/directories",
      "GET /arcgis/admin/system/configstore",
    ]);
  });

  it("refreshes a Site and its LogSettings at once over one connection: their reads take turns", async () => {
    emu = await startTestEmulator({ createDelayMs: 0 });
    const { id, outs } = await site.create(await checked(siteInputs(emu)));
    const logs = await logSettings.check({}, siteInputs(emu, { logLevel: "WARNING" }));
    const written = await logSettings.create(logs.inputs);
    await closeDispatchers();
    const { result, connections } = await connectionsDuring(() =>
      Promise.all([site.read(id, outs), logSettings.read(written.id, written.outs)]),
    );
    expect(result.map((r) => r.id)).toEqual([id, written.id]);
    expect(connections).toBe(1);
  });

  it("refreshes with a token asked for then, not the one cached before the site was deleted", async () => {
    emu = await startTestEmulator({ createDelayMs: 0 });
    const inputs = await checked(siteInputs(emu, { deleteSiteOnDestroy: true }));
    const { id, outs } = await site.create(inputs);
    // This read caches a token for the account; the delete then uses it.
    expect((await site.read(id, outs)).id).toBe(id);
    await site.delete(id, outs);
    const before = emu.requestLog().length;
    expect(await site.read(id, outs)).toEqual({});
    expect(sentSince(emu, before)[0]).toBe("POST /arcgis/admin/generateToken");
  });

  const LOGS = {
    logLevel: "WARNING",
    logDir: "/data/logs",
    maxErrorReportsCount: 10,
    maxLogFileAge: 90,
  };

  it("creates with 4 requests one after the other on one connection: status, Mission Server's health check, version, then createNewSite, and returns with its answer", async () => {
    emu = await startTestEmulator({ createDelayMs: 0 });
    const inputs = await checked(
      siteInputs(emu, {
        directories: [{ name: "system", physicalPath: "/data/system", directoryType: "SYSTEM" }],
        configStoreConnection: { type: "FILESYSTEM", connectionString: "/data/config-store" },
        logSettings: LOGS,
      }),
    );
    const before = emu.requestLog().length;
    const { result, connections } = await connectionsDuring(() => site.create(inputs));
    const outs = result.outs as SiteOutputs;
    // The exact sequence, each request after the answer before it, so one TLS handshake serves
    // them all. No token and no read after createNewSite's answer, as Esri's Ansible flow.
    expect(sentSince(emu, before)).toEqual([
      "GET /arcgis/admin/",
      "GET /arcgis/rest/healthcheck",
      "GET /arcgis/rest/info",
      "POST /arcgis/admin/createNewSite",
    ]);
    expect(connections).toBe(1);
    // Not read back after the synchronous answer: unset (not copied from the inputs) until a refresh.
    for (const key of ["machines", "serverLogSettings", "serverDirectories", "serverConfigStore"]) {
      expect(outs).not.toHaveProperty(key);
    }
    expect(outs.logSettings).toEqual(LOGS);
    expect(outs.serverVersion).toBe(emu.serverVersion);
  });

  it("after an asynchronous start, waits and reads with one token", async () => {
    emu = await startTestEmulator({ createDelayMs: 200 });
    const inputs = await checked(siteInputs(emu, { runAsync: true }));
    const before = emu.requestLog().length;
    const { outs } = await site.create(inputs);
    const sent = sentSince(emu, before);
    // The wait's token (its readiness signal) serves the reads after it.
    expect(sent.filter((r) => r.endsWith("/generateToken"))).toHaveLength(1);
    expect(sent.slice(-4).sort()).toEqual([
      "GET /arcgis/admin/logs/settings",
      "GET /arcgis/admin/machines",
      "GET /arcgis/admin/system/configstore",
      "GET /arcgis/admin/system/directories",
    ]);
    expect(outs.machines).toHaveLength(1);
  });

  it("records a password rotated on the server once it obtains a token, and sends no deleteSite or createNewSite", async () => {
    emu = await startTestEmulator();
    const inputs = await checked(siteInputs(emu, { runAsync: false, deleteSiteOnDestroy: true }));
    const { outs } = await site.create(inputs);
    // State still holds the password from before the rotation; the server has the new one.
    const olds = { ...outs, password: "before-Rotation-0" } as SiteOutputs;
    const news = { ...inputs };
    expect(await site.diff(emu.adminUrl, olds, news)).toEqual({ changes: true });
    const updated = await site.update(emu.adminUrl, olds, news);
    expect(updated.outs).toEqual({ ...outs, password: "site-Password-1" });
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
    expect(emu.requestLog().filter((r) => r.url.includes("deleteSite"))).toEqual([]);
  });

  it("refuses a new password the server does not accept, saying it changes nothing on the server", async () => {
    emu = await startTestEmulator();
    const inputs = await checked(siteInputs(emu, { runAsync: false, deleteSiteOnDestroy: true }));
    const { outs } = await site.create(inputs);
    const news = { ...inputs, password: "not-Rotated-9" };
    expect(await site.diff(emu.adminUrl, outs as SiteOutputs, news)).toEqual({ changes: true });
    const error = await site.update(emu.adminUrl, outs as SiteOutputs, news).then(
      () => new Error("update succeeded"),
      (e: Error) => e,
    );
    expect(error.message).toMatch(
      /new credentials of siteadmin .* were not recorded: the server does not accept them\. This resource does not change the password on the server/,
    );
    expect(error.message).not.toContain("not-Rotated-9");
    expect(error.message).not.toContain("site-Password-1");
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
    expect(emu.requestLog().filter((r) => r.url.includes("deleteSite"))).toEqual([]);
  });

  it("creates asynchronously and returns soon after the server finishes", async () => {
    emu = await startTestEmulator({ createDelayMs: 1500 });
    const inputs = await checked(siteInputs(emu, { runAsync: true }));
    const started = Date.now();
    const { outs } = await implementation.create(inputs);
    const took = Date.now() - started;
    expect(outs.state).toBe("created");
    expect(took).toBeGreaterThanOrEqual(1500);
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
    // Polling must not hammer the server: a few requests a second at most.
    const polls = emu
      .requestLog()
      .filter((r) => r.url.includes("/arcgis/admin/?") || r.url.endsWith("/arcgis/admin/"));
    expect(polls.length).toBeLessThanOrEqual(Math.ceil(took / 1000) * 3 + 3);
  });

  it("sends the optional settings only when they are given", async () => {
    emu = await startTestEmulator();
    const inputs = await checked(
      siteInputs(emu, {
        configStoreConnection: { type: "FILESYSTEM", connectionString: "D:\\arcgis\\config-store" },
        directories: [
          { name: "arcgissystem", physicalPath: "D:\\arcgis\\system", directoryType: "SYSTEM" },
        ],
      }),
    );
    await site.create(inputs);
    const create = emu.requestLog().find((r) => r.url.includes("createNewSite"));
    expect(create?.url).not.toMatch(/password/);
    expect(emu.stats().sitesCreated).toBe(1);
  });

  it("reports a failure the server reports during creation at once", async () => {
    emu = await startTestEmulator({ createDelayMs: 800 });
    emu.failNextCreate("The specified configuration store location is not accessible.");
    const inputs = await checked(
      siteInputs(emu, { timeouts: { serverReadyMs: 10_000, createMs: 60_000 } }),
    );
    const started = Date.now();
    await expect(site.create(inputs)).rejects.toThrow(
      /failed.*configuration store location is not accessible/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses a machine that is already in a site and says what to do", async () => {
    emu = await startTestEmulator();
    const inputs = await checked(siteInputs(emu));
    await site.create(inputs);
    const error = await site.create(inputs).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/already participates in a site/);
    expect((error as Error).message).toMatch(/adoptExisting: true/);
    expect((error as Error).message).toMatch(/alias/);
    expect(emu.stats().createNewSiteRequests).toBe(1);
  });

  it("adopts an existing site with adoptExisting and working credentials, without createNewSite", async () => {
    emu = await startTestEmulator();
    await site.create(await checked(siteInputs(emu)));
    const { outs } = await site.create(await checked(siteInputs(emu, { adoptExisting: true })));
    expect(outs.state).toBe("adopted");
    expect(emu.stats().createNewSiteRequests).toBe(1);
  });

  it("adopts a site whose creation another client started, once it is ready", async () => {
    // No documented signal tells "creation in progress" from "no site", so createNewSite is
    // sent; the machine answers it "token required" (it is taking part in a site), and the
    // site is adopted once ready. The running creation is not disturbed.
    emu = await startTestEmulator({ createDelayMs: 1200 });
    await createNewSite(
      emu.adminUrl,
      { username: "siteadmin", password: "site-Password-1", runAsync: true },
      { tls: { caCert: emu.caCert! } },
    );
    const { outs } = await site.create(await checked(siteInputs(emu, { adoptExisting: true })));
    expect(outs.state).toBe("adopted");
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 2, sitesCreated: 1 });
  });

  it("refuses a server whose answers show another product before sending createNewSite", async () => {
    emu = await startTestEmulator({ serverType: "arcgis-server" });
    await expect(site.create(await checked(siteInputs(emu)))).rejects.toThrow(
      /answers its admin root in ArcGIS Server's format .* but serverType is "mission-server".*serverType: "arcgis-server".*Nothing was sent/,
    );
    expect(emu.stats().createNewSiteRequests).toBe(0);
  });

  it("refuses createNewSite on a server older than the operation, naming the version found", async () => {
    emu = await startTestEmulator({ serverVersion: "10.7" });
    await expect(site.create(await checked(siteInputs(emu)))).rejects.toThrow(
      /Mission Server at .* is version 10\.7.*; createNewSite exists from 10\.8\. Nothing was sent/,
    );
    expect(emu.stats().createNewSiteRequests).toBe(0);
  });

  it("creates a site on every product in its own dialect", async () => {
    for (const serverType of ["arcgis-server", "notebook-server", "video-server"] as const) {
      await emu?.close();
      emu = await startTestEmulator({ serverType, createDelayMs: 200 });
      const directories =
        serverType === "video-server"
          ? [{ name: "up", physicalPath: "/data/up", directoryType: "UPLOADS" }]
          : [{ name: "sys", physicalPath: "/data/sys", directoryType: "SYSTEM" }];
      const { outs } = await site.create(
        await checked(siteInputs(emu, { serverType, directories })),
      );
      expect(outs).toMatchObject({
        state: "created",
        serverType,
        serverVersion: emu.serverVersion,
      });
      expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
    }
  });

  it("on Video Server, adopts with the version read with a token, and refresh forgets a deleted site on its refused token", async () => {
    emu = await startTestEmulator({ serverType: "video-server" });
    const video = { serverType: "video-server", deleteSiteOnDestroy: true };
    await site.create(await checked(siteInputs(emu, video)));
    const { id, outs } = await site.create(
      await checked(siteInputs(emu, { ...video, adoptExisting: true })),
    );
    expect(outs).toMatchObject({ state: "adopted", serverVersion: emu.serverVersion });
    await site.delete(id, outs);
    // No documented health-check "no site" on Video Server: the refused token (in the product's
    // own error format) together with the admin root's error is the conclusive pair.
    expect(await site.read(id, outs)).toEqual({});
  });

  it("refuses to adopt with credentials that obtain no admin token", async () => {
    emu = await startTestEmulator();
    await site.create(await checked(siteInputs(emu)));
    await expect(
      site.create(
        await checked(siteInputs(emu, { adoptExisting: true, password: "wrong-Password-9" })),
      ),
    ).rejects.toThrow(/adoptExisting is set, but the given credentials could not obtain/);
  });

  it("waits for a server that is not up yet, bounded by serverReadyMs", async () => {
    emu = await startTestEmulator();
    const deadUrl = emu.adminUrl.replace(/:\d+\//, ":9/");
    const inputs = await checked(
      siteInputs(emu, { adminUrl: deadUrl, timeouts: { serverReadyMs: 1500, createMs: 1000 } }),
    );
    const started = Date.now();
    await expect(site.create(inputs)).rejects.toThrow(
      /was not ready within timeouts.serverReadyMs/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    // Far below the default wait (minutes), with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("refresh keeps a site that exists and forgets one that is gone", async () => {
    emu = await startTestEmulator();
    const inputs = await checked(siteInputs(emu, { deleteSiteOnDestroy: true }));
    const { id, outs } = await site.create(inputs);
    const kept = await site.read(id, outs);
    expect(kept.id).toBe(id);
    expect(kept.props).toMatchObject({ state: "created" });
    await site.delete(id, outs);
    expect(await site.read(id, outs)).toEqual({});
  });

  it("leaves the site running on delete unless deleteSiteOnDestroy is set", async () => {
    emu = await startTestEmulator();
    const { id, outs } = await site.create(await checked(siteInputs(emu)));
    await site.delete(id, outs);
    expect((await site.read(id, outs)).id).toBe(id);
  });
});

describe("Site through a faulty network", () => {
  let emu: TestEmulator;
  let proxy: FaultProxy;

  beforeEach(async () => {
    emu = await startTestEmulator({ tls: false, createDelayMs: 600 });
    proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  });
  afterEach(async () => {
    await proxy.close();
    await emu.close();
  });

  const recognisable = {
    configStoreConnection: { type: "FILESYSTEM", connectionString: "/data/config-store" },
    directories: [
      { name: "arcgissystem", physicalPath: "/data/system", directoryType: "SYSTEM" },
      { name: "arcgisjobs", physicalPath: "/data/jobs", directoryType: "JOBS" },
    ],
  };

  it("recovers from a lost createNewSite answer without sending it twice, after checking the site is its own", async () => {
    proxy.setRule(({ path }) =>
      path.includes("/createNewSite") ? { kind: "drop-answer" } : undefined,
    );
    const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
    const inputs = await checked(siteInputs(emu, { adminUrl, tls: {}, ...recognisable }));
    const { outs } = await site.create(inputs);
    expect(outs.state).toBe("created");
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
    const reads = proxy.seen.map((s) => s.path.split("?")[0]);
    expect(reads).toContain("/arcgis/admin/system/configstore");
    expect(reads).toContain("/arcgis/admin/system/directories");
  });

  it("does not claim another stack's site when its own createNewSite never arrived", async () => {
    // The proxy answers 502 without forwarding; meanwhile another client creates a site with
    // the same credentials but its own config store and directories.
    proxy.setRule(({ path }) =>
      path.includes("/createNewSite") ? { kind: "status", status: 502 } : undefined,
    );
    const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
    const inputs = await checked(
      siteInputs(emu, {
        adminUrl,
        tls: {},
        ...recognisable,
        timeouts: { serverReadyMs: 5_000, createMs: 20_000 },
      }),
    );
    const ours = site.create(inputs);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await createNewSite(emu.adminUrl, {
      username: "siteadmin",
      password: "site-Password-1",
      configStoreConnection: { type: "FILESYSTEM", connectionString: "/other/config-store" },
      directories: [
        { name: "arcgissystem", physicalPath: "/other/system", directoryType: "SYSTEM" },
      ],
    });
    const error = (await ours.catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/cannot be shown to be the one this stack asked for/);
    expect(error.message).toMatch(/config store is elsewhere/);
    expect(error.message).toMatch(/adoptExisting: true/);
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });

    const adopted = await site.create(
      await checked(siteInputs(emu, { adminUrl, tls: {}, ...recognisable, adoptExisting: true })),
    );
    expect(adopted.outs.state).toBe("adopted");
  });

  it("after a lost answer, records a site it cannot recognise only as adopted, and only with adoptExisting", async () => {
    proxy.setRule(({ path }) =>
      path.includes("/createNewSite") ? { kind: "drop-answer" } : undefined,
    );
    const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
    const error = (await site
      .create(await checked(siteInputs(emu, { adminUrl, tls: {} })))
      .catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/nothing this stack sent can be compared/);
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
  });

  it("after an asynchronous start, reads the log settings back and applies the declared ones when the server reports others", async () => {
    const logSettings = {
      logLevel: "WARNING",
      logDir: "/data/logs",
      maxErrorReportsCount: 10,
      maxLogFileAge: 90,
    };
    let firstRead = true;
    proxy.setRule(({ method, path }) => {
      if (method === "GET" && path.startsWith("/arcgis/admin/logs/settings?") && firstRead) {
        firstRead = false;
        return {
          kind: "answer",
          status: 200,
          body: JSON.stringify({ ...logSettings, logLevel: "INFO" }),
        };
      }
      return undefined;
    });
    const edits: string[] = [];
    proxy.observe((x) => {
      if (x.path.startsWith("/arcgis/admin/logs/settings/edit"))
        edits.push(x.requestBody.toString());
    });
    const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
    const { outs } = await site.create(
      await checked(siteInputs(emu, { adminUrl, tls: {}, logSettings, runAsync: true })),
    );
    expect(edits).toHaveLength(1);
    const form = Object.fromEntries(new URLSearchParams(edits[0]));
    expect(form).toMatchObject({
      logLevel: "WARNING",
      logDir: "/data/logs",
      maxErrorReportsCount: "10",
      maxLogFileAge: "90",
    });
    expect(outs.serverLogSettings).toMatchObject(logSettings);
  });

  it.each([
    {
      name: "a web adaptor that reaches no machine",
      status: 200,
      body: {
        status: "error",
        code: 500,
        messages: [
          "Could not access any server machines. Please contact your system administrator.",
        ],
      },
    },
    { name: "a JSON 503", status: 503, body: { error: { code: 503, message: "Unavailable." } } },
    { name: "a JSON 500", status: 500, body: { error: { code: 500, message: "Internal error." } } },
    {
      name: "a sharing-style 403",
      status: 200,
      body: {
        error: { code: 403, message: "You do not have permissions to access this resource." },
      },
    },
  ])(
    "treats $name at the admin root and its generateToken as unreachable: refresh errors and keeps state, destroy does not skip deleteSite",
    async ({ status, body }) => {
      const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
      const { id, outs } = await site.create(
        await checked(siteInputs(emu, { adminUrl, tls: {}, deleteSiteOnDestroy: true })),
      );
      // What answers in front of the machine answers every path so (a refresh that obtains a
      // token reads the site without asking the admin root).
      proxy.setRule(({ path }) =>
        path.startsWith("/arcgis/admin/?") ||
        path === "/arcgis/admin/" ||
        path.startsWith("/arcgis/admin/generateToken")
          ? { kind: "answer", status, body: JSON.stringify(body) }
          : undefined,
      );
      await expect(site.read(id, outs)).rejects.toThrow(
        /Cannot refresh the site at .*Nothing was changed in state/,
      );
      await expect(site.delete(id, outs)).rejects.toThrow(
        /Cannot delete the site at .*deleteSite was not sent/,
      );
      expect(emu.requestLog().filter((r) => r.url.includes("deleteSite"))).toHaveLength(0);
      proxy.setRule(() => undefined);
      expect((await site.read(id, outs)).id).toBe(id);
    },
  );

  it("refresh whose token answer is lost errors at once, asks nothing else and keeps state", async () => {
    const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
    const { id, outs } = await site.create(
      await checked(siteInputs(emu, { adminUrl, tls: {}, deleteSiteOnDestroy: true })),
    );
    proxy.setRule(({ path }) =>
      path.startsWith("/arcgis/admin/generateToken") ? { kind: "reset" } : undefined,
    );
    const before = emu.requestLog().length;
    await expect(site.read(id, outs)).rejects.toThrow(
      /Cannot refresh the site at .*Nothing was changed in state/,
    );
    expect(sentSince(emu, before)).toEqual([]);
    proxy.setRule(() => undefined);
    expect((await site.read(id, outs)).id).toBe(id);
  });

  it("on ArcGIS Server, never concludes from the admin root that a site is gone", async () => {
    await proxy.close();
    await emu.close();
    emu = await startTestEmulator({ tls: false, serverType: "arcgis-server" });
    proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
    const { id, outs } = await site.create(
      await checked(siteInputs(emu, { serverType: "arcgis-server", deleteSiteOnDestroy: true })),
    );
    await site.delete(id, outs);
    await expect(site.read(id, outs)).rejects.toThrow(
      /does not confirm that the site is gone .*web adaptor.*pulumi state delete/,
    );
  });

  it("keeps polling through 502 answers from a proxy while the site is created", async () => {
    // The first polls after createNewSite meet a proxy that answers 502, as load balancers do.
    let created = false;
    let failed = 0;
    proxy.setRule(({ path }) => {
      if (path.includes("/createNewSite")) {
        created = true;
        return undefined;
      }
      if (created && failed < 4) {
        failed += 1;
        return { kind: "status", status: 502 };
      }
      return undefined;
    });
    const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
    const { outs } = await site.create(
      await checked(
        siteInputs(emu, {
          adminUrl,
          tls: {},
          runAsync: true,
          timeouts: { serverReadyMs: 5000, createMs: 20_000 },
        }),
      ),
    );
    expect(outs.state).toBe("created");
    expect(proxy.seen.filter((s) => s.fault === "status").length).toBe(4);
    expect(emu.stats().createNewSiteRequests).toBe(1);
  });
});

import { createNewSite } from "../../provider/client";
import { implementation as site, type SiteOutputs } from "../../provider/resources/site";
import { UNKNOWN } from "../../provider/resources/common";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy";
import { siteInputs, startTestEmulator, type TestEmulator } from "../helpers/emulator";

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
      runAsync: true,
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
    expect(byPath["directories[1].directoryType"]).toMatch(/JOBS, OUTPUT, SYSTEM/);
    expect(byPath["directories[2].directoryType"]).toMatch(/exactly one SYSTEM/);
    expect(byPath["directories[2].maxFileAge"]).toMatch(/0 when cleanupMode is NONE/);
    expect(byPath["logSettings.maxErrorReportsCount"]).toMatch(/negative/);
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
        logSettings: { logLevel: "FINE", logDir: "/l", maxErrorReportsCount: 1, maxLogFileAge: 1 },
      },
    );
    expect(result).toEqual({ changes: true, replaces: ["logSettings"], deleteBeforeReplace: true });
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

describe("Site against the emulator", () => {
  let emu: TestEmulator;

  afterEach(async () => {
    await emu?.close();
  });

  it("creates a site synchronously and records its machines", async () => {
    emu = await startTestEmulator({ machineName: "GISMACHINE1" });
    const inputs = await checked(siteInputs(emu, { runAsync: false }));
    const { id, outs } = await site.create(inputs);
    expect(id).toBe(emu.adminUrl);
    expect(outs).toMatchObject({
      state: "created",
      machines: ["GISMACHINE1"],
      adminUrl: emu.adminUrl,
    });
    expect(new Date(outs.createdAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(emu.stats().sitesCreated).toBe(1);
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
    const inputs = await checked(siteInputs(emu));
    const started = Date.now();
    const { outs } = await site.create(inputs);
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

  it("waits for a creation already running on the machine, then adopts its site", async () => {
    emu = await startTestEmulator({ createDelayMs: 1200 });
    await createNewSite(
      emu.adminUrl,
      { username: "siteadmin", password: "site-Password-1", runAsync: true },
      { tls: { caCert: emu.caCert! } },
    );
    const { outs } = await site.create(await checked(siteInputs(emu, { adoptExisting: true })));
    expect(outs.state).toBe("adopted");
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
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
    expect(Date.now() - started).toBeLessThan(6000);
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

  it("recovers from a lost createNewSite answer without sending it twice", async () => {
    proxy.setRule(({ path }) =>
      path.includes("/createNewSite") ? { kind: "drop-answer" } : undefined,
    );
    const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
    const inputs = await checked(siteInputs(emu, { adminUrl, tls: {} }));
    const { outs } = await site.create(inputs);
    expect(outs.state).toBe("created");
    expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
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
        siteInputs(emu, { adminUrl, tls: {}, timeouts: { serverReadyMs: 5000, createMs: 20_000 } }),
      ),
    );
    expect(outs.state).toBe("created");
    expect(proxy.seen.filter((s) => s.fault === "status").length).toBe(4);
    expect(emu.stats().createNewSiteRequests).toBe(1);
  });
});

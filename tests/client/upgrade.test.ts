/**
 * Completing an upgrade through the client, over the network against the emulator started as a
 * site whose software was upgraded (`upgradeFrom`): required → completed once → no longer
 * required, per product (ArcGIS Server's `upgradeStatus`, Mission Server's `isUpgrade`), the
 * asynchronous form of ArcGIS Server 11.4 polled to its end, `runAsync` refused where there is
 * none, and a lost answer that is never followed by a second upgrade.
 */
import { promises as fs } from "node:fs";
import {
  closeDispatchers,
  completeUpgrade,
  createAdminSession,
  createNewSite,
  getSystemProperties,
  getUpgradeStatus,
  isArcGISRequestError,
  upgradeRunsAsync,
  type ArcGISRequestError,
  type ServerType,
  type WaitStatus,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { mockAgent } from "../../tools/harness/mock-agent";

const ADMIN = { username: "siteadmin", password: "upgrade-Admin-Pass-1" };

async function failure(promise: Promise<unknown>): Promise<ArcGISRequestError> {
  try {
    await promise;
  } catch (error) {
    if (isArcGISRequestError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

/** An emulator whose site was created at `from` and whose software is now `to`. */
async function upgradedSoftware(
  serverType: ServerType,
  from: string,
  to: string,
  upgradeDelayMs = 50,
): Promise<TestEmulator> {
  const old = await startTestEmulator({ serverType, serverVersion: from, createDelayMs: 0 });
  await createNewSite(old.adminUrl, { serverType, ...ADMIN }, { tls: { caCert: old.caCert! } });
  await old.close();
  return startTestEmulator({
    serverType,
    serverVersion: to,
    upgradeFrom: from,
    upgradeDelayMs,
    dataDir: old.dataDir,
  });
}

/** The upgrade POSTs the emulator received. */
function upgradePosts(emu: TestEmulator): number {
  return emu.requestLog().filter((e) => e.method === "POST" && /\/admin\/upgrade(\?|$)/.test(e.url))
    .length;
}

const running: TestEmulator[] = [];
afterEach(async () => {
  for (const emu of running.splice(0)) {
    await emu.close();
    await fs.rm(emu.dataDir, { recursive: true, force: true });
  }
});
afterAll(() => closeDispatchers());

describe.each([
  ["arcgis-server", "upgradeStatus", { upgradeFromVersion: "11.1.0", upgradeToVersion: "11.3.0" }],
  ["mission-server", "isUpgrade", {}],
] as const)("completeUpgrade() on %s", (serverType, field, versions) => {
  it("is required, completes once, and is no longer required", async () => {
    const emu = await upgradedSoftware(serverType, "11.1", "11.3");
    running.push(emu);
    const transport = { tls: { caCert: emu.caCert! } };

    expect(await getUpgradeStatus(emu.adminUrl, transport)).toMatchObject({
      state: "required",
      required: true,
      field,
      ...versions,
    });
    // runAsync where the server has none: refused, nothing sent.
    const refused = await failure(
      completeUpgrade(
        emu.adminUrl,
        {
          serverType,
          serverVersion: 11.3,
          runAsync: true,
          wait: { deadline: Date.now() + 5_000, pollIntervalMs: 50 },
        },
        transport,
      ),
    );
    expect(refused.code).toBe("BAD_INPUT");
    expect(upgradePosts(emu)).toBe(0);

    expect(await completeUpgrade(emu.adminUrl, { serverType }, transport)).toEqual({
      mode: "sync",
    });
    expect(upgradePosts(emu)).toBe(1);
    expect(await getUpgradeStatus(emu.adminUrl, transport)).toEqual({
      state: "not-required",
      required: false,
    });
    // The site serves again: a token, and a read with it.
    const session = createAdminSession({ adminUrl: emu.adminUrl, ...ADMIN, ...transport });
    expect(await getSystemProperties(session)).toEqual({});

    // Once more: the server says no upgrade is due (404), and the client sent it once only.
    const again = await failure(completeUpgrade(emu.adminUrl, { serverType }, transport));
    expect(again.serverCode).toBe(404);
    expect(upgradePosts(emu)).toBe(2);
  });
});

describe("completeUpgrade() with runAsync on ArcGIS Server 11.4", () => {
  it("starts it, polls until it ends, and sends it once", async () => {
    expect(upgradeRunsAsync("arcgis-server", 11.4)).toBe(true);
    expect(upgradeRunsAsync("arcgis-server", 11.3)).toBe(false);
    expect(upgradeRunsAsync("mission-server", 12)).toBe(false);
    const emu = await upgradedSoftware("arcgis-server", "11.3", "11.4", 600);
    running.push(emu);
    const transport = { tls: { caCert: emu.caCert! } };
    const seen: WaitStatus[] = [];
    const done = await completeUpgrade(
      emu.adminUrl,
      {
        serverType: "arcgis-server",
        serverVersion: 11.4,
        runAsync: true,
        wait: {
          deadline: Date.now() + 10_000,
          pollIntervalMs: 50,
          onStatus: (status) => seen.push(status),
        },
      },
      transport,
    );
    expect(done).toMatchObject({
      mode: "async",
      lastStatus: { state: "completed", required: false, upgradeStatus: "Success" },
    });
    expect(seen.map((s) => s.state)).toContain("in-progress");
    expect(upgradePosts(emu)).toBe(1);
    const polls = emu.requestLog().filter((e) => e.method === "GET" && e.url.includes("/upgrade?"));
    expect(polls.length).toBeGreaterThan(1);
    expect(polls.every((e) => e.url.includes("runAsync=true"))).toBe(true);
    expect((await getUpgradeStatus(emu.adminUrl, transport)).required).toBe(false);
  });
});

describe("completeUpgrade() whose answer is lost", () => {
  it("is not sent again: the caller reads the status, which shows it running, then done", async () => {
    const emu = await upgradedSoftware("arcgis-server", "11.1", "11.3", 1_500);
    running.push(emu);
    const tls = { caCert: emu.caCert! };
    const lost = await failure(
      completeUpgrade(
        emu.adminUrl,
        { serverType: "arcgis-server" },
        { tls, timeouts: { headersMs: 300 } },
      ),
    );
    expect(lost.code).toBe("TIMEOUT");
    expect(upgradePosts(emu)).toBe(1);
    expect(await getUpgradeStatus(emu.adminUrl, { tls })).toMatchObject({
      state: "in-progress",
      required: false,
    });
    const deadline = Date.now() + 10_000;
    let status = await getUpgradeStatus(emu.adminUrl, { tls });
    while (status.state !== "not-required" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await getUpgradeStatus(emu.adminUrl, { tls });
    }
    expect(status.state).toBe("not-required");
    expect(upgradePosts(emu)).toBe(1);
  });
});

describe("getUpgradeStatus()", () => {
  it("reads a site with no upgrade due as not required, without a token", async () => {
    const emu = await startTestEmulator({ serverType: "mission-server", createDelayMs: 0 });
    running.push(emu);
    const transport = { tls: { caCert: emu.caCert! } };
    await createNewSite(emu.adminUrl, { serverType: "mission-server", ...ADMIN }, transport);
    expect(await getUpgradeStatus(emu.adminUrl, transport)).toEqual({
      state: "not-required",
      required: false,
    });
    expect(emu.requestLog().some((e) => e.url.includes("generateToken"))).toBe(false);
  });

  it("does not take an HTTP 404 page (a wrong URL) for 'no upgrade due'", async () => {
    const agent = mockAgent();
    agent
      .get("https://gis.example.com")
      .intercept({ path: "/arcgis/admin/upgrade?f=json", method: "GET" })
      .reply(404, "<html><title>Not Found</title></html>", {
        headers: { "content-type": "text/html" },
      });
    const error = await failure(
      getUpgradeStatus("https://gis.example.com/arcgis/admin", { dispatcher: agent, retry: false }),
    );
    expect(error.code).toBe("HTTP");
    expect(error.httpStatus).toBe(404);
  });
});

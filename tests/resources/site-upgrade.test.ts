/**
 * SiteUpgrade's rules, its implementation called directly against a real emulator whose site's
 * software was upgraded (`upgradeFrom`): create sends the upgrade once where one is due and
 * nothing where none is, check says which before anything is sent (what `pulumi preview` shows),
 * ArcGIS Server 11.4 upgrades asynchronously, an upgrade already running is waited for and not
 * sent, diff finds an upgrade due again, and a lost answer is settled by reading the status,
 * never by a second upgrade.
 */
import * as pulumi from "@pulumi/pulumi";
import { promises as fs } from "node:fs";
import {
  closeDispatchers,
  completeUpgrade,
  createNewSite,
  getUpgradeStatus,
  type ServerType,
} from "../../provider/client";
import { implementation as siteUpgrade } from "../../provider/resources/site-upgrade/lifecycle";
import type { SiteUpgradeOutputs } from "../../provider/resources/site-upgrade/generated";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";

const ADMIN = { username: "siteadmin", password: "upgrade-Site-Pass-1" };

const said: string[] = [];
beforeEach(() => {
  said.length = 0;
  const keep = async (message: string) => {
    said.push(message);
  };
  jest.spyOn(pulumi.log, "info").mockImplementation(keep);
  jest.spyOn(pulumi.log, "warn").mockImplementation(keep);
});
afterEach(() => jest.restoreAllMocks());

const running: TestEmulator[] = [];
afterEach(async () => {
  for (const emu of running.splice(0)) {
    await emu.close();
    await fs.rm(emu.dataDir, { recursive: true, force: true });
  }
});
afterAll(() => closeDispatchers());

const transportOf = (emu: TestEmulator) =>
  emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } };

/** An emulator whose site was created at `from`; with `to`, its software is now `to`. */
async function siteOf(
  serverType: ServerType,
  from: string,
  to?: string,
  extra: { tls?: false; upgradeDelayMs?: number; port?: number } = {},
): Promise<TestEmulator> {
  const old = await startTestEmulator({
    serverType,
    serverVersion: from,
    createDelayMs: 0,
    ...(extra.tls === false ? { tls: false as const } : {}),
  });
  await createNewSite(old.adminUrl, { serverType, ...ADMIN }, transportOf(old));
  if (to === undefined) {
    running.push(old);
    return old;
  }
  await old.close();
  const emu = await startTestEmulator({
    serverType,
    serverVersion: to,
    upgradeFrom: from,
    upgradeDelayMs: extra.upgradeDelayMs ?? 200,
    dataDir: old.dataDir,
    ...(extra.tls === false ? { tls: false as const } : {}),
    ...(extra.port === undefined ? {} : { port: extra.port }),
  });
  running.push(emu);
  return emu;
}

function inputsFor(emu: TestEmulator, extra: Record<string, unknown> = {}) {
  return {
    serverType: emu.serverType,
    adminUrl: emu.adminUrl,
    ...ADMIN,
    ...(emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } }),
    ...extra,
  };
}

async function checked(raw: Record<string, unknown>) {
  const result = await siteUpgrade.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

/** The upgrade POSTs the emulator received. */
const upgradePosts = (emu: TestEmulator) =>
  emu.requestLog().filter((e) => e.method === "POST" && /\/admin\/upgrade(\?|$)/.test(e.url))
    .length;

describe("SiteUpgrade check()", () => {
  const base = { adminUrl: "https://gis.example.com:20443/arcgis/admin", ...ADMIN };

  it("refuses runAsync on a product without an asynchronous upgrade, naming it", async () => {
    const result = await siteUpgrade.check({}, { ...base, runAsync: true });
    expect(result.failures).toEqual([
      expect.objectContaining({
        property: "runAsync",
        reason: expect.stringMatching(/only ArcGIS Server/),
      }),
    ]);
  });

  it("fills in the default time limit, and leaves runAsync to the server's version", async () => {
    const result = await siteUpgrade.check({ adminUrl: base.adminUrl }, base);
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toMatchObject({ timeouts: { upgradeMs: 3_600_000 } });
    expect(result.inputs).not.toHaveProperty("runAsync");
  });
});

describe.each([
  ["arcgis-server", { fromVersion: "11.1.0", toVersion: "11.3.0" }],
  ["mission-server", {}],
] as const)("SiteUpgrade on %s", (serverType, versions) => {
  it("check says the upgrade will happen; create sends it once; no upgrade due afterwards sends nothing", async () => {
    const emu = await siteOf(serverType, "11.1", "11.3");
    const inputs = await checked(inputsFor(emu));
    expect(said.join("\n")).toMatch(/must be upgraded.*sends the upgrade once/);
    expect(upgradePosts(emu)).toBe(0);

    const created = await siteUpgrade.create(inputs);
    expect(created.id).toBe(`${emu.adminUrl}/upgrade`);
    expect(created.outs).toMatchObject({ outcome: "upgraded", upgradesSent: 1, ...versions });
    expect(upgradePosts(emu)).toBe(1);
    expect(await getUpgradeStatus(emu.adminUrl, transportOf(emu))).toMatchObject({
      state: "not-required",
    });

    // The same stack again: nothing due, nothing planned, nothing sent.
    expect(await siteUpgrade.diff(created.id, created.outs as SiteUpgradeOutputs, inputs)).toEqual({
      changes: false,
    });
    said.length = 0;
    const other = await siteUpgrade.create(await checked(inputsFor(emu)));
    expect(said.join("\n")).toMatch(/No upgrade is due .*sends nothing/);
    expect(other.outs).toMatchObject({ outcome: "not-required", upgradesSent: 0 });
    expect(upgradePosts(emu)).toBe(1);
  });
});

it("ArcGIS Server 11.4 upgrades asynchronously by default: started once, polled to its end", async () => {
  const emu = await siteOf("arcgis-server", "11.3", "11.4", { upgradeDelayMs: 1_500 });
  const created = await siteUpgrade.create(await checked(inputsFor(emu)));
  expect(created.outs).toMatchObject({ outcome: "upgraded", toVersion: "11.4.0" });
  const posts = emu
    .requestLog()
    .filter((e) => e.method === "POST" && /\/admin\/upgrade(\?|$)/.test(e.url));
  expect(posts).toHaveLength(1);
  const polls = emu.requestLog().filter((e) => e.method === "GET" && /runAsync=true/.test(e.url));
  expect(polls.length).toBeGreaterThan(0);
});

it("an upgrade another client started is waited for, and none is sent", async () => {
  const emu = await siteOf("arcgis-server", "11.3", "11.4", { upgradeDelayMs: 2_000 });
  const theirs = completeUpgrade(
    emu.adminUrl,
    {
      serverType: "arcgis-server",
      serverVersion: 11.4,
      runAsync: true,
      wait: { deadline: Date.now() + 60_000, pollIntervalMs: 100 },
    },
    transportOf(emu),
  );
  while ((await getUpgradeStatus(emu.adminUrl, transportOf(emu))).state !== "in-progress") {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const created = await siteUpgrade.create(await checked(inputsFor(emu)));
  expect(created.outs).toMatchObject({ outcome: "awaited", upgradesSent: 0 });
  expect(await getUpgradeStatus(emu.adminUrl, transportOf(emu))).toMatchObject({
    state: "completed",
  });
  await theirs;
  expect(upgradePosts(emu)).toBe(1);
});

it("diff finds an upgrade due again after the software is upgraded once more; update sends it once", async () => {
  const emu = await siteOf("mission-server", "11.1");
  const inputs = await checked(inputsFor(emu));
  const created = await siteUpgrade.create(inputs);
  expect(created.outs).toMatchObject({ outcome: "not-required", upgradesSent: 0 });
  expect(upgradePosts(emu)).toBe(0);

  // The software of the same machine (same port, same data) is upgraded to 11.3.
  const port = Number(new URL(emu.adminUrl).port);
  await emu.close();
  running.splice(running.indexOf(emu), 1);
  const upgraded = await startTestEmulator({
    serverType: "mission-server",
    serverVersion: "11.3",
    upgradeFrom: "11.1",
    upgradeDelayMs: 100,
    dataDir: emu.dataDir,
    port,
  });
  running.push(upgraded);
  said.length = 0;
  const outs = created.outs as SiteUpgradeOutputs;
  expect(await siteUpgrade.diff(created.id, outs, inputs)).toEqual({ changes: true });
  expect(said.join("\n")).toMatch(/must be upgraded again/);
  const updated = await siteUpgrade.update(created.id, outs, inputs);
  expect(updated.outs).toMatchObject({ outcome: "upgraded", upgradesSent: 1 });
  expect(upgradePosts(upgraded)).toBe(1);
  expect(await siteUpgrade.diff(created.id, updated.outs as SiteUpgradeOutputs, inputs)).toEqual({
    changes: false,
  });
});

describe("SiteUpgrade and a lost answer of the upgrade", () => {
  let proxy: FaultProxy;
  afterEach(async () => {
    await proxy.close();
  });

  async function behindProxy(serverType: ServerType, upgradeDelayMs = 200) {
    const emu = await siteOf(serverType, "11.1", "11.3", { tls: false, upgradeDelayMs });
    proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
    return { emu, adminUrl: proxy.url + new URL(emu.adminUrl).pathname };
  }
  const proxiedPosts = () =>
    proxy.seen.filter((r) => r.method === "POST" && /\/admin\/upgrade(\?|$)/.test(r.path)).length;

  it.each(["mission-server", "arcgis-server"] as const)(
    "on %s: an answer lost after the server acted is read as done, and the upgrade is never sent again",
    async (serverType) => {
      const { emu, adminUrl } = await behindProxy(serverType);
      proxy.setRule(({ method, path }) =>
        method === "POST" && /\/admin\/upgrade(\?|$)/.test(path)
          ? { kind: "drop-answer" }
          : undefined,
      );
      const created = await siteUpgrade.create(await checked({ ...inputsFor(emu), adminUrl }));
      expect(created.outs).toMatchObject({ outcome: "upgraded", upgradesSent: 1 });
      expect(proxiedPosts()).toBe(1);
      expect(upgradePosts(emu)).toBe(1);
      expect(said.join("\n")).toMatch(/was lost .*not sent again/);
    },
  );

  it("an answer lost before the server acted: the status still says required until the deadline, an error, and no second upgrade", async () => {
    const { emu, adminUrl } = await behindProxy("mission-server");
    proxy.setRule(({ method, path }) =>
      method === "POST" && /\/admin\/upgrade(\?|$)/.test(path)
        ? { kind: "status", status: 502 }
        : undefined,
    );
    const inputs = await checked({ ...inputsFor(emu), adminUrl, timeouts: { upgradeMs: 5_000 } });
    await expect(siteUpgrade.create(inputs)).rejects.toThrow(
      /still reports the upgrade as required.*not sent again/s,
    );
    expect(proxiedPosts()).toBe(1);
    expect(upgradePosts(emu)).toBe(0);
  });
});

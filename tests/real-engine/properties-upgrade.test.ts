/**
 * SystemProperties and SiteUpgrade through the real Pulumi engine, from the packed package,
 * against the emulator: an ArcGIS Server site whose software was upgraded from 11.1 to 11.3, with
 * properties another client set before the stack. The preview says the upgrade will happen and
 * sends nothing; `pulumi up` upgrades the site exactly once and keeps the declared properties
 * without dropping the others; a second `up` sends nothing; the software upgraded again (11.4) is
 * found by the preview and upgraded asynchronously, once (the emulator then counts from zero);
 * refresh reports drift and `up` writes it back; destroy restores only the properties the stack set. Then a Mission Server site behind
 * a proxy that drops the upgrade's answer: `pulumi up` settles it by reading the status, and the
 * upgrade reaches the server once. Last, both through the provider plugin (type tokens), whose
 * diff reports an upgrade due again as a change.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  getSystemProperties,
  getUpgradeStatus,
  type ServerType,
  updateSystemProperties,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const PASSWORD = "props-Upgrade-Pass-41";
/** What another client set before the stack: a plain value and one that is not. */
const OTHERS = {
  localTempFolder: "/tmp/arcgis",
  PortalConfiguration: { privatePortalURL: "https://portal.example.com/portal", n: [1, 2] },
};
const BEFORE = { ...OTHERS, WebContextURL: "https://old.example.com/server" };
const DECLARED = { WebContextURL: "https://gis.example.com/server", disableIPv6: true };

const emulators: TestEmulator[] = [];
const stacks: RealStack[] = [];
const proxies: FaultProxy[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  for (const proxy of proxies) await proxy.close();
  for (const emu of emulators) {
    await emu.close();
    fs.rmSync(emu.dataDir, { recursive: true, force: true });
  }
  await closeDispatchers();
});

const transportOf = (emu: TestEmulator) =>
  emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } };

function sessionOf(emu: TestEmulator) {
  return createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    ...transportOf(emu),
  });
}

/**
 * A site created at 11.1 (with `properties` set by another client), whose software is now 11.3:
 * the emulator started again on its data with `upgradeFrom`.
 */
async function upgradedSoftware(
  serverType: ServerType,
  properties: Record<string, unknown>,
  tls: boolean,
): Promise<TestEmulator> {
  const plain = tls ? {} : { tls: false as const };
  const old = await startTestEmulator({
    serverType,
    serverVersion: "11.1",
    createDelayMs: 0,
    ...plain,
  });
  await createNewSite(
    old.adminUrl,
    { serverType, username: "siteadmin", password: PASSWORD },
    transportOf(old),
  );
  await updateSystemProperties(sessionOf(old), properties);
  await old.close();
  const emu = await startTestEmulator({
    serverType,
    serverVersion: "11.3",
    upgradeFrom: "11.1",
    upgradeDelayMs: 300,
    dataDir: old.dataDir,
    ...plain,
  });
  emulators.push(emu);
  return emu;
}

/** The upgrade POSTs the emulator received. */
const upgradePosts = (emu: TestEmulator) =>
  emu.requestLog().filter((e) => e.method === "POST" && /\/admin\/upgrade(\?|$)/.test(e.url))
    .length;
/** The property updates the emulator received. */
const propertyUpdates = (emu: TestEmulator) =>
  emu.requestLog().filter((e) => e.method === "POST" && e.url.includes("/system/properties/update"))
    .length;

async function stackFor(name: string): Promise<RealStack> {
  const stack = await RealStack.create(name);
  fs.copyFileSync(path.join(__dirname, "properties-upgrade-program.cjs"), stack.program);
  stacks.push(stack);
  return stack;
}

describe("SystemProperties and SiteUpgrade on an upgraded ArcGIS Server site through the real engine", () => {
  let emu: TestEmulator;
  let stack: RealStack;
  let config: Record<string, ConfigValue>;
  const mustRun = async (...args: Parameters<RealStack["run"]>): Promise<RunResult> =>
    stack.mustRun(...args);

  beforeAll(async () => {
    emu = await upgradedSoftware("arcgis-server", BEFORE, true);
    stack = await stackFor("props-upgrade");
    config = {
      serverType: { value: "arcgis-server" },
      adminUrl: { value: emu.adminUrl },
      caCert: { value: emu.caCert! },
      sitePassword: { value: PASSWORD, secret: true },
      properties: { value: JSON.stringify(DECLARED) },
      restoreOnDestroy: { value: "true" },
    };
  }, 240_000);

  it("the preview says the site will be upgraded, and sends nothing", async () => {
    const preview = await mustRun("preview", { config });
    expect(preview.changeSummary).toEqual({ create: 3 });
    const said = (preview.diagnostics ?? []).map((d) => d.message).join("\n");
    expect(said).toMatch(
      /The site at \S+ must be upgraded from 11\.1\.0 to 11\.3\.0: the create of this SiteUpgrade sends the upgrade once/,
    );
    expect(upgradePosts(emu)).toBe(0);
    expect(propertyUpdates(emu)).toBe(0);
  });

  it("up upgrades the site exactly once, then keeps the declared properties and every other one", async () => {
    const up = await mustRun("up", { config });
    expect(up.changeSummary).toEqual({ create: 3 });
    expect(upgradePosts(emu)).toBe(1);
    expect(up.outputs).toMatchObject({
      outcome: "upgraded",
      upgradesSent: 1,
      toVersion: "11.3.0",
      properties: DECLARED,
      previousProperties: { WebContextURL: BEFORE.WebContextURL },
      addedProperties: ["disableIPv6"],
    });
    expect(await getUpgradeStatus(emu.adminUrl, transportOf(emu))).toMatchObject({
      state: "not-required",
    });
    expect(await getSystemProperties(sessionOf(emu))).toEqual({ ...OTHERS, ...DECLARED });
    expect(propertyUpdates(emu)).toBe(1);
  });

  it("a second up changes nothing and sends no upgrade and no update", async () => {
    const again = await mustRun("up", { config, options: { expectNoChanges: true } });
    expect(again.changeSummary).toEqual({ same: 3 });
    expect(upgradePosts(emu)).toBe(1);
    expect(propertyUpdates(emu)).toBe(1);
  });

  it("another spelling of adminUrl (upper-case host, a trailing slash) updates both in state, replaces nothing and writes nothing", async () => {
    // LOCALHOST reaches the same port, and the emulator's certificate names localhost.
    const respelled = `${emu.adminUrl.replace("127.0.0.1", "LOCALHOST")}/`;
    const seen = emu.requestLog().length;
    config = { ...config, adminUrl: { value: respelled } };
    const up = await mustRun("up", { config, options: { diff: true } });
    expect(up.changeSummary).toEqual({ update: 2, same: 1 });
    expect(up.output).not.toMatch(/replace|delete/i);
    // Reads and a token for the new origin only: no upgrade, no property update, no other write.
    const sent = emu.requestLog().slice(seen);
    expect(sent.filter((e) => e.method !== "GET" && !/\/generateToken(\?|$)/.test(e.url))).toEqual(
      [],
    );
    expect(upgradePosts(emu)).toBe(1);
    expect(propertyUpdates(emu)).toBe(1);
    // The program's outputs are the resources' recorded outputs: state holds the new spelling.
    expect(up.outputs?.adminUrls).toEqual([respelled, respelled]);
    // The rest of the suite runs on this spelling, which state now holds.
  });

  it("software upgraded again (to 11.4): the preview plans an in-place update that says so; up upgrades asynchronously, once", async () => {
    // The same machine (same port, same data) with the software of 11.4 installed over it.
    const port = Number(new URL(emu.adminUrl).port);
    await emu.close();
    emu = await startTestEmulator({
      serverType: "arcgis-server",
      serverVersion: "11.4",
      upgradeFrom: "11.3",
      upgradeDelayMs: 1_500,
      dataDir: emu.dataDir,
      port,
    });
    emulators.push(emu);
    const preview = await mustRun("preview", { config });
    expect(preview.changeSummary).toEqual({ update: 1, same: 2 });
    const said = (preview.diagnostics ?? []).map((d) => d.message).join("\n");
    expect(said).toMatch(/must be upgraded again from 11\.3\.0 to 11\.4\.0/);
    expect(upgradePosts(emu)).toBe(0);

    const up = await mustRun("up", { config });
    expect(up.changeSummary).toEqual({ update: 1, same: 2 });
    expect(up.outputs).toMatchObject({ outcome: "upgraded", upgradesSent: 2, toVersion: "11.4.0" });
    const posts = emu
      .requestLog()
      .filter((e) => e.method === "POST" && /\/admin\/upgrade(\?|$)/.test(e.url));
    expect(posts).toHaveLength(1);
    expect(
      emu.requestLog().some((e) => e.method === "GET" && /upgrade\?.*runAsync=true/.test(e.url)),
    ).toBe(true);
    await mustRun("up", { config, options: { expectNoChanges: true } });
    expect(upgradePosts(emu)).toBe(1);
    expect(await getSystemProperties(sessionOf(emu))).toEqual({ ...OTHERS, ...DECLARED });
  });

  it("refresh reports a property changed behind the stack's back; up writes it back, keeping the others", async () => {
    const session = sessionOf(emu);
    await updateSystemProperties(session, {
      ...(await getSystemProperties(session)),
      WebContextURL: "https://drift.example.com/server",
    });
    const refreshed = await mustRun("refresh", { config });
    expect(refreshed.changeSummary).toEqual({ update: 1, same: 2 });
    const exported = await mustRun("export");
    const recorded = stateResources(exported.state).find((r) => r.urn.endsWith("::properties"))!;
    expect(recorded.outputs).toMatchObject({
      properties: { WebContextURL: "https://drift.example.com/server" },
    });
    const diff = await mustRun("preview", { config, options: { diff: true } });
    expect(diff.changeSummary).toEqual({ update: 1, same: 2 });
    expect(diff.output).toMatch(
      /WebContextURL\s*:\s*"https:\/\/drift\.example\.com\/server"\s*=>\s*"https:\/\/gis\.example\.com\/server"/,
    );
    const before = propertyUpdates(emu);
    const up = await mustRun("up", { config });
    expect(up.changeSummary).toEqual({ update: 1, same: 2 });
    expect(propertyUpdates(emu) - before).toBe(1);
    expect(await getSystemProperties(session)).toEqual({ ...OTHERS, ...DECLARED });
    expect(upgradePosts(emu)).toBe(1);
  });

  it("keeps the password only encrypted in state", async () => {
    const exported = await mustRun("export");
    expect(JSON.stringify(exported.state)).not.toContain(PASSWORD);
  });

  it("destroy puts back only what the stack set, keeping a property another client added since", async () => {
    const session = sessionOf(emu);
    await updateSystemProperties(session, { ...(await getSystemProperties(session)), later: 7 });
    const destroyed = await mustRun("destroy", { config });
    expect(destroyed.changeSummary).toEqual({ delete: 3 });
    expect(await getSystemProperties(session)).toEqual({ ...BEFORE, later: 7 });
    expect(upgradePosts(emu)).toBe(1);
  });
});

it("a lost answer of the upgrade is settled by reading the status: the upgrade reaches the server once", async () => {
  const emu = await upgradedSoftware("mission-server", OTHERS, false);
  const proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  proxies.push(proxy);
  proxy.setRule(({ method, path: p }) =>
    method === "POST" && /\/admin\/upgrade(\?|$)/.test(p) ? { kind: "drop-answer" } : undefined,
  );
  const stack = await stackFor("lost-upgrade");
  const config: Record<string, ConfigValue> = {
    serverType: { value: "mission-server" },
    adminUrl: { value: proxy.url + new URL(emu.adminUrl).pathname },
    sitePassword: { value: PASSWORD, secret: true },
    properties: { value: JSON.stringify({ WebContextURL: "https://gis.example.com/mission" }) },
  };
  const up = await stack.mustRun("up", { config });
  expect(up.outputs).toMatchObject({ outcome: "upgraded", upgradesSent: 1 });
  const said = (up.diagnostics ?? []).map((d) => d.message).join("\n");
  expect(said).toMatch(/The answer to the upgrade of \S+ was lost .*The upgrade is not sent again/);
  expect(
    proxy.seen.filter((r) => r.method === "POST" && /\/admin\/upgrade/.test(r.path)),
  ).toHaveLength(1);
  expect(upgradePosts(emu)).toBe(1);
  expect(await getSystemProperties(sessionOf(emu))).toEqual({
    ...OTHERS,
    WebContextURL: "https://gis.example.com/mission",
  });

  await stack.mustRun("up", { config, options: { expectNoChanges: true } });
  expect(upgradePosts(emu)).toBe(1);
});

it("through the plugin: the upgrade once, the properties kept, an upgrade due again found by diff and sent once, destroy restoring", async () => {
  const emu = await upgradedSoftware("arcgis-server", BEFORE, true);
  const stack = await RealStack.create("plugin-props-upgrade", undefined, {
    dir: path.join(__dirname, "plugin-properties-upgrade-program"),
    entry: "index.cjs",
  });
  stacks.push(stack);
  // The engine finds the plugin on PATH: the launcher of the installed package.
  const bin = path.join(stack.consumer.dir, "node_modules", "pulumi-arcgis-admin", "bin");
  const env = { PATH: [bin, process.env.PATH].join(path.delimiter) };
  const config = (adminUrl: string): Record<string, ConfigValue> => ({
    adminUrl: { value: adminUrl },
    caCert: { value: emu.caCert! },
    properties: { value: JSON.stringify(DECLARED) },
    "arcgis-admin:username": { value: "siteadmin" },
    "arcgis-admin:password": { value: PASSWORD, secret: true },
  });

  const up = await stack.mustRun("up", { config: config(emu.adminUrl), env });
  expect(up.changeSummary).toMatchObject({ create: 3 });
  expect(up.outputs).toMatchObject({
    outcome: "upgraded",
    upgradesSent: 1,
    previousProperties: { WebContextURL: BEFORE.WebContextURL },
  });
  expect(upgradePosts(emu)).toBe(1);
  expect(await getSystemProperties(sessionOf(emu))).toEqual({ ...OTHERS, ...DECLARED });
  const again = await stack.mustRun("up", { config: config(emu.adminUrl), env });
  expect(again.changeSummary).toEqual({ same: 3 });
  expect(upgradePosts(emu)).toBe(1);

  // The software upgraded again on the same machine: the plugin's diff reads the status.
  const port = Number(new URL(emu.adminUrl).port);
  await emu.close();
  const next = await startTestEmulator({
    serverType: "arcgis-server",
    serverVersion: "11.4",
    upgradeFrom: "11.3",
    upgradeDelayMs: 500,
    dataDir: emu.dataDir,
    port,
  });
  emulators.push(next);
  const updated = await stack.mustRun("up", { config: config(next.adminUrl), env });
  expect(updated.changeSummary).toEqual({ update: 1, same: 2 });
  expect(updated.outputs).toMatchObject({ outcome: "upgraded", upgradesSent: 2 });
  expect(upgradePosts(next)).toBe(1);

  await stack.mustRun("destroy", { config: config(next.adminUrl), env });
  expect(await getSystemProperties(sessionOf(next))).toEqual(BEFORE);
  expect(upgradePosts(next)).toBe(1);
});

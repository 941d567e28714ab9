/**
 * The day-three resources (SiteUpgrade, SystemProperties, ServerCertificate) through the real
 * Pulumi CLI, from the packed package, when a run is killed or cancelled while all three are
 * mid-call: one program on one ArcGIS Server site whose software was upgraded, behind a fault
 * proxy that holds the answers of the upgrade, of system/properties/update and of the server
 * certificate's import (the server has acted; the client has not heard). One SIGKILL of the CLI,
 * the recovery docs/troubleshooting.md gives, an `up` that sends none of those calls again, an
 * unchanged `up`, and destroy (the certificate bound before is bound again; the properties are
 * left as the killed run set them). Then the software upgraded once more, a renewal and another
 * property value, and one Ctrl-C while the upgrade, the update and the bind are held: the CLI
 * ends cleanly and the next `up` sends nothing. One stack, so the whole file costs twelve CLI
 * operations (besides the `stack output` after each successful `up`).
 */
import * as fs from "node:fs";
import { X509Certificate } from "node:crypto";
import {
  createAdminSession,
  createNewSite,
  getMachine,
  getSystemProperties,
  getUpgradeStatus,
  presentedCertificate,
  updateSystemProperties,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { startFaultProxy, type Exchange, type FaultProxy } from "../../tools/harness/fault-proxy";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import { closeAfterAll, pendingOperations, recover, stack } from "../../tools/harness/killed-run";
import { until } from "../../tools/harness/until";

// Each test runs the pulumi CLI several times, and a loaded machine slows every run.
jest.setTimeout(300_000);
closeAfterAll();

const MACHINE = "127.0.0.1";
const SITE_PASSWORD = "day-Three-Pass-41";
const PFX_PASSWORD = "pfx-Day-Three-41";
/** What another client set before the stack: kept through everything. */
const OTHERS = { localTempFolder: "/tmp/arcgis", PortalConfiguration: { n: [1, 2] } };
const BEFORE = { ...OTHERS, WebContextURL: "https://old.example.com/server" };
const DECLARED = { WebContextURL: "https://gis.example.com/server", disableIPv6: true };
/** What the program declares with DAY_THREE_RENEWAL set. */
const REDECLARED = { ...DECLARED, WebContextURL: "https://gis2.example.com/server" };

const ca = makeRootCa();
const first = issueServerCertificate(ca, [MACHINE, "localhost"], "gis.example.com");
const renewed = issueServerCertificate(ca, [MACHINE, "localhost"], "gis.example.com");
const pfxOf = (issued: typeof first) =>
  pkcs12(issued, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64");
const fingerprintOf = (pem: string) =>
  new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();

/** The one-shot POSTs, by the end of their path. */
const CALLS = {
  upgrade: "/admin/upgrade",
  update: "/system/properties/update",
  root: "/sslcertificates/importRootOrIntermediate",
  server: "/sslcertificates/importExistingServerCertificate",
  bind: `/machines/${MACHINE}/edit`,
};
type Call = keyof typeof CALLS;
const callOf = (method: string, url: string): Call | undefined =>
  method === "POST"
    ? (Object.keys(CALLS) as Call[]).find((c) => url.split("?")[0]!.endsWith(CALLS[c]))
    : undefined;

let emu: TestEmulator;
let proxy: FaultProxy;
function sessionOf(target: TestEmulator) {
  return createAdminSession({
    adminUrl: target.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: trusted(target) },
  });
}

/** The machine's own self-signed certificate, and the organisation's CA once its certificate is bound. */
const trusted = (target: TestEmulator) => `${target.caCert!}\n${ca.certPem}`;

/** What the machine presents to a handshake that trusts only `only`. */
const presentedTo = (only: string) =>
  presentedCertificate({
    host: MACHINE,
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: only },
  });

/**
 * Holds, behind the proxy, every call but the upgrade's until the emulator has finished the
 * upgrade (the site refuses them while one is due), and the answers of `held` until `release`
 * settles; resolves once the server has answered each held call.
 */
function holdMidCall(held: Call[], release: Promise<unknown>): Promise<void> {
  let upgraded!: () => void;
  const upgradeDone = new Promise<void>((resolve) => (upgraded = resolve));
  const answered = new Set<Call>();
  let allHeld!: () => void;
  const done = new Promise<void>((resolve) => (allHeld = resolve));
  proxy.observe((exchange: Exchange) => {
    const call = callOf(exchange.method, exchange.path);
    if (call === "upgrade" && exchange.status === 200) upgraded();
    if (call !== undefined && held.includes(call)) answered.add(call);
    if (held.every((c) => answered.has(c))) allHeld();
  });
  let isUpgraded = false;
  void upgradeDone.then(() => (isUpgraded = true));
  proxy.setRule(({ method, path: url }) => {
    const call = callOf(method, url);
    const answerAfter = call !== undefined && held.includes(call) ? release : undefined;
    if (url.split("?")[0]!.endsWith(CALLS.upgrade)) {
      return answerAfter === undefined ? undefined : { kind: "hold", answerAfter };
    }
    if (isUpgraded && answerAfter === undefined) return undefined;
    return { kind: "hold", forwardAfter: upgradeDone, answerAfter };
  });
  return done;
}

/** A site created at `from` (another client set BEFORE), its software now `to`. */
async function upgradedSoftware(from: string, to: string, port = 0, dataDir?: string) {
  if (dataDir === undefined) {
    const old = await startTestEmulator({
      serverType: "arcgis-server",
      serverVersion: from,
      machineName: MACHINE,
      createDelayMs: 0,
    });
    await createNewSite(
      old.adminUrl,
      { serverType: "arcgis-server", username: "siteadmin", password: SITE_PASSWORD },
      { tls: { caCert: old.caCert! } },
    );
    await updateSystemProperties(sessionOf(old), BEFORE);
    await old.close();
    dataDir = old.dataDir;
  }
  return startTestEmulator({
    serverType: "arcgis-server",
    serverVersion: to,
    upgradeFrom: from,
    upgradeDelayMs: 300,
    machineName: MACHINE,
    restartDelayMs: 300,
    dataDir,
    port,
  });
}

/** Waits for the calls to be held, failing at once when the run ends first (a step failed). */
/**
 * Starts `pulumi up` (with `env`), waits until every call `calls` holds is mid-call, then sends
 * `signal` to the CLI; resolves with the run, still going (wrapped: an async function's promise
 * would wait for it).
 */
async function signalledWhenHeld(
  calls: Promise<void>,
  signal: NodeJS.Signals,
  env: NodeJS.ProcessEnv = {},
): Promise<{ running: Promise<RunResult> }> {
  let pid = 0;
  const running = s.run("up", { config, env, onSpawn: (p) => (pid = p), timeoutMs: 120_000 });
  await Promise.race([
    calls,
    running.then((ended) => {
      throw new Error(`pulumi up ended before its calls were held:\n${ended.output}`);
    }),
  ]);
  await until(() => pid !== 0, "the CLI");
  process.kill(pid, signal);
  return { running };
}

let s: Awaited<ReturnType<typeof stack>>;
let config: Record<string, ConfigValue>;

beforeAll(async () => {
  emu = await upgradedSoftware("11.1", "11.2");
  proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  s = await stack("day-three", "day-three-program.cjs");
  config = {
    adminUrl: { value: proxy.url + new URL(emu.adminUrl).pathname },
    webServerUrl: { value: new URL(emu.adminUrl).origin },
    machineName: { value: MACHINE },
    orgRootPem: { value: ca.certPem },
    properties: { value: JSON.stringify(DECLARED) },
    secrets: {
      value: JSON.stringify({
        sitePassword: SITE_PASSWORD,
        pfxPassword: PFX_PASSWORD,
        pfx: { first: pfxOf(first), renewed: pfxOf(renewed) },
      }),
      secret: true,
    },
  };
}, 240_000);

afterAll(async () => {
  await proxy?.close();
  await emu?.close();
  if (emu !== undefined) fs.rmSync(emu.dataDir, { recursive: true, force: true });
});

/** The one-shot POSTs the current emulator received. */
const posts = () =>
  Object.fromEntries(
    (Object.keys(CALLS) as Call[]).map((call) => [
      call,
      emu.requestLog().filter((r) => callOf(r.method, r.url) === call).length,
    ]),
  );

it("killed while the upgrade, the properties' update and the certificate's import are mid-call: recovered, nothing sent twice, destroy rebinds the certificate bound before", async () => {
  // The killed run's answers are never passed on: its provider would otherwise carry on alone.
  const heldUntilKilled = holdMidCall(["upgrade", "update", "server"], new Promise(() => {}));
  const { running } = await signalledWhenHeld(heldUntilKilled, "SIGKILL");
  const killed = await running;
  expect(killed.ok).toBe(false);
  expect(posts()).toEqual({ upgrade: 1, update: 1, root: 1, server: 1, bind: 0 });
  expect(await pendingOperations(s)).toHaveLength(3);

  proxy.setRule(() => undefined);
  await recover(s);
  const up = await s.mustRun("up", { config });
  expect(up.changeSummary).toEqual({ create: 3, same: 1 });
  // The upgrade and the update the killed run sent are found done, and both imports adopted.
  expect(posts()).toEqual({ upgrade: 1, update: 1, root: 1, server: 1, bind: 1 });
  expect(up.outputs).toMatchObject({
    outcome: "not-required",
    upgradesSent: 0,
    properties: DECLARED,
    certificateAlias: `gis-${fingerprintOf(first.certPem).slice(0, 8)}`,
    previousAlias: "SelfSignedCertificate",
  });
  expect(await getUpgradeStatus(emu.adminUrl, { tls: { caCert: trusted(emu) } })).toMatchObject({
    state: "not-required",
  });
  expect(await getSystemProperties(sessionOf(emu))).toEqual({ ...OTHERS, ...DECLARED });
  expect((await presentedTo(ca.certPem)).sha256Fingerprint).toBe(fingerprintOf(first.certPem));

  const again = await s.mustRun("up", { config, options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 4 });
  expect(posts()).toEqual({ upgrade: 1, update: 1, root: 1, server: 1, bind: 1 });

  const destroyed = await s.mustRun("destroy", { config });
  expect(destroyed.changeSummary).toEqual({ delete: 4 });
  // The certificate bound before the stack is bound again, and the machine presents it.
  expect(posts()).toMatchObject({ bind: 2, update: 1 });
  expect((await presentedTo(emu.caCert!)).sha256Fingerprint).toBe(fingerprintOf(emu.caCert!));
  expect((await getMachine(sessionOf(emu), MACHINE)).webServerCertificateAlias).toBe(
    "selfsignedcertificate",
  );
  // What the killed run wrote is all the recovered resource knows as "before": nothing to put back.
  expect(await getSystemProperties(sessionOf(emu))).toEqual({ ...OTHERS, ...DECLARED });
});

it("Ctrl-C while the upgrade, the properties' update and the renewal's bind are mid-call: the CLI ends cleanly and the next up sends nothing", async () => {
  // The same machine with the software upgraded again.
  const port = Number(new URL(emu.adminUrl).port);
  await emu.close();
  emu = await upgradedSoftware("11.2", "11.3", port, emu.dataDir);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const heldUntilCancelled = holdMidCall(["upgrade", "update", "bind"], released);
  // The program's second declaration, chosen without a config command.
  const env = { DAY_THREE_RENEWAL: "true" };
  const { running } = await signalledWhenHeld(heldUntilCancelled, "SIGINT", env);
  // The engine takes the signal while the three calls are still held, then they complete.
  await new Promise((r) => setTimeout(r, 1_000));
  release();
  const cancelled = await running;
  expect(cancelled.ok).toBe(false);
  expect(cancelled.output).toContain("^C received; cancelling");
  expect(cancelled.output).toContain("error: update canceled");
  expect(posts()).toEqual({ upgrade: 1, update: 1, root: 0, server: 1, bind: 1 });

  proxy.setRule(() => undefined);
  const again = await s.mustRun("up", { config, env, options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 4 });
  expect(posts()).toEqual({ upgrade: 1, update: 1, root: 0, server: 1, bind: 1 });
  expect(again.outputs).toMatchObject({
    outcome: "upgraded",
    upgradesSent: 1,
    properties: REDECLARED,
    certificateAlias: `gis-${fingerprintOf(renewed.certPem).slice(0, 8)}`,
  });
  expect(await getSystemProperties(sessionOf(emu))).toEqual({ ...OTHERS, ...REDECLARED });
  expect((await presentedTo(ca.certPem)).sha256Fingerprint).toBe(fingerprintOf(renewed.certPem));
});

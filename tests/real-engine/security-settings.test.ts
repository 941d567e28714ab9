/**
 * SecuritySettings through the real Pulumi CLI, from the packed package, against the emulator:
 * the lock-out refused at preview with no request sent; up, up again with no change, another
 * spelling of adminUrl (no write), drift found by refresh, and destroy restoring only what the
 * server still holds as the stack wrote it (ArcGIS Server, whose web server restarts after each
 * change); a lost answer of the update settled by reading; a `pulumi up` killed while the update
 * is under way, recovered with Pulumi's own commands (nothing sent twice, nothing restored that
 * the stack cannot prove it wrote); and settings the stack found in place (adopted), left by
 * destroy. The rule's cases one by one: tests/resources/kept-settings.test.ts; the refusals and
 * the federation's fields: tests/resources/security-settings.test.ts.
 */
import * as path from "node:path";
import {
  type AdminSession,
  createAdminSession,
  createNewSite,
  getSecurityConfig,
} from "../../provider/client";
import type { TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import {
  closeAfterAll,
  emulator,
  killedUp,
  pendingOperations,
  recover,
  requests,
  stack,
} from "../../tools/harness/killed-run";
import { setSecurityConfig } from "../../tools/harness/security-config";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";

jest.setTimeout(300_000);
closeAfterAll();

const PASSWORD = "security-Cli-Pass-6";
const TLS12 = "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256";
const TLS13 = "TLS_AES_128_GCM_SHA256";
const UPDATE = "/security/config/update";

const proxies: FaultProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

/** A server in a site, and an administrator's session on it. */
async function server(
  options: Parameters<typeof emulator>[0],
): Promise<{ emu: TestEmulator; session: AdminSession }> {
  const emu = await emulator({ createDelayMs: 0, ...options });
  const tls = emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } };
  await createNewSite(
    emu.adminUrl,
    { serverType: emu.serverType, username: "siteadmin", password: PASSWORD },
    tls,
  );
  const session = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    ...tls,
  });
  return { emu, session };
}

function config(
  emu: TestEmulator,
  settings: Record<string, unknown>,
  adminUrl = emu.adminUrl,
): Record<string, ConfigValue> {
  return {
    server: {
      value: JSON.stringify({ serverType: emu.serverType, adminUrl, caCert: emu.caCert }),
    },
    settings: { value: JSON.stringify(settings) },
    "arcgis-admin:username": { value: "siteadmin" },
    "arcgis-admin:password": { value: PASSWORD, secret: true },
  };
}

/** The managed fields as the server holds them. */
async function held(session: AdminSession) {
  const c = await getSecurityConfig(session);
  return {
    httpsOnly: c.sslEnabled === true && c.httpEnabled !== true,
    hstsEnabled: c.HSTSEnabled,
    tlsProtocols: c.httpsProtocols,
    cipherSuites: c.cipherSuites,
  };
}

/** Every message the engine showed in an operation. */
function said(result: RunResult): string {
  return (result.diagnostics ?? []).map((d) => d.message).join("\n");
}

describe.each([
  ["the dynamic path", false],
  ["the provider plugin", true],
] as const)("%s", (_path, viaPlugin) => {
  it("preview refuses HTTPS only while adminUrl is http://, naming the field, and sends no request", async () => {
    const { emu } = await server({ serverType: "arcgis-server", tls: false });
    const s = await stack(`security-lockout-${String(viaPlugin)}`, "security-settings-program.cjs");
    // The engine finds the plugin on PATH: the launcher of the installed package.
    const bin = path.join(s.consumer.dir, "node_modules", "pulumi-arcgis-admin", "bin");
    const env = viaPlugin ? { PATH: [bin, process.env.PATH].join(path.delimiter) } : {};
    const before = emu.requestLog().length;
    const preview = await s.run("preview", {
      config: { ...config(emu, { httpsOnly: true }), viaPlugin: { value: String(viaPlugin) } },
      env,
    });
    expect(preview.ok).toBe(false);
    expect(said(preview)).toMatch(
      /httpsOnly.*adminUrl http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin is http:\/\/.*point adminUrl at the server's https:\/\/ address first/s,
    );
    expect(emu.requestLog().slice(before)).toEqual([]);
  });
});

it("up, up again, another spelling of adminUrl, drift, refresh and destroy: only what the server still holds as written is restored", async () => {
  const { emu, session } = await server({ serverType: "arcgis-server", restartDelayMs: 500 });
  const BEFORE = await held(session);
  const s = await stack("security-lifecycle", "security-settings-program.cjs");
  const settings = {
    hstsEnabled: true,
    tlsProtocols: ["TLSv1.2", "TLSv1.3"],
    cipherSuites: [TLS12, TLS13],
    restoreOnDestroy: true,
  };
  const up = await s.mustRun("up", { config: config(emu, settings) });
  expect(up.changeSummary).toEqual({ create: 2 });
  expect(requests(emu, UPDATE)).toBe(1);
  expect(await held(session)).toEqual({
    httpsOnly: true,
    hstsEnabled: true,
    tlsProtocols: "TLSv1.2,TLSv1.3",
    cipherSuites: `${TLS12},${TLS13}`,
  });
  expect(up.outputs?.writtenSettings).toEqual({
    hstsEnabled: true,
    tlsProtocols: ["TLSv1.2", "TLSv1.3"],
    cipherSuites: [TLS12, TLS13],
  });

  await s.mustRun("up", { options: { expectNoChanges: true } });
  // Another spelling of the same server: state only, nothing sent.
  const respelled = emu.adminUrl.replace("127.0.0.1", "localhost") + "/";
  const cosmetic = await s.mustRun("up", { config: config(emu, settings, respelled) });
  expect(cosmetic.changeSummary).toEqual({ update: 1, same: 1 });
  expect(requests(emu, UPDATE)).toBe(1);

  // An operator changes the cipher suites; refresh finds it, and the preview shows it alone.
  const OPERATOR = [TLS13, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"];
  await setSecurityConfig(session, { cipherSuites: OPERATOR });
  await s.mustRun("refresh");
  const preview = await s.mustRun("preview", { options: { diff: true } });
  expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
  expect(preview.output).toMatch(/~ cipherSuites/);
  expect(preview.output).not.toMatch(/~ (tlsProtocols|hstsEnabled)/);

  const destroy = await s.mustRun("destroy");
  expect(await held(session)).toEqual({
    ...BEFORE,
    cipherSuites: OPERATOR.join(","),
  });
  expect(said(destroy)).toMatch(
    /Left cipherSuites \(now .*someone else changed it since\)[\s\S]*Restored hstsEnabled, tlsProtocols/,
  );
});

it("a lost answer of the update is settled by reading: done, and never sent again", async () => {
  const { emu, session } = await server({ serverType: "arcgis-server", tls: false });
  const proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  proxies.push(proxy);
  proxy.setRule(({ method, path: url }) =>
    method === "POST" && url.split("?")[0]!.endsWith(UPDATE) ? { kind: "drop-answer" } : undefined,
  );
  const s = await stack("security-lost", "security-settings-program.cjs");
  const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
  const settings = { tlsProtocols: ["TLSv1.2", "TLSv1.3"], cipherSuites: [TLS12, TLS13] };
  const up = await s.mustRun("up", { config: config(emu, settings, adminUrl) });
  expect(requests(emu, UPDATE)).toBe(1);
  expect(said(up)).toContain("the server shows the change, so it is done. It was not sent again");
  expect(await held(session)).toMatchObject({ tlsProtocols: "TLSv1.2,TLSv1.3" });
});

it("killed while the update is under way, recovered with cancel and refresh --clear-pending-creates: not sent again, and destroy restores nothing it cannot prove it wrote", async () => {
  const { emu, session } = await server({ serverType: "arcgis-server", tls: false });
  const BEFORE = await held(session);
  const proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  proxies.push(proxy);
  let killedNow: () => void = () => undefined;
  const killDone = new Promise<void>((resolve) => (killedNow = resolve));
  proxy.setRule(({ method, path: url }) =>
    method === "POST" && url.split("?")[0]!.endsWith(UPDATE)
      ? { kind: "hold", answerAfter: killDone }
      : undefined,
  );
  const s = await stack("security-killed", "security-settings-program.cjs");
  const adminUrl = proxy.url + new URL(emu.adminUrl).pathname;
  const settings = { hstsEnabled: false, cipherSuites: [TLS12], restoreOnDestroy: true };
  const options = { config: config(emu, settings, adminUrl) };
  const killed = await killedUp(s, options.config, () => requests(emu, UPDATE) === 1);
  killedNow();
  proxy.setRule(() => undefined);
  expect(killed.ok).toBe(false);
  expect(await pendingOperations(s)).toHaveLength(1);
  await recover(s);

  // The killed run's update reached the server; the recovered create finds it and sends nothing.
  const up = await s.mustRun("up", options);
  expect(requests(emu, UPDATE)).toBe(1);
  expect(said(up)).toMatch(/server already holds every declared value of the security settings/);
  await s.mustRun("up", { ...options, options: { expectNoChanges: true } });

  const destroy = await s.mustRun("destroy", options);
  expect(requests(emu, UPDATE)).toBe(1);
  expect(await held(session)).toEqual({ ...BEFORE, cipherSuites: TLS12 });
  expect(said(destroy)).toContain("this stack has no record of writing it");
});

it("settings the stack found in place (adopted) are left by destroy", async () => {
  const { emu, session } = await server({ serverType: "arcgis-server", restartDelayMs: 200 });
  // Someone set them before the stack.
  await setSecurityConfig(session, {
    tlsProtocols: ["TLSv1.2", "TLSv1.3"],
    cipherSuites: [TLS12, TLS13],
  });
  const s = await stack("security-adopted", "security-settings-program.cjs");
  const settings = {
    tlsProtocols: ["TLSv1.2", "TLSv1.3"],
    cipherSuites: [TLS12, TLS13],
    restoreOnDestroy: true,
  };
  const sent = requests(emu, UPDATE);
  const up = await s.mustRun("up", { config: config(emu, settings) });
  expect(up.outputs?.writtenSettings).toEqual({});
  await s.mustRun("destroy");
  expect(requests(emu, UPDATE)).toBe(sent);
  expect(await held(session)).toMatchObject({
    tlsProtocols: "TLSv1.2,TLSv1.3",
    cipherSuites: `${TLS12},${TLS13}`,
  });
});

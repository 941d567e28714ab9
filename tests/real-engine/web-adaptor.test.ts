/**
 * WebAdaptor through the real Pulumi engine, from the packed package, in front of the emulator's
 * Web Adaptor (emulator/web-adaptor/web-adaptor.ts) and a site made beforehand: a request through
 * the Web Adaptor's URL is refused before `up`, reaches the server's REST API after it and is
 * refused again after `destroy`; another spelling of the URLs is no change; an unregister out of
 * band is found by refresh; one registered before the stack is adopted only with adoptExisting and
 * left on destroy; a lost answer of the configuration is settled by reading the list; a killed run
 * is recovered with Pulumi's own commands.
 */
import { Agent } from "undici";
import {
  configureWebAdaptor,
  createAdminSession,
  listWebAdaptors,
  type RegisteredWebAdaptor,
  unregisterWebAdaptor,
} from "../../provider/client";
import { send } from "../../tools/harness/emulator-http";
import { stateResources } from "../../tools/harness/engine-events";
import { startTestSite, type TestEmulator } from "../../tools/harness/emulator";
import * as runs from "../../tools/harness/killed-run";
import type { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { startTunnelProxy } from "../../tools/harness/tunnel-proxy";
import { until } from "../../tools/harness/until";

// A test here runs the pulumi CLI several times; on a loaded machine one run can take 30 s.
// Change summaries count the stack itself beside the WebAdaptor.
jest.setTimeout(300_000);
runs.closeAfterAll();

const PASSWORD = "web-Adaptor-Pass-5";
const PROGRAM = "web-adaptor-program.cjs";
const started: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const s of started.reverse()) await s.close();
});

/** A site with a Web Adaptor beside it (context `gis`), closed after the file. */
async function siteWithAdaptor(): Promise<TestEmulator> {
  const { emu } = await startTestSite(PASSWORD, {
    serverType: "arcgis-server",
    webAdaptor: { context: "gis" },
  });
  started.push(emu);
  return emu;
}

const session = (emu: TestEmulator) =>
  createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    tls: { caCert: emu.caCert! },
  });
const listed = (emu: TestEmulator): Promise<RegisteredWebAdaptor[]> =>
  listWebAdaptors(session(emu));
const adaptorUrl = (emu: TestEmulator): string => emu.webAdaptorUrl!;

/** `GET {webAdaptorUrl}/rest/info?f=json`, as a user through the Web Adaptor. */
async function throughAdaptor(emu: TestEmulator) {
  const agent = new Agent({ connect: { ca: emu.caCert! } });
  try {
    return await send(agent, "GET", `${adaptorUrl(emu)}/rest/info?f=json`);
  } finally {
    await agent.close();
  }
}

/** Refused by the Web Adaptor itself: nothing registered names it. */
async function expectRefused(emu: TestEmulator): Promise<void> {
  const answer = await throughAdaptor(emu);
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.text).toContain("not registered");
}

/** Reaches the server's REST API. */
async function expectReached(emu: TestEmulator): Promise<void> {
  const answer = await throughAdaptor(emu);
  expect(answer.status).toBe(200);
  expect(answer.json).toHaveProperty("currentVersion");
}

function configOf(emu: TestEmulator, extra: Record<string, ConfigValue> = {}) {
  return {
    webAdaptorUrl: { value: adaptorUrl(emu) },
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    username: { value: "siteadmin" },
    password: { value: PASSWORD },
    ...extra,
  };
}

describe("WebAdaptor through the real engine", () => {
  let emu: TestEmulator;
  let s: RealStack;
  beforeAll(async () => {
    emu = await siteWithAdaptor();
    s = await runs.stack("web-adaptor", PROGRAM);
  }, 240_000);

  it("before up a request through it is refused; after up it reaches the server's REST API, the password only a secret in state; a second up changes nothing", async () => {
    await expectRefused(emu);
    const up = await s.mustRun("up", { config: configOf(emu) });
    expect(up.changeSummary).toEqual({ create: 2 });
    expect(up.outputs?.state).toBe("registered");
    const [entry] = await listed(emu);
    expect(entry?.id).toBe(up.outputs?.webAdaptorId);
    expect(entry?.isAdminEnabled).toBe(true);
    await expectReached(emu);
    // The WebAdaptor's own state (the stack config, plain here, is the default provider's).
    const recorded = stateResources((await s.mustRun("export")).state).find((r) =>
      r.type.endsWith(":WebAdaptor"),
    );
    expect(recorded).toBeDefined();
    expect(JSON.stringify(recorded)).not.toContain(PASSWORD);
    expect(up.output + up.stderr).not.toContain(PASSWORD);
    const again = await s.mustRun("up", { options: { expectNoChanges: true } });
    expect(again.changeSummary).toEqual({ same: 2 });
  });

  it("another spelling of webAdaptorUrl and adminUrl is no change, and nothing is configured again", async () => {
    const before = await listed(emu);
    const respell = (url: string) => url.replace("127.0.0.1", "LOCALHOST") + "/";
    const up = await s.mustRun("up", {
      config: configOf(emu, {
        webAdaptorUrl: { value: respell(adaptorUrl(emu)) },
        adminUrl: { value: respell(emu.adminUrl) },
      }),
      options: { expectNoChanges: true },
    });
    expect(up.changeSummary).toEqual({ same: 2 });
    expect(await listed(emu)).toEqual(before);
  });

  it("destroy unregisters it: a request through it is refused again", async () => {
    const destroyed = await s.mustRun("destroy", { config: configOf(emu) });
    expect(destroyed.changeSummary).toEqual({ delete: 2 });
    expect(await listed(emu)).toEqual([]);
    await expectRefused(emu);
  });

  it("unregistered out of band: refresh drops it, and destroy sends nothing", async () => {
    await s.mustRun("up");
    const [entry] = await listed(emu);
    await unregisterWebAdaptor(session(emu), entry!.id);
    const unregisters = () =>
      emu.requestLog().filter((r) => r.url.split("?")[0]!.endsWith("/unregister")).length;
    const sent = unregisters();
    const refreshed = await s.mustRun("refresh");
    expect(refreshed.changeSummary).toMatchObject({ delete: 1 });
    const destroyed = await s.mustRun("destroy");
    expect(destroyed.changeSummary).toEqual({ delete: 1 });
    expect(unregisters()).toBe(sent);
    await expectRefused(emu);
  });
});

describe("WebAdaptor registered before the stack", () => {
  let emu: TestEmulator;
  let s: RealStack;
  let before: RegisteredWebAdaptor;
  beforeAll(async () => {
    emu = await siteWithAdaptor();
    s = await runs.stack("web-adaptor-adopted", PROGRAM);
    await configureWebAdaptor(
      adaptorUrl(emu),
      {
        mode: "server",
        serverUrl: new URL(emu.adminUrl).origin,
        username: "siteadmin",
        password: PASSWORD,
        adminAccess: true,
      },
      { tls: { caCert: emu.caCert! } },
    );
    [before] = (await listed(emu)) as [RegisteredWebAdaptor];
  }, 240_000);

  it("is refused naming adoptExisting, and not configured again", async () => {
    const up = await s.run("up", { config: configOf(emu) });
    expect(up.ok).toBe(false);
    expect(up.output).toContain("adoptExisting");
    expect(await listed(emu)).toEqual([before]);
  });

  it("is adopted with adoptExisting, and left registered on destroy", async () => {
    const up = await s.mustRun("up", {
      config: configOf(emu, { adoptExisting: { value: "true" } }),
    });
    expect(up.outputs).toMatchObject({ state: "adopted", webAdaptorId: before.id });
    const destroyed = await s.mustRun("destroy");
    expect(destroyed.changeSummary).toEqual({ delete: 2 });
    expect(await listed(emu)).toEqual([before]);
    await expectReached(emu);
  });
});

/**
 * A site with a Web Adaptor, its stack, and a CONNECT proxy that loses the answer of every tunnel
 * to the Web Adaptor once `lose` resolves; `toAdaptor` lists those tunnels.
 */
async function behindTunnel(name: string, lose: (emu: TestEmulator) => Promise<void>) {
  const emu = await siteWithAdaptor();
  const s = await runs.stack(name, PROGRAM);
  const proxy = await startTunnelProxy();
  started.push(proxy);
  const port = `:${new URL(adaptorUrl(emu)).port}`;
  proxy.setRule((target) =>
    target.endsWith(port) ? { kind: "lose-answer", lose: () => lose(emu) } : undefined,
  );
  const toAdaptor = () => proxy.seen.filter((t) => t.target.endsWith(port));
  return { emu, s, env: { HTTPS_PROXY: proxy.url }, toAdaptor };
}

describe("WebAdaptor when the answer of its configuration is lost", () => {
  let setup: Awaited<ReturnType<typeof behindTunnel>>;
  beforeAll(async () => {
    // The configuration's answer is lost once the server lists the Web Adaptor (it acted).
    setup = await behindTunnel("web-adaptor-lost", (emu) =>
      until(async () => (await listed(emu)).length > 0, "the registration"),
    );
  }, 240_000);

  it("up reads the list, finds it registered, and does not configure it again", async () => {
    const { emu, s, env, toAdaptor } = setup;
    const up = await s.mustRun("up", { config: configOf(emu), env });
    expect(up.changeSummary).toEqual({ create: 2 });
    expect(up.output).toContain("was lost");
    expect(up.outputs?.state).toBe("registered");
    expect(toAdaptor().map((t) => t.fault)).toEqual(["lose-answer"]);
    expect((await listed(emu)).map((w) => w.id)).toEqual([up.outputs?.webAdaptorId]);
    await expectReached(emu);
    await s.mustRun("destroy");
    await expectRefused(emu);
  });
});

describe("WebAdaptor after a killed run", () => {
  let setup: Awaited<ReturnType<typeof behindTunnel>>;
  let release: () => void = () => undefined;
  beforeAll(async () => {
    const held = new Promise<void>((resolve) => (release = resolve));
    // The configuration's answer is held until the run is killed.
    setup = await behindTunnel("web-adaptor-killed", () => held);
  }, 240_000);
  afterAll(() => release());

  it("is recovered with pulumi cancel and refresh --clear-pending-creates; up then adopts it with adoptExisting, configured once", async () => {
    const { emu, s, env, toAdaptor } = setup;
    await runs.killedUp(s, configOf(emu), async () => (await listed(emu)).length > 0, env);
    const registered = (await listed(emu)).map((w) => w.id);
    expect((await runs.pendingOperations(s)).length).toBeGreaterThan(0);
    await runs.recover(s);
    const refused = await s.run("up");
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain("adoptExisting");
    const up = await s.mustRun("up", {
      config: configOf(emu, { adoptExisting: { value: "true" } }),
    });
    expect(up.outputs?.state).toBe("adopted");
    expect(toAdaptor()).toHaveLength(1);
    expect((await listed(emu)).map((w) => w.id)).toEqual(registered);
    expect(registered).toEqual([up.outputs?.webAdaptorId]);
    await expectReached(emu);
  });
});

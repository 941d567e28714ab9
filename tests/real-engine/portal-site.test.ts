/**
 * PortalSite through the real Pulumi CLI, from the packed package: a portal in no site gets its
 * site once, with the declared administrator (who then signs in through the portal's
 * generateToken); another spelling of its URL is no replacement; a portal installed again (in no
 * site) is dropped by refresh and destroy sends nothing; a portal that has its site is refused at
 * preview naming adoptExisting, adopted with it and left as it is by destroy; a lost answer is
 * settled by reading the portal, never by a second createNewSite; a killed run is recovered with
 * Pulumi's own commands and adoptExisting; through the provider plugin (its type token, the
 * provider's configuration), the same create, a second up that changes nothing, and a destroy
 * that leaves the portal.
 */
import {
  closeDispatchers,
  communitySelf,
  createPortalSession,
  portalSiteStatus,
  TokenCache,
} from "../../provider/client";
import {
  proxiedSharingUrl,
  startFaultProxy,
  type FaultProxy,
} from "../../tools/harness/fault-proxy";
import {
  closeAfterAll,
  emulator,
  killedUp,
  pendingOperations,
  recover,
  requests,
  stack,
} from "../../tools/harness/killed-run";
import * as path from "node:path";
import type { TestEmulator } from "../../tools/harness/emulator";
import { stateResources } from "../../tools/harness/engine-events";
import { pluginOnPath, RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { until } from "../../tools/harness/until";

// A test here runs the pulumi CLI up to six times; on a loaded machine one run can take 30 s.
jest.setTimeout(400_000);

const PASSWORD = "portal-Site-Pass-9";
const ANSWER = "answer-Nobody-Guesses-4";
const CREATE = "/portaladmin/createNewSite";

closeAfterAll();
afterAll(() => closeDispatchers());
const pluginStacks: RealStack[] = [];
afterAll(async () => {
  for (const s of pluginStacks) await s.cleanup();
});

function configFor(
  sharingUrl: string,
  caCert: string | undefined,
  extra: Record<string, ConfigValue> = {},
): Record<string, ConfigValue> {
  return {
    sharingUrl: { value: sharingUrl },
    ...(caCert === undefined ? {} : { caCert: { value: caCert } }),
    portalPassword: { value: PASSWORD, secret: true },
    securityAnswer: { value: ANSWER, secret: true },
    ...extra,
  };
}

/** The declared administrator, signed in through the portal's generateToken. */
async function administratorOf(emu: TestEmulator, password = PASSWORD) {
  const session = createPortalSession({
    sharingUrl: emu.sharingUrl,
    username: "portaladmin",
    password,
    tokenCache: new TokenCache(),
    ...(emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } }),
  });
  return communitySelf(session);
}

async function hasSite(emu: TestEmulator): Promise<boolean> {
  const tls = emu.caCert === undefined ? {} : { tls: { caCert: emu.caCert } };
  return (await portalSiteStatus(emu.sharingUrl, tls)).state === "in-site";
}

describe("PortalSite on a portal in no site", () => {
  it("up creates the site once with the declared administrator, who signs in; no change and another URL spelling send nothing; a reinstalled portal is dropped by refresh; destroy sends nothing", async () => {
    const emu = await emulator({ portalNoSite: true, portalCreateDelayMs: 300, tls: false });
    const s = await stack("portal-site", "portal-site-program.cjs");
    const config = configFor(emu.sharingUrl, emu.caCert);
    const up = await s.mustRun("up", { config });
    expect(up.outputs).toMatchObject({ state: "created", username: "portaladmin" });
    expect(requests(emu, CREATE)).toBe(1);
    expect(await administratorOf(emu)).toMatchObject({
      username: "portaladmin",
      role: "org_admin",
    });
    // The password and the security answer: secrets in state, in no output, no log, no URL.
    const exported = await s.mustRun("export");
    const stateText = JSON.stringify(exported.state);
    expect(stateText).not.toContain(PASSWORD);
    expect(stateText).not.toContain(ANSWER);
    expect(`${up.output}${up.stderr}`).not.toContain(PASSWORD);
    expect(`${up.output}${up.stderr}`).not.toContain(ANSWER);
    expect(emu.requestLog().some((r) => r.url.includes(PASSWORD) || r.url.includes(ANSWER))).toBe(
      false,
    );

    await s.mustRun("up", { options: { expectNoChanges: true } });
    // Another spelling of the same portal: a trailing slash, and localhost for the loopback.
    const respelled = emu.sharingUrl.replace("127.0.0.1", "LOCALHOST").replace(/\/?$/, "/");
    const preview = await s.mustRun("preview", {
      config: { sharingUrl: { value: respelled } },
      options: { diff: true },
    });
    expect(preview.changeSummary?.replace ?? 0).toBe(0);
    expect(preview.output).not.toContain("(replace)");
    const cosmetic = await s.mustRun("up");
    expect(cosmetic.changeSummary?.replace ?? 0).toBe(0);
    expect(requests(emu, CREATE)).toBe(1);

    // Drift: the portal installed again at the same address, in no site.
    const port = Number(new URL(emu.sharingUrl).port);
    await emu.close();
    const reinstalled = await emulator({ portalNoSite: true, tls: false, port });
    const refresh = await s.mustRun("refresh");
    expect(refresh.output).toMatch(/is in no site any more/);
    const after = await s.mustRun("export");
    expect(JSON.stringify(after.state)).not.toContain("PortalSite");
    await s.mustRun("destroy");
    expect(requests(reinstalled, CREATE)).toBe(0);
    expect(await hasSite(reinstalled)).toBe(false);
  });
});

describe("PortalSite on a portal that has its site", () => {
  it("is refused at preview naming adoptExisting; with it, adopted, and destroy leaves the portal as it is", async () => {
    const emu = await emulator({ tls: false });
    const s = await stack("portal-site-adopt", "portal-site-program.cjs");
    // The seeded portal's administrator is portaladmin with the harness's password.
    const config = configFor(emu.sharingUrl, emu.caCert, {
      portalPassword: { value: "emulator-Admin-1", secret: true },
    });
    const refused = await s.run("preview", { config });
    expect(refused.ok).toBe(false);
    expect(`${refused.output}${refused.stderr}`).toMatch(
      /adoptExisting[\s\S]*has its site already[\s\S]*set adoptExisting: true/,
    );
    expect(requests(emu, CREATE)).toBe(0);

    const up = await s.mustRun("up", { config: { adopt: { value: "true" } } });
    expect(up.outputs).toMatchObject({ state: "adopted" });
    await s.mustRun("destroy");
    expect(up.output + (await s.mustRun("export")).output).not.toContain("emulator-Admin-1");
    expect(requests(emu, CREATE)).toBe(0);
    expect(await hasSite(emu)).toBe(true);
    expect(await administratorOf(emu, "emulator-Admin-1")).toMatchObject({ role: "org_admin" });
  });
});

describe("PortalSite: a lost answer", () => {
  let proxy: FaultProxy | undefined;
  afterAll(async () => {
    await proxy?.close();
  });

  it("is settled by reading the portal: its site with the declared administrator is the stack's own, and createNewSite is sent once", async () => {
    const emu = await emulator({ portalNoSite: true, portalCreateDelayMs: 300, tls: false });
    proxy = await startFaultProxy(new URL(emu.sharingUrl).origin);
    // The portal creates its site; its answer is replaced by a gateway's 502.
    proxy.setRule(({ path }) =>
      path.endsWith(CREATE) ? { kind: "drop-answer", replaceWith: { status: 502 } } : undefined,
    );
    const sharingUrl = proxiedSharingUrl(proxy, emu);
    const s = await stack("portal-site-lost", "portal-site-program.cjs");
    const up = await s.mustRun("up", { config: configFor(sharingUrl, undefined) });
    expect(up.output).toMatch(/The answer to createNewSite on .* was lost[\s\S]*not sent again/);
    expect(up.outputs).toMatchObject({ state: "created" });
    expect(proxy.seen.filter((r) => r.path.endsWith(CREATE))).toHaveLength(1);
    expect(requests(emu, CREATE)).toBe(1);
    await s.mustRun("destroy");
  });
});

describe("PortalSite: a killed run", () => {
  it("is recovered with pulumi cancel and refresh --clear-pending-creates; the site the killed run made is refused without adoptExisting and adopted with it, never created again", async () => {
    const emu = await emulator({ portalNoSite: true, portalCreateDelayMs: 4_000, tls: false });
    const s = await stack("portal-site-killed", "portal-site-program.cjs");
    const config = configFor(emu.sharingUrl, undefined);
    await killedUp(s, config, () => requests(emu, CREATE) === 1);
    expect(await pendingOperations(s)).toHaveLength(1);
    await recover(s);
    expect(await pendingOperations(s)).toEqual([]);
    // The killed run's creation ends on the portal.
    await until(() => hasSite(emu), "the killed run's portal site");

    const refused = await s.run("up", { config });
    expect(refused.ok).toBe(false);
    expect(`${refused.output}${refused.stderr}`).toMatch(
      /has its site already[\s\S]*adoptExisting/,
    );
    const up = await s.mustRun("up", { config: { adopt: { value: "true" } } });
    expect(up.outputs).toMatchObject({ state: "adopted" });
    expect(requests(emu, CREATE)).toBe(1);
    await s.mustRun("destroy");
    expect(await hasSite(emu)).toBe(true);
  });
});

describe("PortalSite through the provider plugin", () => {
  it("creates the portal's site from the provider's configuration, keeps it on a second up, and destroy leaves it", async () => {
    const emu = await emulator({ portalNoSite: true, portalCreateDelayMs: 300, tls: false });
    const s = await RealStack.create("plugin-portal-site", undefined, {
      dir: path.join(__dirname, "plugin-portal-site-program"),
      entry: "index.cjs",
    });
    pluginStacks.push(s);
    const env = pluginOnPath(s);
    const config: Record<string, ConfigValue> = {
      "arcgis-admin:sharingUrl": { value: emu.sharingUrl },
      "arcgis-admin:portalUsername": { value: "portaladmin" },
      "arcgis-admin:portalPassword": { value: PASSWORD, secret: true },
    };
    const up = await s.mustRun("up", { config, env });
    expect(up.outputs).toMatchObject({ state: "created" });
    expect(requests(emu, CREATE)).toBe(1);
    expect(await administratorOf(emu)).toMatchObject({ role: "org_admin" });
    const exported = await s.mustRun("export", { env });
    const portals = stateResources(exported.state).filter((r) => r.urn.endsWith("::portal"));
    expect(portals.map((r) => r.type)).toEqual(["arcgis-admin:index:PortalSite"]);
    expect(JSON.stringify(exported.state)).not.toContain(PASSWORD);

    const again = await s.mustRun("up", { config, env });
    expect(again.changeSummary).toEqual({ same: 2 });
    await s.mustRun("destroy", { config, env });
    expect(requests(emu, CREATE)).toBe(1);
    expect(await hasSite(emu)).toBe(true);
  });
});

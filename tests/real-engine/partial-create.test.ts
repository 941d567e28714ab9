/**
 * A create that did part of its work keeps it, through Pulumi's partial state for a failed create:
 * a Federation whose federate succeeded and whose role update then failed (a proxy's 502) is in
 * the stack, finished by the next `pulumi up` and unfederated by destroy; on the dynamic path and
 * through the plugin.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeDispatchers, createPortalSession, federatedServers } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";
import { pluginOnPath, RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";

jest.setTimeout(300_000);

const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };
const SITE_PASSWORD = "partial-Create-Pass-4";

const emulators: TestEmulator[] = [];
const stacks: RealStack[] = [];
const proxies: FaultProxy[] = [];

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  for (const proxy of proxies) await proxy.close();
  for (const emu of emulators) await emu.close();
  await closeDispatchers();
});

/** A plain-HTTP emulator behind a proxy that answers 502 to the portal's update while `failing`. */
async function portalFailingUpdates(): Promise<{
  emu: TestEmulator;
  sharingUrl: string;
  stopFailing: () => void;
}> {
  const emu = await startTestEmulator({ createDelayMs: 0, tls: false });
  emulators.push(emu);
  const proxy = await startFaultProxy(new URL(emu.adminUrl).origin);
  proxies.push(proxy);
  let failing = true;
  proxy.setRule(({ path: p }) =>
    failing && /\/federation\/servers\/[^/]+\/update/.test(p)
      ? { kind: "status", status: 502 }
      : undefined,
  );
  return {
    emu,
    sharingUrl: proxy.url + new URL(emu.sharingUrl).pathname,
    stopFailing: () => (failing = false),
  };
}

it("Federation: the role update failing after federate keeps the federation; the next up finishes it, destroy unfederates", async () => {
  const { emu, sharingUrl, stopFailing } = await portalFailingUpdates();
  const s = await RealStack.create("partial");
  fs.copyFileSync(path.join(__dirname, "federation-program.cjs"), s.program);
  stacks.push(s);
  const config: Record<string, ConfigValue> = {
    servers: {
      value: JSON.stringify([
        { name: "mission", serverType: "mission-server", adminUrl: emu.adminUrl },
      ]),
    },
    sharingUrl: { value: sharingUrl },
    portalUsername: { value: PORTAL.username },
    portalPassword: { value: PORTAL.password, secret: true },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    missionFunction: { value: "MissionServer" },
  };
  const failed = await s.run("up", { config });
  expect(failed.ok).toBe(false);
  expect(failed.output).toMatch(/server is federated \(server id \S+\) and recorded in the stack/);
  expect(emu.stats().serversFederated).toBe(1);
  const state = await s.run("export");
  const recorded = state.state?.deployment.resources?.find((r) =>
    String(r["urn"]).endsWith("::mission-federation"),
  );
  expect(recorded?.["id"]).toEqual(expect.any(String));
  expect(JSON.stringify(recorded)).not.toContain(SITE_PASSWORD);

  stopFailing();
  const up = await s.mustRun("up", { config });
  expect(up.outputs).toMatchObject({
    missionState: "federated",
    missionServerId: recorded?.["id"],
  });
  expect(emu.stats().serversFederated).toBe(1);
  const portal = createPortalSession({ sharingUrl: emu.sharingUrl, ...PORTAL });
  expect((await federatedServers(portal))[0]).toMatchObject({ serverFunction: "MissionServer" });
  await s.mustRun("up", { config, options: { expectNoChanges: true } });

  await s.mustRun("destroy", { config });
  expect(emu.stats().serversUnfederated).toBe(1);
  expect(await federatedServers(portal)).toEqual([]);
});

it("through the plugin: the role update failing after federate keeps the federation; the next up finishes it", async () => {
  const { emu, sharingUrl, stopFailing } = await portalFailingUpdates();
  const s = await RealStack.create("plugin-partial", undefined, {
    dir: path.join(__dirname, "plugin-federation-program"),
    entry: "index.cjs",
  });
  stacks.push(s);
  // The engine finds the plugin on PATH: the launcher of the installed package.
  const env = pluginOnPath(s);
  const config: Record<string, ConfigValue> = {
    adminUrl: { value: emu.adminUrl },
    sharingUrl: { value: sharingUrl },
    serverFunction: { value: "MissionServer" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    portalPassword: { value: PORTAL.password, secret: true },
  };
  const failed = await s.run("up", { config, env });
  expect(failed.ok).toBe(false);
  expect(failed.output).toMatch(/server is federated \(server id \S+\) and recorded in the stack/);
  const state = await s.run("export", { env });
  const recorded = state.state?.deployment.resources?.find((r) =>
    String(r["urn"]).endsWith("::federation"),
  );
  expect(recorded?.["id"]).toEqual(expect.any(String));
  expect(JSON.stringify(recorded)).not.toContain(SITE_PASSWORD);

  stopFailing();
  const up = await s.mustRun("up", { config, env });
  expect(up.outputs).toMatchObject({ state: "federated", serverId: recorded?.["id"] });
  expect(emu.stats().serversFederated).toBe(1);
  await s.mustRun("destroy", { config, env });
  expect(emu.stats().serversUnfederated).toBe(1);
});

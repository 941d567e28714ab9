/**
 * A `pulumi up` killed (SIGKILL of the CLI, its provider host ending with it) in the middle of
 * creates, then recovered with the commands docs/troubleshooting.md gives: `pulumi cancel` (the
 * stale lock), `pulumi refresh --clear-pending-creates` (the pending creates) and `pulumi up` with
 * `adoptExisting` where the server holds what the killed create made. Nothing is sent twice,
 * nothing is recorded as made by the stack that it cannot prove, and destroy leaves what the stack
 * only adopted; a join still under way when the recovery runs is watched, never sent again. The
 * Site, the SiteMachine, a LogSettings and the Federation share one program
 * (killed-run-program.cjs) and so one killed run, one recovery and one destroy, as
 * day-three-recovery.test.ts does for the day-three resources; a federation another stack made
 * during the killed run needs two stacks of its own. The backups' resources are in
 * killed-run-backups.test.ts.
 */
import * as path from "node:path";
import {
  createAdminSession,
  createPortalSession,
  federatedServers,
  getLogSettings,
  listMachines,
  siteStatus,
} from "../../provider/client";
import {
  closeAfterAll,
  emulator,
  federationProgramConfig,
  killedUp,
  pendingOperations,
  PORTAL,
  recover,
  requests,
  SITE_PASSWORD,
  stack,
} from "../../tools/harness/killed-run";
import { until } from "../../tools/harness/until";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { startFaultProxy, type FaultProxy } from "../../tools/harness/fault-proxy";

jest.setTimeout(300_000);
closeAfterAll();
let proxy: FaultProxy | undefined;
afterAll(() => proxy?.close());

it("Site, SiteMachine, LogSettings and Federation: killed during createNewSite, joinSite, logs/settings/edit and federate, recovered with cancel, refresh --clear-pending-creates and adoptExisting: nothing sent twice, the join still under way watched, destroy leaves what was adopted", async () => {
  // The site's creation is the first call of the run, so its server takes longest: each call
  // is still under way when the last of them arrives and the CLI is killed. The join takes
  // longer still, so that the recovery finds it under way (a real join takes minutes).
  const target = await emulator({ createDelayMs: 20_000 });
  const first = await emulator({ machineName: "gis1", createDelayMs: 0 });
  const certFile = first.caCertFile!;
  const second = await emulator({
    machineName: "gis2",
    joinDelayMs: 75_000,
    tls: { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") },
  });
  // The LogSettings reaches gis1 through a proxy that passes its edit on and holds the answer:
  // the server has written DEBUG when the CLI is killed.
  proxy = await startFaultProxy(new URL(first.adminUrl).origin);
  let killedNow: () => void = () => undefined;
  const killDone = new Promise<void>((resolve) => (killedNow = resolve));
  proxy.setRule(({ method, path: url }) =>
    method === "POST" && url.split("?")[0]!.endsWith("/logs/settings/edit")
      ? { kind: "hold", answerAfter: killDone }
      : undefined,
  );
  const mission = await emulator({ createDelayMs: 0, federateDelayMs: 10_000 });
  const s = await stack("killed", "killed-run-program.cjs");
  const config: Record<string, ConfigValue> = {
    sitePassword: { value: SITE_PASSWORD, secret: true },
    site: { value: JSON.stringify({ adminUrl: target.adminUrl, caCert: target.caCert! }) },
    machine: {
      value: JSON.stringify({
        adminUrl: first.adminUrl,
        caCert: first.caCert!,
        secondAdminUrl: second.adminUrl,
        secondMachineName: "gis2",
        logsAdminUrl: proxy.url + new URL(first.adminUrl).pathname,
      }),
    },
    mission: {
      value: JSON.stringify({
        adminUrl: mission.adminUrl,
        caCert: mission.caCert!,
        sharingUrl: mission.sharingUrl,
      }),
    },
    portalUsername: { value: PORTAL.username },
    portalPassword: { value: PORTAL.password, secret: true },
  };
  const sent = () =>
    target.stats().createNewSiteRequests === 1 &&
    requests(second, "/joinSite") === 1 &&
    requests(first, "/logs/settings/edit") === 1 &&
    requests(mission, "/federation/servers/federate") === 1;
  const killed = await killedUp(s, config, sent);
  killedNow();
  proxy.setRule(() => undefined);
  expect(killed.ok).toBe(false);
  // The two other sites were created before the kill; the four creates are pending.
  expect(await pendingOperations(s)).toHaveLength(4);
  expect(target.stats().sitesCreated).toBe(0);

  // The lock of the killed run stops the next run until `pulumi cancel` removes it.
  const locked = await s.run("up", { config });
  expect(locked.output + locked.stderr).toMatch(/locked by 1 lock/);
  await recover(s);
  expect(await pendingOperations(s)).toEqual([]);

  // The site's creation and the federate end before the next run: the admin root's answer during
  // a creation is not an Esri-documented "in a site" (docs/emulator.md). The join is still under
  // way when the next run starts: the site lists gis2, which still answers that it is in no site.
  const site = createAdminSession({
    adminUrl: first.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: first.caCert! },
  });
  await until(() => target.stats().sitesCreated === 1, "the killed run's site creation");
  await until(() => mission.stats().serversFederated === 1, "the killed federate to end");
  expect(await listMachines(site)).toContain("gis2");
  expect(await siteStatus(second.adminUrl, { tls: { caCert: first.caCert! } })).toMatchObject({
    state: "no-site",
  });
  expect((await getLogSettings(site)).logLevel).toBe("DEBUG");

  // The site and the federation the killed run made are not claimed without the user's word;
  // each resource says so (the engine carries on past the first error to show both). The machine
  // needs no word: it is in the stack's own site; its join is watched to its end, never sent
  // again. The log settings are applied again, with at most one more edit.
  const refused = await s.run("up", { config, options: { continueOnError: true } });
  expect(refused.ok).toBe(false);
  const errors = (name: string) =>
    (refused.diagnostics ?? [])
      .filter((d) => d.severity === "error" && d.urn.endsWith(`::${name}`))
      .map((d) => d.message)
      .join("\n");
  expect(errors("site")).toMatch(/already participates in a site[\s\S]*adoptExisting: true/);
  expect(errors("mission-federation")).toMatch(/federated .* already[\s\S]*adoptExisting: true/);
  expect(errors("second")).toBe("");
  expect(refused.output).toMatch(
    /lists the machine 'gis2' while[\s\S]*a join is under way[\s\S]*joinSite is not sent again/,
  );
  expect(requests(second, "/joinSite")).toBe(1);
  expect(errors("machine-logs")).toBe("");
  // The killed run's edit wrote DEBUG: the recovered create finds it, sends no edit and warns
  // that restoreOnDestroy has nothing of this stack's to put back.
  expect(requests(first, "/logs/settings/edit")).toBe(1);
  expect(refused.output).toMatch(
    /server already holds every declared value of the log settings[\s\S]*restoreOnDestroy will leave them/,
  );

  const adopting = { ...config, siteAdopt: { value: "true" }, missionAdopt: { value: "true" } };
  const up = await s.mustRun("up", { config: adopting });
  expect(up.outputs).toMatchObject({
    siteState: "adopted",
    machineSiteState: "created",
    secondState: "adopted",
    machineLogLevel: "DEBUG",
    missionState: "adopted",
  });
  expect(target.stats().createNewSiteRequests).toBe(1);
  expect(requests(second, "/joinSite")).toBe(1);
  expect(requests(first, "/logs/settings/edit")).toBe(1);
  expect(requests(mission, "/federation/servers/federate")).toBe(1);
  expect(await pendingOperations(s)).toEqual([]);
  await s.mustRun("up", { config: adopting, options: { expectNoChanges: true } });

  // Adopted, so destroy leaves each: the site, the machine in its site
  // (unregisterAdoptedOnDestroy is false) and the federation.
  await s.mustRun("destroy", { config: adopting });
  expect(target.stats().sitesCreated).toBe(1);
  expect(requests(target, "/deleteSite")).toBe(0);
  expect(requests(first, "/unregister")).toBe(0);
  // The values from before the killed run are unknown to the stack: nothing is restored.
  expect((await getLogSettings(site)).logLevel).toBe("DEBUG");
  expect(requests(first, "/logs/settings/edit")).toBe(1);
  expect(mission.stats().serversUnfederated).toBe(0);
  const portal = createPortalSession({
    sharingUrl: mission.sharingUrl,
    ...PORTAL,
    tls: { caCert: mission.caCert! },
  });
  expect(await federatedServers(portal)).toHaveLength(1);
});

it("Federation: a server another stack federated during the killed run stays that stack's after recovery and destroy", async () => {
  const emu = await emulator({ createDelayMs: 0, federateDelayMs: 20_000 });
  const owner = await stack("owner", "federation-program.cjs");
  const config = federationProgramConfig([{ name: "mission", emu }], {
    sharingUrl: emu.sharingUrl,
    caCert: emu.caCert!,
  });
  const other = await stack("other", "federation-program.cjs");
  const otherConfig = { ...config, adoptSites: { value: "true" } };
  await other.cli(["stack", "ls"], { config: otherConfig }); // its stack and config, ahead
  // The owner's federate is under way when the other stack's create reads the portal's list
  // (the server is not listed yet), so the other stack sends its own federate, and is killed.
  const owning = owner.mustRun("up", { config });
  await until(() => requests(emu, "/federation/servers/federate") === 1, "the owner's federate");
  await killedUp(other, otherConfig, () => requests(emu, "/federation/servers/federate") === 2);
  const owned = await owning;
  const ownerId = owned.outputs?.missionServerId;
  expect(owned.outputs).toMatchObject({ missionState: "federated" });

  await recover(other);
  await other.mustRun("up", { config: { ...otherConfig, missionAdopt: { value: "true" } } });
  expect((await other.run("outputs")).outputs).toMatchObject({
    missionState: "adopted",
    missionServerId: ownerId,
  });
  expect(requests(emu, "/federation/servers/federate")).toBe(2);
  await other.mustRun("destroy", { config: { ...otherConfig, missionAdopt: { value: "true" } } });
  expect(emu.stats().serversUnfederated).toBe(0);
  const portal = createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...PORTAL,
    tls: { caCert: emu.caCert! },
  });
  expect((await federatedServers(portal)).map((s) => s.id)).toEqual([ownerId]);
  await owner.mustRun("up", { config, options: { expectNoChanges: true } });
});

/**
 * A `pulumi up` killed (SIGKILL of the CLI, its provider host ending with it) in the middle of a
 * create, then recovered with the commands docs/troubleshooting.md gives: `pulumi cancel` (the
 * stale lock), `pulumi refresh --clear-pending-creates` (the pending create) and `pulumi up` with
 * `adoptExisting` where the server holds what the killed create made. Nothing is sent twice,
 * nothing is recorded as made by the stack that it cannot prove, and destroy leaves what the stack
 * only adopted. The backups' resources are in killed-run-backups.test.ts.
 */
import * as path from "node:path";
import {
  createAdminSession,
  createPortalSession,
  federatedServers,
  listMachines,
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
  until,
} from "./killed-run-support";
import type { ConfigValue } from "../../tools/harness/real-stack";

jest.setTimeout(300_000);
closeAfterAll();

it("Site: killed during createNewSite, recovered with cancel, refresh --clear-pending-creates and adoptExisting", async () => {
  const emu = await emulator({ createDelayMs: 5_000 });
  const s = await stack("site");
  const config: Record<string, ConfigValue> = {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    siteOnly: { value: "true" },
  };
  const killed = await killedUp(s, config, () => emu.stats().createNewSiteRequests === 1);
  expect(killed.ok).toBe(false);
  expect(await pendingOperations(s)).toHaveLength(1);
  // The server finishes the creation the killed run asked for. While it runs, the admin root's
  // answer is not an Esri-documented "in a site" (docs/emulator.md), so a run then would send a
  // createNewSite that the server refuses: recovery starts once the machine says it is in a site.
  await until(() => emu.stats().sitesCreated === 1, "the killed run's site creation");

  // The lock of the killed run stops the next run until `pulumi cancel` removes it.
  const locked = await s.run("up", { config });
  expect(locked.output + locked.stderr).toMatch(/locked by 1 lock/);
  await recover(s);
  expect(await pendingOperations(s)).toEqual([]);

  // The site the killed run created is not claimed without the user's word.
  const refused = await s.run("up", { config });
  expect(refused.ok).toBe(false);
  expect(refused.output).toMatch(/already participates in a site[\s\S]*adoptExisting: true/);

  const adopting = { ...config, siteExtra: { value: JSON.stringify({ adoptExisting: true }) } };
  const up = await s.mustRun("up", { config: adopting });
  expect(up.outputs).toMatchObject({ siteState: "adopted" });
  expect(emu.stats().createNewSiteRequests).toBe(1);
  expect(await pendingOperations(s)).toEqual([]);
  await s.mustRun("up", { config: adopting, options: { expectNoChanges: true } });

  await s.mustRun("destroy", { config: adopting });
  expect(emu.stats().sitesCreated).toBe(1);
  expect(requests(emu, "/deleteSite")).toBe(0);
});

it("SiteMachine: killed during joinSite, recovered with cancel and refresh --clear-pending-creates: adopted, not joined twice", async () => {
  const first = await emulator({ machineName: "gis1", createDelayMs: 0 });
  const certFile = first.caCertFile!;
  const second = await emulator({
    machineName: "gis2",
    joinDelayMs: 5_000,
    tls: { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") },
  });
  const s = await stack("machine");
  const config: Record<string, ConfigValue> = {
    adminUrl: { value: first.adminUrl },
    caCert: { value: first.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    siteOnly: { value: "true" },
    secondAdminUrl: { value: second.adminUrl },
    secondMachineName: { value: "gis2" },
  };
  await killedUp(s, config, () => requests(second, "/joinSite") === 1);
  await recover(s);
  // The server finishes the join the killed run asked for; a run meanwhile would find the machine
  // neither in the site's list nor free, and its joinSite would be refused ("already joining").
  const site = createAdminSession({
    adminUrl: first.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: first.caCert! },
  });
  await until(
    async () => (await listMachines(site)).includes("gis2"),
    "the killed run's join to end",
  );
  const up = await s.mustRun("up", { config });
  expect(up.outputs).toMatchObject({ siteState: "created", secondState: "adopted" });
  expect(requests(second, "/joinSite")).toBe(1);
  expect(await pendingOperations(s)).toEqual([]);
  // Adopted: destroy leaves the machine in the site (unregisterAdoptedOnDestroy is false).
  await s.mustRun("destroy", { config });
  expect(requests(first, "/unregister")).toBe(0);
});

it("Federation (no serverFunction): killed during federate, recovered and adopted; destroy leaves it federated", async () => {
  const emu = await emulator({ createDelayMs: 0, federateDelayMs: 5_000 });
  const s = await stack("federation", "federation-program.cjs");
  const config = federationProgramConfig([{ name: "mission", emu }], {
    sharingUrl: emu.sharingUrl,
    caCert: emu.caCert!,
  });
  await killedUp(s, config, () => requests(emu, "/federation/servers/federate") === 1);
  await recover(s);
  await until(() => emu.stats().serversFederated === 1, "the killed federate to end");

  const refused = await s.run("up", { config });
  expect(refused.ok).toBe(false);
  expect(refused.output).toMatch(/federated .* already[\s\S]*adoptExisting: true/);

  const adopting = { ...config, adoptSites: { value: "true" }, missionAdopt: { value: "true" } };
  const up = await s.mustRun("up", { config: adopting });
  expect(up.outputs).toMatchObject({ missionState: "adopted" });
  expect(requests(emu, "/federation/servers/federate")).toBe(1);
  expect(await pendingOperations(s)).toEqual([]);
  await s.mustRun("up", { config: adopting, options: { expectNoChanges: true } });

  await s.mustRun("destroy", { config: adopting });
  expect(emu.stats().serversUnfederated).toBe(0);
  const portal = createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...PORTAL,
    tls: { caCert: emu.caCert! },
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

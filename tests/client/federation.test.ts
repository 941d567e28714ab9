/**
 * Federation through the client against the real emulator (its portal and its server): the list,
 * federate (Chef's parameters), update of role and function, unfederate, and the refusals a
 * Federation resource must tell apart (wrong server password, federated twice, unknown id).
 */
import {
  arcgisRequest,
  closeDispatchers,
  createNewSite,
  createPortalSession,
  federatedServers,
  federateServer,
  unfederateServer,
  updateFederatedServer,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const SITE = { username: "siteadmin", password: "fed-Site-Pass-3" };
const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 0 });
  await createNewSite(emu.adminUrl, { ...SITE, runAsync: false }, { tls: { caCert: emu.caCert! } });
});
afterAll(async () => {
  await emu?.close();
  await closeDispatchers();
});

const portal = () =>
  createPortalSession({ sharingUrl: emu.sharingUrl, ...PORTAL, tls: { caCert: emu.caCert! } });
/** The site root the portal administers the server by (admin root without /admin). */
const siteRoot = () => emu.adminUrl.replace(/\/admin$/, "");

it("federates the server once, lists it, updates its role and function, and unfederates it", async () => {
  const session = portal();
  expect(session.portalAdminUrl).toBe(emu.sharingUrl.replace("/sharing/rest", "/portaladmin"));
  expect(await federatedServers(session)).toEqual([]);
  const { serverId } = await federateServer(session, {
    url: `${siteRoot()}`,
    adminUrl: siteRoot(),
    ...SITE,
  });
  expect(await federatedServers(session)).toEqual([
    expect.objectContaining({
      id: serverId,
      url: siteRoot(),
      adminUrl: siteRoot(),
      serverRole: "FEDERATED_SERVER",
      serverType: "ARCGIS_MISSION_SERVER",
    }),
  ]);
  await expect(
    federateServer(session, { url: siteRoot(), adminUrl: siteRoot(), ...SITE }),
  ).rejects.toThrow(/already federated/);
  await updateFederatedServer(session, serverId, "FEDERATED_SERVER", "MissionServer");
  expect((await federatedServers(session))[0]).toMatchObject({ serverFunction: "MissionServer" });
  await unfederateServer(session, serverId, true);
  expect(await federatedServers(session)).toEqual([]);
  await expect(unfederateServer(session, serverId, true)).rejects.toThrow(/not federated/);
  expect(emu.stats()).toMatchObject({ serversFederated: 1, serversUnfederated: 1 });
});

it("refuses a wrong primary administrator password and never shows it", async () => {
  const error = await federateServer(portal(), {
    url: siteRoot(),
    adminUrl: siteRoot(),
    username: SITE.username,
    password: "Wrong-Secret-Pass-77",
  }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error?.message).toMatch(/federate.*not valid/s);
  expect(error?.message).not.toContain("Wrong-Secret-Pass-77");
  expect(emu.requestLog().filter((r) => r.url.includes("Wrong-Secret-Pass-77"))).toHaveLength(0);
});

it("refuses the list to a request without a token, in the sharing API's error form", async () => {
  await expect(
    arcgisRequest({
      url: `${portal().portalAdminUrl}/federation/servers`,
      operation: "federation/servers",
      method: "GET",
      tls: { caCert: emu.caCert! },
    }),
  ).rejects.toMatchObject({ serverCode: 499 });
});

/**
 * A federated server as the emulator shows it (emulator/admin/federated.ts): its administrative
 * API takes the portal's administrators' tokens while the portal lists it, and its security
 * configuration names the portal; before federation and after unfederation, neither.
 */
import { Harness, send, SITE_ADMIN } from "./support";

const ADMIN = { username: "fedadmin", password: "Fed-Admin-Pass-1" };
const USER = { username: "feduser", password: "Fed-User-Pass-1" };

let h: Harness;
let portalAdmin: string;
let portalUser: string;
let siteToken: string;

const portaladmin = () => h.emu.sharingUrl.replace(/\/sharing\/rest$/, "/portaladmin");
const siteUrl = () => h.emu.adminUrl.replace(/\/admin$/, "");
const machinesWith = (token: string) => h.adminGet(`/machines?f=json&token=${token}`);
const securityConfig = async () =>
  (await h.adminGet(`/security/config?f=json&token=${siteToken}`)).json as Record<string, unknown>;

beforeAll(async () => {
  h = await Harness.start({
    serverType: "mission-server",
    seed: {
      portal: {
        id: "FEDPORTAL1",
        users: [
          { ...ADMIN, role: "org_admin" },
          { ...USER, role: "org_user" },
        ],
      },
    },
  });
  await h.createSite();
  siteToken = await h.adminToken();
  portalAdmin = await h.portalToken(ADMIN.username, ADMIN.password);
  portalUser = await h.portalToken(USER.username, USER.password);
});
afterAll(() => h?.close());

it("refuses the portal's token before federation; its security tier is GIS_SERVER", async () => {
  expect((await machinesWith(portalAdmin)).json).toMatchObject({ error: { code: 498 } });
  expect(await securityConfig()).toMatchObject({ authenticationTier: "GIS_SERVER" });
  expect(await securityConfig()).not.toHaveProperty("portalProperties");
});

it("takes the portal administrator's token once federated, in a header too, and names the portal", async () => {
  const answer = await fetchFederate();
  expect(answer.json).toMatchObject({ status: "success" });
  expect((await machinesWith(portalAdmin)).json.machines).toHaveLength(1);
  const viaHeader = await h.adminGet("/machines?f=json", {
    "X-Esri-Authorization": `Bearer ${portalAdmin}`,
  });
  expect(viaHeader.json.machines).toHaveLength(1);
  expect(await securityConfig()).toMatchObject({
    authenticationTier: "ARCGIS_PORTAL",
    portalProperties: { portalId: "FEDPORTAL1" },
  });
  // Only the portal's administrators administer the server.
  expect((await machinesWith(portalUser)).json).toMatchObject({ error: { code: 498 } });
});

it("refuses the portal's token again once unfederated", async () => {
  const servers = await h.sharingGet(`/portals/self/servers?f=json&token=${portalAdmin}`);
  const id = String(servers.json.servers[0].id);
  const unfederated = await postPortaladmin(`federation/servers/${id}/unfederate`, {});
  expect(unfederated.json).toMatchObject({ status: "success" });
  expect((await machinesWith(portalAdmin)).json).toMatchObject({ error: { code: 498 } });
  expect(await securityConfig()).toMatchObject({ authenticationTier: "GIS_SERVER" });
});

function postPortaladmin(op: string, form: Record<string, string>) {
  return send(h.agent, "POST", `${portaladmin()}/${op}`, {
    form: { f: "json", token: portalAdmin, ...form },
  });
}

function fetchFederate() {
  return postPortaladmin("federation/servers/federate", {
    url: siteUrl(),
    adminUrl: siteUrl(),
    username: SITE_ADMIN.username,
    password: SITE_ADMIN.password,
  });
}

/**
 * A server federated with a portal accepts that portal's administrators' tokens on its
 * administrative API, and its security configuration names the portal (emulator/admin/federated.ts);
 * a server the portal has not federated, or has unfederated, refuses them.
 */
import { Harness, send, SITE_ADMIN } from "../../tools/harness/emulator-http";

const PORTAL_ADMIN = { username: "gisadmin", password: "Portal-Admin-Pass-1" };
const VIEWER = { username: "viewer", password: "Viewer-Pass-1" };
const SEED = {
  portal: {
    id: "FEDPORTAL01",
    users: [
      { ...PORTAL_ADMIN, role: "org_admin" as const },
      { ...VIEWER, role: "org_user" as const },
    ],
    collaborations: [],
  },
};

describe("portal tokens on a federated server", () => {
  let portal: Harness;
  let federated: Harness;
  let portalToken: string;

  const portalUrl = (): string => portal.emu.sharingUrl.replace(/\/sharing\/rest$/, "");
  const siteRoot = (h: Harness): string => h.emu.adminUrl.replace(/\/admin$/, "");
  const federation = (op: string, form: Record<string, string>) =>
    send(portal.agent, "POST", `${portalUrl()}/portaladmin/federation/servers/${op}`, {
      form: { f: "json", token: portalToken, ...form },
    });

  beforeAll(async () => {
    portal = await Harness.start({ createDelayMs: 0, seed: SEED });
    federated = await Harness.start({ createDelayMs: 0 });
    await portal.createSite();
    await federated.createSite();
  });
  beforeEach(async () => {
    portalToken = await portal.portalToken(PORTAL_ADMIN.username, PORTAL_ADMIN.password);
  });
  afterAll(async () => {
    await federated?.close();
    await portal?.close();
  });

  it("are refused (498) by servers the portal has not federated", async () => {
    expect((await federated.admin("machines", { token: portalToken })).json.code).toBe(498);
    expect((await portal.admin("machines", { token: portalToken })).json.code).toBe(498);
    const config = await federated.admin("security/config", {
      token: await federated.adminToken(),
    });
    expect(config.json).toMatchObject({ authenticationTier: "GIS_SERVER" });
    expect(config.json.portalProperties).toBeUndefined();
  });

  it("work on the federated server's admin API, and only there, until unfederated", async () => {
    const root = siteRoot(federated);
    const answer = await federation("federate", {
      url: root,
      adminUrl: root,
      username: SITE_ADMIN.username,
      password: SITE_ADMIN.password,
    });
    expect(answer.json).toMatchObject({ status: "success" });
    const serverId = answer.json.serverId as string;

    // As a form field, and in the header Esri's ArcGIS API for Python sends.
    const machines = await federated.admin("machines", { token: portalToken });
    expect(machines.json.machines).toHaveLength(1);
    const logs = await federated.adminGet("/logs/settings?f=json", {
      "x-esri-authorization": `Bearer ${portalToken}`,
    });
    expect(logs.json.settings).toMatchObject({ logLevel: expect.any(String) });

    const config = await federated.adminGet("/security/config?f=json", {
      "x-esri-authorization": `Bearer ${portalToken}`,
    });
    expect(config.json).toMatchObject({
      authenticationMode: "ARCGIS_PORTAL_TOKEN",
      authenticationTier: "ARCGIS_PORTAL",
      userStoreConfig: { type: "PORTAL" },
      portalProperties: {
        portalUrl: portalUrl(),
        portalMode: "ARCGIS_PORTAL_FEDERATION",
        serverId,
        serverUrl: root,
      },
    });
    expect(config.text).not.toContain(portalToken);

    // The portal's own server is not federated: still refused there.
    expect((await portal.admin("machines", { token: portalToken })).json.code).toBe(498);
    // A portal user who is not an administrator.
    const viewerToken = await portal.portalToken(VIEWER.username, VIEWER.password);
    const refused = await federated.admin("machines", { token: viewerToken });
    expect(refused.json).toMatchObject({
      code: 403,
      messages: ["Token is valid but access is denied."],
    });
    // The site administrator's own token still works.
    const own = await federated.admin("machines", { token: await federated.adminToken() });
    expect(own.json.machines).toHaveLength(1);

    expect((await federation(`${serverId}/unfederate`, {})).json).toMatchObject({
      status: "success",
    });
    expect((await federated.admin("machines", { token: portalToken })).json.code).toBe(498);
    const after = await federated.admin("security/config", {
      token: await federated.adminToken(),
    });
    expect(after.json).toMatchObject({ authenticationTier: "GIS_SERVER" });
  });

  // A server's security configuration names one portal (see emulator/portal/federation.ts): the
  // wording of the refusal is an assumption of docs/emulator.md, its form the sharing API's.
  it("are a second portal's only after the first unfederates: its federate is refused meanwhile", async () => {
    const second = await Harness.start({
      createDelayMs: 0,
      seed: { portal: { ...SEED.portal, id: "FEDPORTAL02" } },
    });
    try {
      const root = siteRoot(federated);
      const server = { url: root, adminUrl: root, ...SITE_ADMIN };
      const first = await federation("federate", server);
      expect(first.json).toMatchObject({ status: "success" });
      const secondToken = await second.portalToken(PORTAL_ADMIN.username, PORTAL_ADMIN.password);
      const secondUrl = second.emu.sharingUrl.replace(/\/sharing\/rest$/, "");
      const federateAtSecond = () =>
        send(second.agent, "POST", `${secondUrl}/portaladmin/federation/servers/federate`, {
          form: { f: "json", token: secondToken, ...server },
        });

      const refused = await federateAtSecond();
      expect(refused.json).toEqual({
        error: {
          code: 400,
          message: `Unable to federate the server. The server '${root}' is already federated with another portal ('${portalUrl()}'). Unfederate it from that portal first.`,
          details: [],
        },
      });
      const listed = await send(
        second.agent,
        "GET",
        `${secondUrl}/portaladmin/federation/servers`,
        {
          form: { f: "json", token: secondToken },
        },
      );
      expect(listed.json.servers).toEqual([]);
      // The server still honours the first portal's tokens only.
      expect(
        (await federated.admin("machines", { token: portalToken })).json.machines,
      ).toHaveLength(1);
      expect((await federated.admin("machines", { token: secondToken })).json.code).toBe(498);

      expect(
        (await federation(`${first.json.serverId as string}/unfederate`, {})).json,
      ).toMatchObject({ status: "success" });
      expect((await federateAtSecond()).json).toMatchObject({ status: "success" });
      expect(
        (await federated.admin("machines", { token: secondToken })).json.machines,
      ).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

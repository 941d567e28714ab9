/**
 * security/config/update (emulator/admin/security.ts): what it keeps across a restart, what it
 * refuses, and that a federated server's configuration still follows its portal: Chef's
 * `update_security_configuration` re-sends the portal properties it read, which the update takes,
 * while a change of federation from the server's side is refused.
 */
import { Harness, send, SITE_ADMIN } from "../../tools/harness/emulator-http";

const PORTAL_ADMIN = { username: "gisadmin", password: "Portal-Admin-Pass-1" };
const SEED = {
  portal: {
    id: "SECPORTAL01",
    users: [{ ...PORTAL_ADMIN, role: "org_admin" as const }],
    collaborations: [],
  },
};

describe("security/config/update", () => {
  let server: Harness;
  let token: string;

  beforeAll(async () => {
    // No restart gap: what these tests read is the configuration, not the restart (below).
    server = await Harness.start({ createDelayMs: 0, restartDelayMs: 0 });
    await server.createSite();
  });
  beforeEach(async () => {
    token = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  const update = (form: Record<string, string>) =>
    server.admin("security/config/update", { token, ...form });
  const config = async () => (await server.admin("security/config", { token })).json;

  it("refuses what the emulator cannot be, naming the field, and changes nothing", async () => {
    const before = await config();
    const refusals: Array<[Record<string, string>, string]> = [
      [{ Protocol: "FTP" }, "Protocol"],
      [{ HSTSEnabled: "maybe" }, "HSTSEnabled"],
      [{ Protocol: "HTTP_AND_HTTPS", HSTSEnabled: "true" }, "HSTSEnabled"],
      [{ httpsProtocols: "TLSv1.2,SSLv3" }, "httpsProtocols"],
      [{ cipherSuites: "TLS_RSA_WITH_AES_128_CBC_SHA,not a suite" }, "cipherSuites"],
      [{ securityConfig: "{not json" }, "securityConfig"],
      [{ securityConfig: JSON.stringify({ securityEnabled: false }) }, "securityEnabled"],
      [{ authenticationTier: "WEB_ADAPTOR" }, "authenticationTier"],
      [{ authenticationMode: "ARCGIS_PORTAL_TOKEN" }, "authenticationMode"],
      [
        { portalProperties: JSON.stringify({ serverId: "x", portalUrl: "https://p/portal" }) },
        "portalProperties",
      ],
    ];
    for (const [form, field] of refusals) {
      const answer = await update(form);
      expect({ form, code: answer.json.code }).toEqual({ form, code: 400 });
      expect((answer.json.messages as string[]).join(" ")).toContain(`'${field}'`);
    }
    expect(await config()).toEqual(before);
  });

  it("keeps what it set across a restart, and the default protocol follows TLS", async () => {
    expect(await config()).toMatchObject({ sslEnabled: true, httpEnabled: false });
    const answer = await update({ Protocol: "HTTP_AND_HTTPS", allowedAdminAccessIPs: "10.0.0.1" });
    expect(answer.json).toEqual({ status: "success" });
    const dataDir = server.dataDir;
    await server.close({ keepDataDir: true });
    server = await Harness.start({ createDelayMs: 0, dataDir });
    token = await server.adminToken();
    expect(await config()).toMatchObject({
      sslEnabled: true,
      httpEnabled: true,
      allowedAdminAccessIPs: "10.0.0.1",
      HSTSEnabled: false,
    });
  });

  it("answers 499 without a token and 405 to GET", async () => {
    const answer = await server.admin("security/config/update", { HSTSEnabled: "false" });
    expect(answer.json.code).toBe(499);
    const get = await server.adminGet(`/security/config/update?f=json&token=${token}`);
    expect(get.json.code).toBe(405);
  });
});

describe("security/config/update on a federated server", () => {
  let portal: Harness;
  let server: Harness;
  let portalToken: string;
  let serverId: string;

  const portalUrl = (): string => portal.emu.sharingUrl.replace(/\/sharing\/rest$/, "");
  const siteRoot = (): string => server.emu.adminUrl.replace(/\/admin$/, "");

  beforeAll(async () => {
    portal = await Harness.start({ createDelayMs: 0, seed: SEED });
    server = await Harness.start({ createDelayMs: 0, restartDelayMs: 0 });
    await portal.createSite();
    await server.createSite();
    portalToken = await portal.portalToken(PORTAL_ADMIN.username, PORTAL_ADMIN.password);
    const federated = await send(
      portal.agent,
      "POST",
      `${portalUrl()}/portaladmin/federation/servers/federate`,
      {
        form: {
          f: "json",
          token: portalToken,
          url: siteRoot(),
          adminUrl: siteRoot(),
          ...SITE_ADMIN,
        },
      },
    );
    expect(federated.json).toMatchObject({ status: "success" });
    serverId = (federated.json as { serverId: string }).serverId;
  });
  afterAll(async () => {
    await server?.close();
    await portal?.close();
  });

  it("takes Chef's flat form with the portal properties it read, and stays federated", async () => {
    const token = await server.adminToken();
    const read = (await server.admin("security/config", { token })).json;
    expect(read).toMatchObject({ authenticationTier: "ARCGIS_PORTAL" });
    // update_security_configuration: every value as read, HSTS wanted, portalProperties as JSON.
    const answer = await server.admin("security/config/update", {
      token,
      httpsProtocols: read.httpsProtocols as string,
      cipherSuites: read.cipherSuites as string,
      Protocol: "HTTPS",
      authenticationMode: read.authenticationMode as string,
      authenticationTier: read.authenticationTier as string,
      HSTSEnabled: "true",
      virtualDirsSecurityEnabled: "false",
      allowDirectAccess: "true",
      allowedAdminAccessIPs: "",
      portalProperties: JSON.stringify(read.portalProperties),
    });
    expect(answer.json).toEqual({ status: "success" });
    // Through the portal's token too (the ArcGIS API for Python's way).
    const after = (await server.admin("security/config", { token: portalToken })).json;
    expect(after).toMatchObject({
      HSTSEnabled: true,
      authenticationTier: "ARCGIS_PORTAL",
      portalProperties: { portalUrl: portalUrl(), serverUrl: siteRoot() },
    });
  });

  it("refuses to end the federation from the server's side", async () => {
    const token = await server.adminToken();
    for (const form of [
      { securityConfig: JSON.stringify({ authenticationTier: "GIS_SERVER" }) },
      { portalProperties: "" },
    ]) {
      const answer = await server.admin("security/config/update", { token, ...form });
      expect(answer.json.code).toBe(400);
    }
    const after = (await server.admin("security/config", { token })).json;
    expect(after).toMatchObject({ authenticationTier: "ARCGIS_PORTAL" });
  });

  it("keeps the site's own settings when the portal unfederates and federates it again", async () => {
    const token = await server.adminToken();
    const set = await server.admin("security/config/update", {
      token,
      allowedAdminAccessIPs: "10.1.2.3",
    });
    expect(set.json).toEqual({ status: "success" });
    const portalAdmin = `${portalUrl()}/portaladmin/federation/servers`;
    const unfederated = await send(portal.agent, "POST", `${portalAdmin}/${serverId}/unfederate`, {
      form: { f: "json", token: portalToken },
    });
    expect(unfederated.json).toMatchObject({ status: "success" });
    const alone = (await server.admin("security/config", { token })).json;
    expect(alone).toMatchObject({
      authenticationTier: "GIS_SERVER",
      allowedAdminAccessIPs: "10.1.2.3",
    });
    expect(alone.portalProperties).toBeUndefined();
    const again = await send(portal.agent, "POST", `${portalAdmin}/federate`, {
      form: { f: "json", token: portalToken, url: siteRoot(), adminUrl: siteRoot(), ...SITE_ADMIN },
    });
    expect(again.json).toMatchObject({ status: "success" });
    const federatedAgain = (await server.admin("security/config", { token })).json;
    expect(federatedAgain).toMatchObject({
      authenticationTier: "ARCGIS_PORTAL",
      portalProperties: { portalUrl: portalUrl() },
      allowedAdminAccessIPs: "10.1.2.3",
    });
  });
});

describe("ArcGIS Server's web server after security/config/update", () => {
  let server: Harness;
  let token: string;

  beforeAll(async () => {
    server = await Harness.start({ createDelayMs: 0, restartDelayMs: 2000 });
    await server.createSite();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** What Chef's `wait_until_available` asks: `admin/?f=json` with a status below 400. */
  const adminStatus = async (): Promise<number> => (await server.adminGet("/?f=json")).status;
  const untilAvailable = async (): Promise<void> => {
    const deadline = Date.now() + 10_000;
    while ((await adminStatus()) >= 400) {
      if (Date.now() > deadline) throw new Error("the server did not become available again");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it("restarts after a change of HSTS (DSC's ArcGIS_Server_TLS waits for it): 503 from the admin API and the health check, then available again", async () => {
    token = await server.adminToken();
    const answer = await server.admin("security/config/update", {
      token,
      Protocol: "HTTPS",
      HSTSEnabled: "true",
    });
    expect(answer.json).toEqual({ status: "success" });
    expect(await adminStatus()).toBe(503);
    const health = await send(server.agent, "GET", server.emu.healthUrl);
    expect(health.status).toBe(503);
    await untilAvailable();
    const read = await server.admin("security/config", { token: await server.adminToken() });
    expect(read.json).toMatchObject({ HSTSEnabled: true, sslEnabled: true, httpEnabled: false });
  });

  it("does not restart when the update changes none of the web server's settings", async () => {
    await untilAvailable();
    token = await server.adminToken();
    const answer = await server.admin("security/config/update", {
      token,
      Protocol: "HTTPS",
      HSTSEnabled: "true",
      allowedAdminAccessIPs: "10.0.0.1",
    });
    expect(answer.json).toEqual({ status: "success" });
    expect(await adminStatus()).toBeLessThan(400);
  });
});

/**
 * What is SecuritySettings' own (the rule of kept settings it shares with LogSettings and
 * SystemProperties: kept-settings.test.ts): the refusals proven before anything is sent (at
 * check(), and at the write for a combination with the server's own values), the wait for the web
 * server's restart after a change, and the fields it does not own written back as read: a
 * federated server's portal and authentication stay the federation's, in either order.
 */
import {
  closeDispatchers,
  createPortalSession,
  federatedServers,
  getSecurityConfig,
  type AdminSession,
} from "../../provider/client";
import { implementation as federation } from "../../provider/resources/federation/lifecycle";
import { implementation as security } from "../../provider/resources/security-settings/lifecycle";
import { startTestSite, type TestEmulator } from "../../tools/harness/emulator";

const PASSWORD = "security-Settings-Pass-2";
const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };
const TLS12 = "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256";
const TLS13 = "TLS_AES_128_GCM_SHA256";

afterAll(() => closeDispatchers());

const https = {
  adminUrl: "https://gis.example.com:6443/arcgis/admin",
  username: "siteadmin",
  password: PASSWORD,
};

async function failures(raw: Record<string, unknown>) {
  return (await security.check({}, raw)).failures ?? [];
}

describe("check() refuses before anything is sent", () => {
  it.each([
    [
      "an unknown protocol name",
      { tlsProtocols: ["TLSv1.2", "SSLv3"] },
      "tlsProtocols[1]",
      /must be one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3/,
    ],
    ["an empty protocol set", { tlsProtocols: [] }, "tlsProtocols", /at least one protocol/],
    ["an empty suite set", { cipherSuites: [] }, "cipherSuites", /at least one cipher suite/],
    [
      "a suite that is no IANA name",
      { cipherSuites: ["ECDHE-RSA-AES128-GCM-SHA256"] },
      "cipherSuites[0]",
      /IANA name/,
    ],
    [
      "a protocol with no cipher suite left",
      { tlsProtocols: ["TLSv1.2", "TLSv1.3"], cipherSuites: [TLS12] },
      "tlsProtocols",
      /TLSv1.3 would have no cipher suite left: .* Add one of TLS_AES_128_GCM_SHA256/,
    ],
    [
      "HSTS without HTTPS only",
      { httpsOnly: false, hstsEnabled: true },
      "hstsEnabled",
      /HSTS needs HTTPS only/,
    ],
    [
      "protocols out of order",
      { tlsProtocols: ["TLSv1.3", "TLSv1.2"], cipherSuites: [TLS12, TLS13] },
      "tlsProtocols",
      /oldest first: \[TLSv1.2, TLSv1.3\]/,
    ],
    ["a suite listed twice", { cipherSuites: [TLS12, TLS12] }, "cipherSuites", /more than once/],
    [
      "a protocol set this provider cannot speak (it would lock the stack out)",
      { tlsProtocols: ["TLSv1", "TLSv1.1"], cipherSuites: ["TLS_RSA_WITH_AES_128_CBC_SHA"] },
      "tlsProtocols",
      /leaves no protocol this provider speaks \(TLSv1.2, TLSv1.3.*add TLSv1.2 or TLSv1.3/,
    ],
    ["nothing to manage", {}, "httpsOnly", /declare at least one of/],
  ])("%s", async (_what, settings, property, reason) => {
    const found = await failures({ ...https, ...settings });
    expect(found).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });

  it("HTTPS only while adminUrl is http:// (it would lock the stack out)", async () => {
    const found = await failures({
      ...https,
      adminUrl: "http://gis:6080/arcgis/admin",
      httpsOnly: true,
    });
    expect(found).toEqual([
      {
        property: "httpsOnly",
        reason: expect.stringMatching(
          /adminUrl http:\/\/gis:6080\/arcgis\/admin is http:\/\/.*point adminUrl at the server's https:\/\/ address first/,
        ),
      },
    ]);
  });

  it("accepts a consistent declaration", async () => {
    expect(
      await failures({
        ...https,
        httpsOnly: true,
        hstsEnabled: true,
        tlsProtocols: ["TLSv1.2", "TLSv1.3"],
        cipherSuites: [TLS12, TLS13],
      }),
    ).toEqual([]);
  });
});

describe("on a server", () => {
  let emu: TestEmulator;
  afterEach(() => emu.close());
  const start = async (options: Record<string, unknown> = {}) => {
    ({ emu } = await startTestSite(PASSWORD, { serverType: "arcgis-server", ...options }));
  };
  const inputs = async (settings: Record<string, unknown>) => {
    const result = await security.check(
      {},
      {
        serverType: emu.serverType,
        adminUrl: emu.adminUrl,
        username: "siteadmin",
        password: PASSWORD,
        tls: { caCert: emu.caCert },
        ...settings,
      },
    );
    expect(result.failures ?? []).toEqual([]);
    return result.inputs!;
  };
  const updates = () =>
    emu.requestLog().filter((r) => r.url.split("?")[0]!.endsWith("/security/config/update"));

  it("refuses, with nothing sent, a declared protocol the server's own cipher suites leave without one", async () => {
    await start();
    // The server's suites are TLS 1.2 ones only; the stack declares TLS 1.3 alone.
    const error = await security.create(await inputs({ tlsProtocols: ["TLSv1.3"] })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(
      /Refused before sending security\/config\/update .*tlsProtocols: TLSv1.3 would have no cipher suite left: none of the server's cipherSuites .*Nothing was sent\./,
    );
    expect(updates()).toHaveLength(0);
  });

  it("waits for ArcGIS Server's web server to restart after a change, then reads it back", async () => {
    await start({ restartDelayMs: 2_500 });
    const { outs } = await security
      .create(await inputs({ tlsProtocols: ["TLSv1.2", "TLSv1.3"], cipherSuites: [TLS12, TLS13] }))
      // The step's errors carry no stack (implementationOf): shown by their message.
      .catch((e: unknown) => Promise.reject(new Error(String(e))));
    expect(updates()).toHaveLength(1);
    expect(outs.serverSecuritySettings).toEqual({
      tlsProtocols: ["TLSv1.2", "TLSv1.3"],
      cipherSuites: [TLS12, TLS13],
    });
    // The wait: the admin root asked, without a token, after the update.
    const log = emu.requestLog().map((r) => r.url.split("?")[0]);
    const update = log.indexOf("/arcgis/admin/security/config/update");
    expect(log.slice(update + 1)).toContain("/arcgis/admin/");
  });
});

describe("a federated server: the portal's fields stay the federation's, in either order", () => {
  let emu: TestEmulator;
  let session: AdminSession;
  beforeEach(async () => {
    ({ emu, session } = await startTestSite(PASSWORD, { serverType: "mission-server" }));
  });
  afterEach(() => emu.close());
  const connection = () => ({
    serverType: emu.serverType,
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    tls: { caCert: emu.caCert },
  });
  const DECLARED = {
    httpsOnly: true,
    hstsEnabled: true,
    tlsProtocols: ["TLSv1.2", "TLSv1.3"],
    cipherSuites: [TLS12, TLS13],
  };

  async function federate(): Promise<void> {
    const checked = await federation.check(
      {},
      {
        sharingUrl: emu.sharingUrl,
        ...PORTAL,
        tls: { caCert: emu.caCert },
        serverType: emu.serverType,
        adminUrl: emu.adminUrl,
        serverUsername: "siteadmin",
        serverPassword: PASSWORD,
      },
    );
    expect(checked.failures ?? []).toEqual([]);
    await federation.create(checked.inputs);
  }
  async function keep(): Promise<void> {
    const checked = await security.check({}, { ...connection(), ...DECLARED });
    expect(checked.failures ?? []).toEqual([]);
    await security.create(checked.inputs);
  }
  async function bothSurvive(): Promise<void> {
    const config = await getSecurityConfig(session);
    expect(config).toMatchObject({
      authenticationTier: "ARCGIS_PORTAL",
      portalProperties: { portalMode: "ARCGIS_PORTAL_FEDERATION" },
      sslEnabled: true,
      httpEnabled: false,
      HSTSEnabled: true,
      httpsProtocols: "TLSv1.2,TLSv1.3",
      cipherSuites: `${TLS12},${TLS13}`,
    });
    const portal = createPortalSession({
      sharingUrl: emu.sharingUrl,
      ...PORTAL,
      tls: { caCert: emu.caCert! },
    });
    expect(await federatedServers(portal)).toHaveLength(1);
  }

  it("federation first, then the security settings", async () => {
    await federate();
    await keep();
    await bothSurvive();
  });

  it("the security settings first, then federation", async () => {
    await keep();
    await federate();
    await bothSurvive();
  });
});

/**
 * The emulated Web Adaptor (emulator/web-adaptor/web-adaptor.ts): its own HTTPS listener, its
 * configuration page (what the configure tool Chef's `providers/webadaptor.rb`, DSC's
 * ArcGIS_WebAdaptor and Ansible's configure playbook run calls), the registration it makes in
 * the server's or the portal's `system/webadaptors`, and the forwarding that registration allows.
 */
import { createServer } from "node:net";
import { DEFAULT_PORTAL_ADMIN } from "../../emulator/core/options";
import { Harness, send, SITE_ADMIN, type Answer } from "../../tools/harness/emulator-http";

const originOf = (h: Harness): string => h.emu.adminUrl.replace(/\/arcgis\/admin$/, "");
const portalAdminUrl = (h: Harness): string =>
  h.emu.sharingUrl.replace(/\/sharing\/rest$/, "/portaladmin");
const adaptorUrl = (h: Harness): string => {
  if (h.emu.webAdaptorUrl === undefined) throw new Error("no web adaptor was started");
  return h.emu.webAdaptorUrl;
};

/** The configure tool's `-m -g -u -p -a`, posted to `{wa}/webadaptor`. */
function configure(h: Harness, form: Record<string, string>): Promise<Answer> {
  return send(h.agent, "POST", `${adaptorUrl(h)}/webadaptor`, { form });
}

const throughAdaptor = (h: Harness, pathAndQuery: string): Promise<Answer> =>
  send(h.agent, "GET", `${adaptorUrl(h)}${pathAndQuery}`);

/** The Web Adaptor's own refusal (not an answer of what it fronts): no registration names it. */
function expectUnregistered(answer: Answer): void {
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.json.error.message).toContain("not registered");
}

describe("a Web Adaptor in front of a server", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ webAdaptor: { context: "gis" } });
    await h.createSite();
  });
  afterEach(async () => {
    await h.close();
  });

  it("listens on its own port at its context, and serves its configuration page before it is configured", async () => {
    const url = new URL(adaptorUrl(h));
    expect(url.pathname).toBe("/gis");
    expect(url.port).not.toBe(new URL(h.emu.adminUrl).port);
    const page = await throughAdaptor(h, "/webadaptor");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
  });

  it("refuses requests before it is registered, with a status Chef's and DSC's waits read as unavailable", async () => {
    const info = await throughAdaptor(h, "/rest/info?f=json");
    expectUnregistered(info);
    expect(info.json.error.message).toContain("/gis/webadaptor");
  });

  it("registers itself with the server's system/webadaptors, then forwards to the server; an unregister there ends it", async () => {
    const answer = await configure(h, {
      mode: "server",
      serverUrl: originOf(h),
      ...SITE_ADMIN,
      adminAccess: "true",
    });
    expect(answer.json).toEqual({ status: "success" });
    const token = await h.adminToken();
    const list = await h.adminGet(`/system/webadaptors?f=json&token=${token}`);
    const [entry] = list.json.webAdaptors;
    expect(list.json.webAdaptors).toHaveLength(1);
    expect(entry).toMatchObject({
      webAdaptorURL: adaptorUrl(h),
      httpsPort: Number(new URL(adaptorUrl(h)).port),
      isAdminEnabled: true,
    });

    const info = await throughAdaptor(h, "/rest/info?f=json");
    expect(info.status).toBe(200);
    expect(typeof info.json.currentVersion).toBe("number");
    const viaAdaptor = await throughAdaptor(h, `/admin/system/webadaptors?f=json&token=${token}`);
    expect(viaAdaptor.json).toEqual(list.json);

    await h.admin(`system/webadaptors/${entry.id}/unregister`, { token });
    expectUnregistered(await throughAdaptor(h, "/rest/info?f=json"));
  });

  it("without admin access forwards the services but refuses the admin API (DSC's Test-TargetResource)", async () => {
    await configure(h, {
      mode: "server",
      serverUrl: originOf(h),
      ...SITE_ADMIN,
      adminAccess: "false",
    });
    expect((await throughAdaptor(h, "/rest/info?f=json")).status).toBe(200);
    const admin = await throughAdaptor(h, "/admin/?f=json");
    expect(admin.status).toBe(403);
  });

  it("refuses a wrong password or a server it cannot front, naming why, and registers nothing", async () => {
    const wrong = await configure(h, {
      mode: "server",
      serverUrl: originOf(h),
      username: SITE_ADMIN.username,
      password: "not-the-password",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.status).toBe("error");
    const elsewhere = await configure(h, {
      mode: "server",
      serverUrl: "https://gisserver.invalid:6443",
      ...SITE_ADMIN,
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.json.messages[0]).toContain("https://gisserver.invalid:6443");
    const missing = await configure(h, { mode: "server", ...SITE_ADMIN });
    expect(missing.json.messages[0]).toContain("'serverUrl'");
    const token = await h.adminToken();
    const list = await h.adminGet(`/system/webadaptors?f=json&token=${token}`);
    expect(list.json.webAdaptors).toEqual([]);
    expectUnregistered(await throughAdaptor(h, "/rest/info?f=json"));
  });
});

describe("a Web Adaptor in front of a portal", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ webAdaptor: {} });
  });
  afterEach(async () => {
    await h.close();
  });

  it("registers with the portal's system/webadaptors, forwards to the portal, and stops once unregistered there", async () => {
    expect(new URL(adaptorUrl(h)).pathname).toBe("/arcgis");
    expectUnregistered(await throughAdaptor(h, "/sharing/rest/info?f=json"));
    const answer = await configure(h, {
      mode: "portal",
      serverUrl: originOf(h),
      ...DEFAULT_PORTAL_ADMIN,
    });
    expect(answer.json).toEqual({ status: "success" });
    // What Chef's `:configure_with_portal` and DSC wait for through the Web Adaptor, no token.
    const health = await throughAdaptor(h, "/portaladmin/healthCheck?f=json");
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ status: "success" });
    const token = await h.portalToken(DEFAULT_PORTAL_ADMIN.username, DEFAULT_PORTAL_ADMIN.password);
    const list = await send(
      h.agent,
      "GET",
      `${portalAdminUrl(h)}/system/webadaptors?f=json&token=${token}`,
    );
    expect(list.json.webAdaptors).toEqual([
      expect.objectContaining({
        webAdaptorURL: adaptorUrl(h),
        refreshServerListInterval: 1,
        reconnectServerOnFailureInterval: 1,
      }),
    ]);
    const self = await throughAdaptor(h, `/sharing/rest/portals/self?f=json&token=${token}`);
    expect(self.status).toBe(200);
    expect(self.json.id).toBe(h.emu.portalId);

    const id = list.json.webAdaptors[0].id as string;
    const unregister = await send(
      h.agent,
      "POST",
      `${portalAdminUrl(h)}/system/webadaptors/${id}/unregister`,
      { form: { f: "json", token } },
    );
    expect(unregister.json).toEqual({ status: "success" });
    expectUnregistered(await throughAdaptor(h, `/sharing/rest/portals/self?f=json&token=${token}`));
  });

  it("answers the portal's list, entry and unregister only to an administrator", async () => {
    const list = await send(h.agent, "GET", `${portalAdminUrl(h)}/system/webadaptors?f=json`);
    expect(list.json.error.code).toBe(499);
  });
});

/** A port free at the time of asking (the emulator then listens on it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a Web Adaptor across a restart", () => {
  it("forwards again after a restart on the same port: its registration is the server's list, kept in the data dir", async () => {
    const port = await freePort();
    const first = await Harness.start({ webAdaptor: { context: "gis", port } });
    await first.createSite();
    await configure(first, { mode: "server", serverUrl: originOf(first), ...SITE_ADMIN });
    expect((await throughAdaptor(first, "/rest/info?f=json")).status).toBe(200);
    await first.close({ keepDataDir: true });
    const again = await Harness.start({
      dataDir: first.dataDir,
      webAdaptor: { context: "gis", port },
    });
    try {
      expect(again.emu.webAdaptorUrl).toBe(first.emu.webAdaptorUrl);
      expect((await throughAdaptor(again, "/rest/info?f=json")).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});

/**
 * The portal's own site (emulator/portal/site.ts): a portal started in no site refuses what
 * needs one, `portaladmin/createNewSite` (as Chef, DSC and the ArcGIS API for Python send it)
 * creates its initial administrator, and from then on the portal serves, across restarts.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { FormData, request } from "undici";
import { startEmulator } from "../../emulator";
import { PORTAL_NOT_INITIALIZED } from "../../emulator/portal/site";
import { Harness, send, SITE_ADMIN, type Answer } from "../../tools/harness/emulator-http";
import { runTempDir } from "../../tools/harness/temp";

const ADMIN = { username: "initialadmin", password: "Portal-Initial-Pass-4" };
/** DSC's `Invoke-CreatePortalSite` form (ArcGIS_Portal.psm1, line 243), with a file store. */
const DSC_FORM = {
  ...ADMIN,
  fullname: "Initial Administrator",
  email: "admin@example.com",
  description: "Created by a test",
  securityQuestionIdx: "1",
  securityQuestionAns: "mascot",
  contentStore: JSON.stringify({
    type: "fileStore",
    provider: "FileSystem",
    connectionString: "C:\\arcgisportal\\content",
  }),
  f: "json",
};

const portalAdminUrl = (h: Harness) => h.emu.sharingUrl.replace(/\/sharing\/rest$/, "/portaladmin");

function createNewSite(h: Harness, form: Record<string, string> = DSC_FORM): Promise<Answer> {
  return send(h.agent, "POST", `${portalAdminUrl(h)}/createNewSite`, { form });
}

/** What Chef's `site_exist?` and DSC's `Set-TargetResource` read: the token-less admin root. */
function portalAdminRoot(h: Harness): Promise<Answer> {
  return send(h.agent, "GET", `${portalAdminUrl(h)}/?f=json`);
}

/** The "not initialized" document DSC looks for (status, messages). */
const NOT_INITIALIZED = { status: "error", messages: [PORTAL_NOT_INITIALIZED] };

describe("a portal started in no site", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ portalNoSite: true, portalCreateDelayMs: 0 });
  });
  afterEach(async () => {
    await h.close();
  });

  it("answers DSC's 'not initialized' document at its admin root, never Chef's 499 of a portal with a site", async () => {
    const root = await portalAdminRoot(h);
    expect(root.status).toBe(200);
    expect(root.json).toEqual(NOT_INITIALIZED);
  });

  it("reports itself unavailable at its health check (not HTTP 200) until createNewSite is over", async () => {
    const health = () => send(h.agent, "GET", `${portalAdminUrl(h)}/healthCheck?f=json`);
    expect((await health()).status).toBe(503);
    expect((await createNewSite(h)).json).toEqual({ status: "success" });
    const after = await health();
    expect(after.status).toBe(200);
    expect(after.json).toEqual({ status: "success" });
  });

  it("refuses what needs a site: a token, the portal, its servers", async () => {
    const token = await h.sharing("generateToken", { ...ADMIN, referer: "https://x.test" });
    expect(token.json).toEqual(NOT_INITIALIZED);
    expect((await h.sharingGet(`/portals/self?f=json`)).json).toEqual(NOT_INITIALIZED);
    const servers = await send(h.agent, "GET", `${portalAdminUrl(h)}/federation/servers?f=json`);
    expect(servers.json).toEqual(NOT_INITIALIZED);
  });

  it.each(["username", "password", "fullname", "email", "contentStore"])(
    "refuses createNewSite without %s, naming it, and stays in no site",
    async (field) => {
      const form: Record<string, string> = { ...DSC_FORM };
      delete form[field];
      const answer = await createNewSite(h, form);
      expect(answer.json.error.message).toContain(`'${field}'`);
      expect((await portalAdminRoot(h)).json).toEqual(NOT_INITIALIZED);
    },
  );

  it("refuses a contentStore that is not a JSON object", async () => {
    const answer = await createNewSite(h, { ...DSC_FORM, contentStore: "C:\\content" });
    expect(answer.json.error.message).toContain("'contentStore'");
    expect((await portalAdminRoot(h)).json).toEqual(NOT_INITIALIZED);
  });

  it("createNewSite (DSC's form) creates the initial administrator, then the portal serves", async () => {
    const created = await createNewSite(h);
    expect(created.json).toEqual({ status: "success" });
    // Chef's site_exist?: HTTP 200 with error.code 499.
    const root = await portalAdminRoot(h);
    expect(root.status).toBe(200);
    expect(root.json.error.code).toBe(499);
    const token = await h.portalToken(ADMIN.username, ADMIN.password);
    const self = await h.sharingGet(`/portals/self?f=json&token=${token}`);
    expect(self.json.id).toBe(h.emu.portalId);
    expect(self.json.user.username).toBe(ADMIN.username);
    const servers = await send(
      h.agent,
      "GET",
      `${portalAdminUrl(h)}/federation/servers?f=json&token=${token}`,
    );
    expect(servers.json.servers).toEqual([]);
    const made = await h.sharing(`portals/${h.emu.portalId}/createCollaboration`, {
      token,
      name: "After site",
      description: "",
    });
    expect(made.json.error).toBeUndefined();
    // Federation, with the new administrator's token: the server's site is then federated.
    await h.createSite();
    const siteRoot = h.emu.adminUrl.replace(/\/admin$/, "");
    const federated = await send(
      h.agent,
      "POST",
      `${portalAdminUrl(h)}/federation/servers/federate`,
      { form: { token, url: siteRoot, adminUrl: siteRoot, ...SITE_ADMIN, f: "json" } },
    );
    expect(federated.json.serverId).toEqual(expect.any(String));
    const config = await h.admin("security/config", { token: await h.adminToken() });
    expect(config.json.portalProperties.portalUrl).toEqual(expect.any(String));
  });

  it("takes Chef's multipart form (securityQuestion, license file) and Python's fullName", async () => {
    const form = new FormData();
    const chef = { ...DSC_FORM, securityQuestion: "1", userLicenseTypeId: "creatorUT" };
    delete (chef as Partial<typeof chef>).securityQuestionIdx;
    delete (chef as Partial<typeof chef>).fullname;
    for (const [name, value] of Object.entries({ ...chef, fullName: "Python Spelling" })) {
      form.append(name, value);
    }
    form.append("file", new Blob(['{"license":"test"}']), "license.json");
    form.append("enableDebug", "false");
    const res = await request(`${portalAdminUrl(h)}/createNewSite`, {
      method: "POST",
      body: form,
      dispatcher: h.agent,
    });
    expect(JSON.parse(await res.body.text())).toEqual({ status: "success" });
    expect(typeof (await h.portalToken(ADMIN.username, ADMIN.password))).toBe("string");
  });

  it("refuses a second createNewSite and keeps the first administrator", async () => {
    await createNewSite(h);
    const again = await createNewSite(h, { ...DSC_FORM, username: "other", password: "Other-1" });
    expect(typeof again.json.error.message).toBe("string");
    expect(typeof (await h.portalToken(ADMIN.username, ADMIN.password))).toBe("string");
    const other = await h.sharing("generateToken", { username: "other", password: "Other-1" });
    expect(other.json.token).toBeUndefined();
  });

  it("answers createNewSite by POST only", async () => {
    const get = await send(h.agent, "GET", `${portalAdminUrl(h)}/createNewSite?f=json`);
    expect(get.json.error.code).toBe(405);
    expect((await portalAdminRoot(h)).json).toEqual(NOT_INITIALIZED);
  });
});

describe("the portal's site across restarts", () => {
  it("keeps a portal in no site in no site, and a created site with its administrator", async () => {
    let h = await Harness.start({ portalNoSite: true, portalCreateDelayMs: 0 });
    const { dataDir } = h;
    const portalId = h.emu.portalId;
    await h.close({ keepDataDir: true });
    h = await Harness.start({ dataDir, portalNoSite: true });
    expect((await portalAdminRoot(h)).json).toEqual(NOT_INITIALIZED);
    await createNewSite(h);
    await h.close({ keepDataDir: true });
    // Without the flag: the data dir's portal is kept as it is.
    h = await Harness.start({ dataDir });
    try {
      expect(h.emu.portalId).toBe(portalId);
      expect((await portalAdminRoot(h)).json.error.code).toBe(499);
      expect(typeof (await h.portalToken(ADMIN.username, ADMIN.password))).toBe("string");
    } finally {
      await h.close();
    }
  });

  it("finishes a creation a restart interrupted", async () => {
    let h = await Harness.start({ portalNoSite: true, portalCreateDelayMs: 400 });
    const { dataDir } = h;
    const pending = createNewSite(h).catch(() => undefined);
    // The creation is recorded before its delay: wait until the state file says so.
    const deadline = Date.now() + 5000;
    let status = "";
    while (Date.now() < deadline) {
      const state = JSON.parse(await fs.readFile(path.join(dataDir, "state.json"), "utf8"));
      status = state.portal.site.status;
      if (status === "creating") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe("creating");
    await h.close({ keepDataDir: true });
    await pending;
    h = await Harness.start({ dataDir });
    try {
      const deadlineReady = Date.now() + 10_000;
      let root = await portalAdminRoot(h);
      while (root.json?.error?.code !== 499 && Date.now() < deadlineReady) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        root = await portalAdminRoot(h);
      }
      expect(root.json.error.code).toBe(499);
      expect(typeof (await h.portalToken(ADMIN.username, ADMIN.password))).toBe("string");
    } finally {
      await h.close();
    }
  });
});

describe("starting a portal in no site", () => {
  it("is refused with a seed, naming the option", async () => {
    const dataDir = runTempDir("arcgis-emu-test-");
    let failure: unknown = null;
    try {
      const emu = await startEmulator({
        dataDir,
        quiet: true,
        portalNoSite: true,
        seed: {
          portal: { id: "SEEDED", users: [{ username: "a", password: "b", role: "org_admin" }] },
        },
      });
      await emu.close();
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toMatch(/portalNoSite/);
  });

  it("is not the default: a portal starts with its site", async () => {
    const h = await Harness.start();
    try {
      expect((await portalAdminRoot(h)).json.error.code).toBe(499);
    } finally {
      await h.close();
    }
  });
});

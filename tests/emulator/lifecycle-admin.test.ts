/**
 * The refusals of the lifecycle endpoints the conformance corpus replays only on their happy path
 * (emulator/admin/identity.ts, token-manager.ts, directories.ts, services.ts' delete, and the
 * portal's apps in emulator/portal/apps.ts): each names the input it refuses and changes nothing;
 * the ArcGIS Server-only ones answer as an unknown resource on Mission Server; the identity store
 * of a federated server follows its portal.
 */
import { Harness, send, SITE_ADMIN } from "../../tools/harness/emulator-http";

const PORTAL_ADMIN = { username: "gisadmin", password: "Portal-Admin-Pass-1" };
const SEED = {
  portal: {
    id: "LIFEPORTAL01",
    users: [
      { ...PORTAL_ADMIN, role: "org_admin" as const },
      { username: "viewer", password: "Viewer-Pass-1", role: "org_user" as const },
    ],
    collaborations: [],
  },
};

const builtIn = JSON.stringify({ type: "BUILTIN", properties: {} });

describe("ArcGIS Server lifecycle endpoints: refusals", () => {
  let server: Harness;
  let token: string;

  beforeAll(async () => {
    server = await Harness.start({ createDelayMs: 0 });
    await server.createSite();
    token = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  const refused = async (op: string, form: Record<string, string>, field: string) => {
    const answer = await server.admin(op, { token, ...form });
    expect({ op, form, code: answer.json.code }).toEqual({ op, form, code: 400 });
    expect((answer.json.messages as string[]).join(" ")).toContain(`'${field}'`);
  };

  it("updateIdentityStore takes only the built-in stores, naming the parameter", async () => {
    const ldap = JSON.stringify({ type: "LDAP", properties: { ldapURLForUsers: "ldap://x" } });
    await refused(
      "security/config/updateIdentityStore",
      { userStoreConfig: ldap, roleStoreConfig: builtIn },
      "userStoreConfig",
    );
    await refused(
      "security/config/updateIdentityStore",
      { userStoreConfig: builtIn },
      "roleStoreConfig",
    );
    await refused(
      "security/config/updateIdentityStore",
      { userStoreConfig: "[1]", roleStoreConfig: builtIn },
      "userStoreConfig",
    );
    const config = (await server.admin("security/config", { token })).json;
    expect(config.userStoreConfig).toMatchObject({ type: "BUILTIN" });
  });

  it("assignPrivilege checks the privilege, then refuses the role the store does not hold", async () => {
    await refused(
      "security/roles/assignPrivilege",
      { rolename: "editors", privilege: "OWN" },
      "privilege",
    );
    await refused("security/roles/assignPrivilege", { privilege: "PUBLISH" }, "rolename");
    const answer = await server.admin("security/roles/assignPrivilege", {
      token,
      rolename: "editors",
      privilege: "ADMINISTER",
    });
    expect(answer.json).toMatchObject({ status: "error", code: 400 });
    expect((answer.json.messages as string[]).join(" ")).toContain("'editors'");
  });

  it("security/tokens keeps a stable key, and its update refuses bad timeouts", async () => {
    const first = (await server.admin("security/tokens", { token })).json;
    const second = (await server.admin("security/tokens", { token })).json;
    expect(first).toEqual(second);
    expect(first.properties.sharedKey).toEqual(expect.any(String));
    for (const longTimeout of ["0", "-5", "1.5", "soon"]) {
      await refused(
        "security/tokens/update",
        {
          tokenManagerConfig: JSON.stringify({
            type: "BUILTIN",
            properties: { sharedKey: "k", longTimeout },
          }),
        },
        "tokenManagerConfig",
      );
    }
    await refused("security/tokens/update", { tokenManagerConfig: "{" }, "tokenManagerConfig");
    await refused(
      "security/tokens/update",
      { tokenManagerConfig: JSON.stringify({ type: "LDAP", properties: {} }) },
      "tokenManagerConfig",
    );
    expect((await server.admin("security/tokens", { token })).json).toEqual(first);
    // An update without a key keeps the key and takes the timeouts; the admin token still works.
    const kept = await server.admin("security/tokens/update", {
      token,
      tokenManagerConfig: JSON.stringify({
        properties: { longTimeout: 2880, shortTimeout: "120" },
      }),
    });
    expect(kept.json).toEqual({ status: "success" });
    expect((await server.admin("security/tokens", { token })).json).toEqual({
      type: "BUILTIN",
      properties: {
        sharedKey: first.properties.sharedKey,
        longTimeout: "2880",
        shortTimeout: "120",
      },
    });
  });

  it("directories/register refuses a taken name, a second SYSTEM directory and bad values", async () => {
    const dir = { physicalPath: "/data/extra", directoryType: "OUTPUT" };
    const ok = await server.admin("system/directories/register", { token, name: "Extra", ...dir });
    expect(ok.json).toEqual({ status: "success" });
    await refused("system/directories/register", { name: "EXTRA", ...dir }, "name");
    await refused(
      "system/directories/register",
      { name: "sys2", physicalPath: "/data/sys2", directoryType: "SYSTEM" },
      "directoryType",
    );
    await refused(
      "system/directories/register",
      { name: "x", physicalPath: "/x", directoryType: "WORKSPACE" },
      "directoryType",
    );
    await refused(
      "system/directories/register",
      { name: "y", directoryType: "JOBS" },
      "physicalPath",
    );
    await refused(
      "system/directories/register",
      { name: "z", ...dir, cleanupMode: "SOMETIMES" },
      "cleanupMode",
    );
    await refused(
      "system/directories/register",
      { name: "w", ...dir, maxFileAge: "-1" },
      "maxFileAge",
    );
    const names = (await server.admin("system/directories", { token })).json.directories.map(
      (d: { name: string }) => d.name,
    );
    expect(names.filter((n: string) => n.toLowerCase() === "extra")).toEqual(["Extra"]);
    expect(names).not.toContain("z");
  });

  it("deletes a service once: a second delete is code 404", async () => {
    const path = "services/Utilities/Geometry.GeometryServer/delete";
    expect((await server.admin(path, { token })).json).toEqual({ status: "success" });
    expect((await server.admin(path, { token })).json).toMatchObject({ code: 404 });
    const resource = "services/Utilities/Geometry.GeometryServer";
    expect((await server.admin(resource, { token })).json).toMatchObject({ code: 404 });
  });
});

describe("the ArcGIS Server-only endpoints on Mission Server", () => {
  let server: Harness;
  let token: string;

  beforeAll(async () => {
    server = await Harness.start({ createDelayMs: 0, serverType: "mission-server" });
    await server.createSite();
    token = await server.adminToken();
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ["security/config/updateIdentityStore", { userStoreConfig: builtIn, roleStoreConfig: builtIn }],
    ["security/roles/assignPrivilege", { rolename: "r", privilege: "PUBLISH" }],
    ["security/tokens", {}],
    ["system/directories/register", { name: "n", physicalPath: "/p", directoryType: "JOBS" }],
  ])("%s answers as an unknown resource", async (op, form) => {
    const answer = await server.admin(op, { token, ...form });
    expect(answer.json).toMatchObject({ error: { code: 404 } });
  });
});

describe("the portal's registered apps and a federated server's identity store", () => {
  let portal: Harness;
  let server: Harness;
  let portalToken: string;
  const portalRoot = (): string => portal.emu.sharingUrl.replace(/\/sharing\/rest$/, "");
  const siteRoot = (): string => server.emu.adminUrl.replace(/\/admin$/, "");
  const apps = (path: string, form: Record<string, string>, method: "GET" | "POST" = "POST") =>
    send(portal.agent, method, `${portalRoot()}/sharing/oauth2/apps/${path}`, {
      form: { f: "json", ...form },
    });

  beforeAll(async () => {
    portal = await Harness.start({ createDelayMs: 0, seed: SEED });
    server = await Harness.start({ createDelayMs: 0 });
    await server.createSite();
    portalToken = await portal.portalToken(PORTAL_ADMIN.username, PORTAL_ADMIN.password);
    const federated = await send(
      portal.agent,
      "POST",
      `${portalRoot()}/portaladmin/federation/servers/federate`,
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
  });
  afterAll(async () => {
    await server?.close();
    await portal?.close();
  });

  it("refuses a change of a federated server's identity store", async () => {
    const token = await server.adminToken();
    const answer = await server.admin("security/config/updateIdentityStore", {
      token,
      userStoreConfig: builtIn,
      roleStoreConfig: builtIn,
    });
    expect(answer.json).toMatchObject({ status: "error", code: 400 });
    expect((answer.json.messages as string[]).join(" ")).toContain("federated");
  });

  it("keeps an app's redirect URIs, and refuses bad input, other apps and non-administrators", async () => {
    const uris = ["https://a.example.com", "https://b.example.com"];
    const updated = await apps("arcgisonline/update", {
      token: portalToken,
      redirect_uris: JSON.stringify(uris),
    });
    expect(updated.json).toEqual({ client_id: "arcgisonline", redirect_uris: uris });

    const bad = await apps("arcgisonline/update", {
      token: portalToken,
      redirect_uris: "https://c.example.com",
    });
    expect(bad.json.error).toMatchObject({ code: 400 });
    expect(bad.json.error.message).toContain("'redirect_uris'");
    const other = await apps("someoneelse", { token: portalToken }, "GET");
    expect(other.json.error).toMatchObject({ code: 400 });
    expect((await apps("arcgisonline", {}, "GET")).json.error).toMatchObject({ code: 499 });
    const viewer = await portal.portalToken("viewer", "Viewer-Pass-1");
    expect((await apps("arcgisonline", { token: viewer }, "GET")).json.error).toMatchObject({
      code: 403,
    });
    const read = await apps("arcgisonline", { token: portalToken }, "GET");
    expect(read.json).toEqual({ client_id: "arcgisonline", redirect_uris: uris });
    // The Python API's client starts with none: the apps are kept apart.
    const python = await apps("pythonapi", { token: portalToken }, "GET");
    expect(python.json).toEqual({ client_id: "pythonapi", redirect_uris: [] });
  });
});

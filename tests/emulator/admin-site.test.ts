import { existsSync } from "node:fs";
import path from "node:path";
import { Harness, send, SITE_ADMIN, type Answer } from "../../tools/harness/emulator-http";

const WINDOWS_DIRECTORIES = JSON.stringify({
  directories: [
    {
      name: "arcgisjobs",
      physicalPath: "C:\\arcgismission\\directories\\arcgisjobs",
      directoryType: "JOBS",
      cleanupMode: "TIME_ELAPSED_SINCE_LAST_MODIFIED",
      maxFileAge: 360,
      description: "Jobs",
    },
    {
      name: "arcgisoutput",
      physicalPath: "\\\\fileserver\\share\\arcgisoutput",
      directoryType: "OUTPUT",
      cleanupMode: "NONE",
      maxFileAge: 0,
      description: "",
    },
    {
      name: "arcgissystem",
      physicalPath: "D:/arcgis/system",
      directoryType: "SYSTEM",
      cleanupMode: "NONE",
      maxFileAge: 0,
      description: "",
    },
  ],
});
const WINDOWS_CONFIG_STORE = JSON.stringify({
  type: "FILESYSTEM",
  connectionString: "\\\\fileserver\\share\\config-store",
  localRepositoryPath: "C:\\arcgismission\\local",
});

describe("the admin root", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ machineName: "gis-node-1.example.com" });
  });
  afterEach(async () => {
    await h.close();
  });

  it("answers a 'not participating in any Site' error, neither 498 nor 499, with HTTP 200 on a machine in no site", async () => {
    const root = await h.adminGet("/?f=json");
    expect(root.status).toBe(200);
    expect(root.json.status).toBe("error");
    expect([498, 499]).not.toContain(root.json.code);
    expect(root.json.messages.join(" ")).toMatch(
      /Local machine 'gis-node-1\.example\.com' is not participating in any Site/,
    );
  });

  it("answers 499 without a token once a site exists, and a resource listing with an admin token", async () => {
    await h.createSite();
    const anonymous = await h.adminGet("/?f=json");
    expect(anonymous.status).toBe(200);
    expect(anonymous.json).toMatchObject({ status: "error", code: 499 });
    const token = await h.adminToken();
    const listing = await h.adminGet(`/?f=json&token=${token}`);
    expect(listing.json.resources).toEqual(expect.arrayContaining(["machines", "logs", "system"]));
    expect(listing.json.status).toBeUndefined();
  });

  it("answers a minimal HTML page without f and with f=html", async () => {
    for (const query of ["", "?f=html"]) {
      const page = await h.adminGet(`/${query}`);
      expect(page.headers["content-type"]).toMatch(/^text\/html/);
      expect(page.text).toMatch(/^<!DOCTYPE html>/);
      expect(page.text).toContain("not participating in any Site");
    }
    const pjson = await h.adminGet("/?f=pjson");
    expect(pjson.text).toContain('\n  "status": "error"');
  });

  it("answers code 404 'Could not find resource or operation' for an unknown operation", async () => {
    const before = await h.admin("frobnicate");
    expect(before.json).toEqual({
      status: "error",
      code: 404,
      messages: ["Could not find resource or operation 'frobnicate' on the system."],
    });
    await h.createSite();
    const token = await h.adminToken();
    const after = await h.admin("system/frobnicate", { token });
    expect(after.json.code).toBe(404);
    expect(after.json.messages).toEqual([
      "Could not find resource or operation 'frobnicate' on the system.",
    ]);
  });
});

describe("createNewSite", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("records the config store, registers the machine, records the directories, deploys the auto-deploy services and sets the primary administrator", async () => {
    h = await Harness.start({ machineName: "mission-a" });
    expect((await h.admin("generateToken", SITE_ADMIN)).json.status).toBe("error");
    await h.createSite({
      configStoreConnection: JSON.stringify({
        type: "FILESYSTEM",
        connectionString: "/net/share/config-store",
        localRepositoryPath: "/arcgis/local",
      }),
    });
    const token = await h.adminToken();
    const store = await h.adminGet(`/system/configstore?f=json&token=${token}`);
    expect(store.json).toMatchObject({
      type: "FILESYSTEM",
      connectionString: "/net/share/config-store",
      localRepositoryPath: "/arcgis/local",
    });
    const machines = await h.adminGet(`/machines?f=json&token=${token}`);
    expect(machines.json.machines.map((m: { machineName: string }) => m.machineName)).toEqual([
      "mission-a",
    ]);
    const dirs = await h.adminGet(`/system/directories?f=json&token=${token}`);
    expect(
      dirs.json.directories.map((d: { directoryType: string }) => d.directoryType).sort(),
    ).toEqual(["CACHE", "JOBS", "OUTPUT", "SYSTEM"]);
    const services = await h.adminGet(`/services?f=json&token=${token}`);
    expect(services.json.folders).toContain("System");
    const system = await h.adminGet(`/services/System?f=json&token=${token}`);
    expect(system.json.services.length).toBeGreaterThan(0);
  });

  it("accepts Windows paths for directories and the config store and records them verbatim, without creating them", async () => {
    h = await Harness.start();
    await h.createSite({
      directories: WINDOWS_DIRECTORIES,
      configStoreConnection: WINDOWS_CONFIG_STORE,
    });
    const token = await h.adminToken();
    const dirs = await h.adminGet(`/system/directories?f=json&token=${token}`);
    expect(dirs.json.directories).toEqual(JSON.parse(WINDOWS_DIRECTORIES).directories);
    const store = await h.adminGet(`/system/configstore?f=json&token=${token}`);
    expect(store.json.connectionString).toBe("\\\\fileserver\\share\\config-store");
    // "D:/arcgis/system" would be a relative path here: nothing may have been created.
    expect(existsSync(path.resolve("D:"))).toBe(false);
    expect(existsSync(path.resolve("C:\\arcgismission"))).toBe(false);
  });

  it("answers at once with runAsync in any letter case, reports creation in progress, then completes after the create delay", async () => {
    // A delay no loaded machine outlasts between the answer and the next request: that the
    // root still reports the creation in progress shows the answer came before it ended.
    h = await Harness.start({ createDelayMs: 3000, machineName: "mission-b" });
    const started = Date.now();
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, runAsync: "TrUe" });
    expect(answer.json).toMatchObject({ status: "success", runAsync: true });

    const root = await h.adminGet("/?f=json");
    expect(root.json.status).toBe("error");
    expect([498, 499]).not.toContain(root.json.code);
    expect(root.json.messages.join(" ")).toMatch(
      /Site creation is in progress on machine 'mission-b'/,
    );
    expect(await health(h)).toEqual(UNHEALTHY);
    expect((await h.admin("generateToken", SITE_ADMIN)).json.status).toBe("error");

    await h.waitForSite(30_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2950);
    expect((await h.adminGet("/?f=json")).json.code).toBe(499);
    expect((await send200(h, h.emu.healthUrl + "?f=json")).success).toBe(true);
    expect(typeof (await h.adminToken())).toBe("string");
  });

  it("answers {status: success} only after the create delay without runAsync (or with runAsync=FALSE)", async () => {
    h = await Harness.start({ createDelayMs: 400 });
    const started = Date.now();
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, runAsync: "FALSE" });
    expect(answer.json).toEqual({ status: "success" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(380);
    expect((await h.adminGet("/?f=json")).json.code).toBe(499);
  });

  it("refuses runAsync values other than true or false, naming the parameter", async () => {
    h = await Harness.start();
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, runAsync: "yes" });
    expect(answer.json.status).toBe("error");
    expect(answer.json.messages.join(" ")).toContain("runAsync");
  });

  it("answers code 500 with the JSON parser's own message for malformed JSON", async () => {
    h = await Harness.start();
    const bad = '{"directories": [ {"name": "x",';
    let parserMessage = "";
    try {
      JSON.parse(bad);
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, directories: bad });
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe("error");
    expect(answer.json.code).toBe(500);
    expect(answer.json.messages.join(" ")).toContain(parserMessage);
    expect(answer.json.messages.join(" ")).toContain("directories");
    expect((await h.adminGet("/?f=json")).json.code).not.toBe(499);
  });

  it("names the field of an unknown directoryType or cleanupMode", async () => {
    h = await Harness.start();
    const dirs = JSON.parse(WINDOWS_DIRECTORIES) as { directories: Array<Record<string, unknown>> };
    const badType = structuredClone(dirs);
    badType.directories[1]!.directoryType = "TEMP";
    const typeAnswer = await h.admin("createNewSite", {
      ...SITE_ADMIN,
      directories: JSON.stringify(badType),
    });
    expect(typeAnswer.json.status).toBe("error");
    expect(typeAnswer.json.messages.join(" ")).toContain(
      "directories.directories[1].directoryType",
    );

    const badMode = structuredClone(dirs);
    badMode.directories[2]!.cleanupMode = "SOMETIMES";
    const modeAnswer = await h.admin("createNewSite", {
      ...SITE_ADMIN,
      directories: JSON.stringify(badMode),
    });
    expect(modeAnswer.json.messages.join(" ")).toContain("directories.directories[2].cleanupMode");
    expect((await h.adminGet("/?f=json")).json.code).not.toBe(499);
  });

  it("requires username and password", async () => {
    h = await Harness.start();
    const answer = await h.admin("createNewSite", { username: "only-a-name" });
    expect(answer.json.status).toBe("error");
    expect(answer.json.messages.join(" ")).toContain("'password'");
  });

  it("must be POSTed", async () => {
    h = await Harness.start();
    const answer = await h.adminGet(
      `/createNewSite?f=json&username=${SITE_ADMIN.username}&password=${SITE_ADMIN.password}`,
    );
    expect(answer.json).toMatchObject({ status: "error", code: 405 });
    expect((await h.adminGet("/?f=json")).json.code).toBe(500);
  });
});

describe("createNewSite log settings", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ createDelayMs: 0 });
  });
  afterEach(async () => {
    await h.close();
  });

  async function logLevel(): Promise<string> {
    const token = await h.adminToken();
    return (await h.adminGet(`/logs/settings?f=json&token=${token}`)).json.settings
      .logLevel as string;
  }

  it("accepts them as 'settings'", async () => {
    await h.createSite({ settings: JSON.stringify({ logLevel: "FINE", maxLogFileAge: 30 }) });
    expect(await logLevel()).toBe("FINE");
  });

  it("accepts them as 'logsSettings'", async () => {
    await h.createSite({ logsSettings: JSON.stringify({ logLevel: "SEVERE" }) });
    expect(await logLevel()).toBe("SEVERE");
  });

  it("accepts both names when they carry the same values", async () => {
    const same = JSON.stringify({ logLevel: "DEBUG" });
    await h.createSite({ settings: same, logsSettings: same });
    expect(await logLevel()).toBe("DEBUG");
  });

  it("refuses 'settings' and 'logsSettings' with different values, naming both", async () => {
    const answer = await h.admin("createNewSite", {
      ...SITE_ADMIN,
      settings: JSON.stringify({ logLevel: "INFO" }),
      logsSettings: JSON.stringify({ logLevel: "SEVERE" }),
    });
    expect(answer.json.status).toBe("error");
    expect(answer.json.messages.join(" ")).toMatch(/'settings'.*'logsSettings'/);
    expect((await h.adminGet("/?f=json")).json.code).not.toBe(499);
  });

  it("names the field of an unknown log level", async () => {
    const answer = await h.admin("createNewSite", {
      ...SITE_ADMIN,
      logsSettings: JSON.stringify({ logLevel: "CHATTY" }),
    });
    expect(answer.json.messages.join(" ")).toContain("logsSettings.logLevel");
  });
});

describe("a failing site creation", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("leaves the machine in no site, and the admin root's error carries the failure message", async () => {
    h = await Harness.start();
    h.emu.failNextCreate("Failed to create the site. The machine does not have a valid license.");
    const answer = await h.admin("createNewSite", SITE_ADMIN);
    expect(answer.json).toMatchObject({ status: "error", code: 500 });
    expect(answer.json.messages.join(" ")).toContain("does not have a valid license");

    const root = await h.adminGet("/?f=json");
    expect([498, 499]).not.toContain(root.json.code);
    expect(root.json.messages.join(" ")).toContain("not participating in any Site");
    expect(root.json.messages.join(" ")).toContain("does not have a valid license");
    expect(await health(h)).toEqual(UNHEALTHY);
    expect((await h.admin("generateToken", SITE_ADMIN)).json.status).toBe("error");
    expect(h.emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 0 });

    // Only the next creation fails: a second attempt succeeds and clears the message.
    await h.createSite();
    expect((await h.adminGet("/?f=json")).json.code).toBe(499);
  });

  it("with runAsync reports progress first, then the failure on the admin root", async () => {
    h = await Harness.start({
      failCreate:
        "Failed to create the site. The specified configuration store location is not accessible.",
    });
    const answer = await h.admin("createNewSite", { ...SITE_ADMIN, runAsync: "true" });
    expect(answer.json.status).toBe("success");
    expect((await h.adminGet("/?f=json")).json.messages.join(" ")).toContain("in progress");
    await h.waitForSite();
    const root = await h.adminGet("/?f=json");
    expect(root.json.messages.join(" ")).toContain(
      "configuration store location is not accessible",
    );
  });
});

describe("createNewSite on a machine already in a site", () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it("answers 499 without a token and 'already participates in a site' with an admin token", async () => {
    h = await Harness.start({ machineName: "mission-c" });
    await h.createSite();
    const anonymous = await h.admin("createNewSite", { username: "other", password: "other-pw" });
    expect(anonymous.json).toMatchObject({ status: "error", code: 499 });
    const token = await h.adminToken();
    const admin = await h.admin("createNewSite", {
      username: "other",
      password: "other-pw",
      token,
    });
    expect(admin.json.status).toBe("error");
    expect([498, 499]).not.toContain(admin.json.code);
    expect(admin.json.messages.join(" ")).toContain(
      "machine 'mission-c' already participates in a site",
    );
    // The first administrator is still the one.
    expect(typeof (await h.adminToken())).toBe("string");
  });

  it("creates one site from two concurrent calls", async () => {
    h = await Harness.start({ createDelayMs: 300 });
    const [a, b] = await Promise.all([
      h.admin("createNewSite", SITE_ADMIN),
      h.admin("createNewSite", { username: "second-admin", password: "second-pw" }),
    ]);
    const statuses = [a.json.status, b.json.status].sort();
    expect(statuses).toEqual(["error", "success"]);
    const loser = a.json.status === "error" ? a : b;
    expect(loser.json.code).toBe(499);
    expect(h.emu.stats()).toMatchObject({ createNewSiteRequests: 2, sitesCreated: 1 });
  });
});

describe("generateToken (admin)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start({ createDelayMs: 0 });
    await h.createSite();
  });
  afterAll(async () => {
    await h.close();
  });

  it("refuses a wrong password in the admin error format", async () => {
    const answer = await h.admin("generateToken", {
      username: SITE_ADMIN.username,
      password: "wrong",
    });
    expect(answer.status).toBe(200);
    expect(answer.json.status).toBe("error");
    expect(answer.json.messages.join(" ")).toContain("Invalid username or password");
  });

  it("issues tokens that expire after 'expiration' minutes (60 by default, at most 525600)", async () => {
    const now = Date.now();
    const byDefault = await h.admin("generateToken", SITE_ADMIN);
    expect(byDefault.json.expires).toBeGreaterThan(now + 59 * 60_000);
    expect(byDefault.json.expires).toBeLessThan(now + 61 * 60_000);
    const short = await h.admin("generateToken", { ...SITE_ADMIN, expiration: "5" });
    expect(short.json.expires).toBeLessThan(now + 6 * 60_000);
    const huge = await h.admin("generateToken", { ...SITE_ADMIN, expiration: "99999999" });
    expect(huge.json.expires).toBeLessThan(now + 525601 * 60_000);
  });

  it("is also served at /arcgis/tokens/generateToken", async () => {
    const url = h.emu.adminUrl.replace("/arcgis/admin", "/arcgis/tokens/generateToken");
    const answer = await send(h.agent, "POST", url, { form: { ...SITE_ADMIN, f: "json" } });
    expect(typeof answer.json.token).toBe("string");
  });
});

describe("site resources", () => {
  let h: Harness;
  let token: string;
  beforeEach(async () => {
    h = await Harness.start({ createDelayMs: 0, machineName: "mission-d" });
    await h.createSite();
    token = await h.adminToken();
  });
  afterEach(async () => {
    await h.close();
  });

  it("logs/settings/edit changes the log settings and names a bad field", async () => {
    const edit = await h.admin("logs/settings/edit", {
      token,
      logLevel: "VERBOSE",
      maxLogFileAge: "7",
    });
    expect(edit.json).toEqual({ status: "success" });
    const read = await h.adminGet(`/logs/settings?f=json&token=${token}`);
    expect(read.json.settings).toMatchObject({ logLevel: "VERBOSE", maxLogFileAge: 7 });
    const bad = await h.admin("logs/settings/edit", { token, logLevel: "LOUD" });
    expect(bad.json.status).toBe("error");
    expect(bad.json.messages.join(" ")).toContain("logLevel");
  });

  it("machines/<name> describes the registered machine", async () => {
    const machine = await h.adminGet(`/machines/mission-d?f=json&token=${token}`);
    expect(machine.json).toMatchObject({ machineName: "mission-d", configuredState: "STARTED" });
    const unknown = await h.adminGet(`/machines/elsewhere?f=json&token=${token}`);
    expect(unknown.json.code).toBe(404);
  });

  it("deleteSite leaves the machine in no site, invalidates the site's tokens, and a new site can be created", async () => {
    const answer = await h.admin("deleteSite", { token });
    expect(answer.json).toEqual({ status: "success" });
    const root = await h.adminGet("/?f=json");
    expect(root.json.messages.join(" ")).toContain("not participating in any Site");
    expect(await health(h)).toEqual(UNHEALTHY);
    await h.createSite();
    expect((await h.adminGet(`/?f=json&token=${token}`)).json.code).toBe(498);
  });

  it("operations that change the site must be POSTed", async () => {
    const answer = await h.adminGet(`/deleteSite?f=json&token=${token}`);
    expect(answer.json.code).toBe(405);
    expect((await h.adminGet(`/?f=json&token=${token}`)).json.resources).toBeDefined();
  });
});

/**
 * ArcGIS Server's health check when the site is not ready: its docs say only "other than
 * HTTP 200"; 503 with success false is the emulator's choice (docs/emulator.md).
 */
const UNHEALTHY = { status: 503, body: { success: false } };

async function health(h: Harness): Promise<{ status: number; body: unknown }> {
  const answer = await send(h.agent, "GET", `${h.emu.healthUrl}?f=json`);
  return { status: answer.status, body: answer.json };
}

async function send200(h: Harness, url: string): Promise<Answer["json"]> {
  const answer = await send(h.agent, "GET", url);
  expect(answer.status).toBe(200);
  return answer.json;
}

import {
  closeDispatchers,
  createNewSite,
  deleteSite,
  exportSite,
  getLogSettings,
  healthCheck,
  listMachines,
  siteStatus,
} from "../../provider/client";
import {
  ADMIN_ORIGIN,
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  ADMIN_URL,
  AdminRootWithoutSecurityAnswer,
  ConfigStoreNotAccessibleAnswer,
  ExportedForDownloadAnswer,
  ExportedToFolderAnswer,
  HealthyAnswer,
  InvalidTokenAnswer,
  LogSettingsAnswer,
  MachinesAnswer,
  NotParticipatingAnswer,
  ProxyBadGatewayPage,
  SharingInvalidTokenAnswer,
  SharingTokenRequiredAnswer,
  SiteAlreadyExistsAnswer,
  SiteCreatedAnswer,
  TokenRequiredAnswer,
  WebAdaptorLoginPage,
} from "../../tools/harness/server-answers";
import {
  adminSessionSetup,
  expectNoTokenInAnyUrl,
  failure,
  json,
  mockAgent,
  recordedCalls,
  startsWith,
} from "../../tools/harness/mock-agent";
import { closedPort } from "../../tools/harness/servers";

const ADMIN_PATH = new URL(ADMIN_URL).pathname;

afterAll(() => closeDispatchers());

describe("siteStatus()", () => {
  function answering(status: number, body: unknown, headers = json.headers) {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/?f=json`, method: "GET" })
      .reply(status, typeof body === "string" ? body : JSON.stringify(body), { headers });
    return { agent, status: siteStatus(ADMIN_URL, { dispatcher: agent }) };
  }

  it("treats a 499 answer as an existing site, telling which error format it came in", async () => {
    const { agent, status } = answering(200, TokenRequiredAnswer);
    await expect(status).resolves.toEqual({ state: "in-site", errorFormat: "status" });
    await expect(answering(200, SharingTokenRequiredAnswer).status).resolves.toEqual({
      state: "in-site",
      errorFormat: "error",
    });
    const [call] = recordedCalls(agent);
    expect(call!.headers["x-esri-authorization"]).toBeUndefined();
    expect(call!.query).toEqual({ f: "json" });
  });

  it("treats a 498 answer (either format) as an existing site", async () => {
    await expect(answering(200, InvalidTokenAnswer).status).resolves.toEqual({
      state: "in-site",
      errorFormat: "status",
    });
    await expect(answering(200, SharingInvalidTokenAnswer).status).resolves.toEqual({
      state: "in-site",
      errorFormat: "error",
    });
  });

  it("treats another error with HTTP 200 as no site, keeping the server's message and format", async () => {
    await expect(answering(200, NotParticipatingAnswer).status).resolves.toEqual({
      state: "no-site",
      message: NotParticipatingAnswer.messages[0],
      serverCode: 500,
      errorFormat: "status",
    });
    await expect(
      answering(200, { error: { code: 500, message: "Not in a site." } }).status,
    ).resolves.toEqual({
      state: "no-site",
      message: "Not in a site.",
      serverCode: 500,
      errorFormat: "error",
    });
  });

  it("treats a JSON error with an HTTP status other than 200, and a refusal, as unreachable", async () => {
    const json503 = await answering(503, { status: "error", code: 503, messages: ["Down."] })
      .status;
    expect(json503).toMatchObject({ state: "unreachable", error: { httpStatus: 503 } });
    const json500 = await answering(500, { error: { code: 500, message: "Oops." } }).status;
    expect(json500).toMatchObject({ state: "unreachable", error: { httpStatus: 500 } });
    const denied = await answering(200, { error: { code: 403, message: "Denied." } }).status;
    expect(denied).toMatchObject({
      state: "unreachable",
      error: { code: "AUTH", serverCode: 403 },
    });
  });

  it("treats a success without token as a site with security off", async () => {
    await expect(answering(200, AdminRootWithoutSecurityAnswer).status).resolves.toEqual({
      state: "in-site",
    });
  });

  it("treats a proxy's 502 page and an HTML login page as unreachable", async () => {
    const proxy = await answering(502, ProxyBadGatewayPage, { "content-type": "text/html" }).status;
    expect(proxy).toMatchObject({ state: "unreachable", error: { code: "HTTP", httpStatus: 502 } });
    const login = await answering(200, WebAdaptorLoginPage, { "content-type": "text/html" }).status;
    expect(login).toMatchObject({ state: "unreachable", error: { code: "BAD_RESPONSE" } });
  });

  it("treats a refused connection as unreachable, without retrying", async () => {
    const port = await closedPort();
    const status = await siteStatus(`http://127.0.0.1:${port}/arcgis/admin`);
    expect(status.state).toBe("unreachable");
    expect(status.state === "unreachable" && status.error.code).toBe("NETWORK");
    expect(status.state === "unreachable" && status.error.message).toContain("ECONNREFUSED");
  });

  it("does not retry inside (callers poll)", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/?f=json`, method: "GET" })
      .reply(503, "")
      .times(3);
    await siteStatus(ADMIN_URL, { dispatcher: agent });
    expect(recordedCalls(agent)).toHaveLength(1);
  });
});

describe("createNewSite()", () => {
  const params = {
    username: "siteadmin",
    password: ADMIN_PASSWORD,
    configStoreConnection: {
      type: "FILESYSTEM",
      connectionString: "/arcgis/config-store",
      localRepositoryPath: "/arcgis/local",
    },
    directories: [
      {
        name: "arcgisjobs",
        physicalPath: "/arcgis/directories/arcgisjobs",
        directoryType: "JOBS",
        cleanupMode: "NONE",
        maxFileAge: 0,
        description: "Jobs",
      },
    ],
    logSettings: {
      logLevel: "INFO",
      logDir: "/arcgis/logs",
      maxErrorReportsCount: 10,
      maxLogFileAge: 90,
    },
    runAsync: false,
  };

  it("POSTs ArcGIS Server's form without a token: JSON objects, directories wrapped, log settings as settings", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/createNewSite`, method: "POST" })
      .reply(200, SiteCreatedAnswer, json);

    await expect(
      createNewSite(ADMIN_URL, { ...params, serverType: "arcgis-server" }, { dispatcher: agent }),
    ).resolves.toEqual(SiteCreatedAnswer);

    const [call] = recordedCalls(agent);
    expect(call!.form).toEqual({
      username: "siteadmin",
      password: ADMIN_PASSWORD,
      configStoreConnection: JSON.stringify(params.configStoreConnection),
      directories: JSON.stringify({ directories: params.directories }),
      settings: JSON.stringify(params.logSettings),
      runAsync: "false",
      f: "json",
    });
    expect(call!.form["token"]).toBeUndefined();
    expect(call!.headers["x-esri-authorization"]).toBeUndefined();
  });

  it("POSTs Mission Server's form by default: Carbon config store, bare directory array, logsSettings, async", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/createNewSite`, method: "POST" })
      .reply(200, SiteCreatedAnswer, json);
    const { localRepositoryPath: _l, ...store } = params.configStoreConnection;
    await createNewSite(
      ADMIN_URL,
      {
        ...params,
        configStoreConnection: { ...store, type: "AZURE", username: "acct", connectionSecret: "k" },
        directories: [{ name: "j", physicalPath: "/j", directoryType: "JOBS" }],
      },
      { dispatcher: agent },
    );
    const form = recordedCalls(agent)[0]!.form;
    expect(JSON.parse(form["configStoreConnection"]!)).toEqual({
      configPersistenceType: "AZURE",
      connectionString: "/arcgis/config-store",
      username: "acct",
      password: "k",
      className: "com.esri.arcgis.carbon.persistence.impl.azure.AzureConfigPersistence",
    });
    expect(JSON.parse(form["directories"]!)).toEqual([{ name: "j", path: "/j", type: "JOBS" }]);
    expect(JSON.parse(form["logsSettings"]!)).toEqual(params.logSettings);
    expect(form["async"]).toBe("false");
    expect(form).not.toHaveProperty("settings");
    expect(form).not.toHaveProperty("runAsync");
  });

  it("refuses fields the product's form has no place for instead of dropping them", async () => {
    await expect(
      createNewSite(ADMIN_URL, { ...params, serverType: "mission-server" }),
    ).rejects.toThrow(
      /configStoreConnection.localRepositoryPath: Mission Server's createNewSite has no localRepositoryPath.*directories\[0\]\.cleanupMode/,
    );
  });

  it("leaves out optional parameters that are not given", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/createNewSite`, method: "POST" })
      .reply(200, SiteCreatedAnswer, json);
    await createNewSite(ADMIN_URL, { username: "a", password: "b" }, { dispatcher: agent });
    expect(recordedCalls(agent)[0]!.form).toEqual({
      username: "a",
      password: "b",
      async: "false",
      f: "json",
    });
  });

  it("reports the server's failure with its message, never the password", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/createNewSite`, method: "POST" })
      .reply(200, ConfigStoreNotAccessibleAnswer, json);
    const e = await failure(
      createNewSite(ADMIN_URL, { ...params, serverType: "arcgis-server" }, { dispatcher: agent }),
    );
    expect(e.message).toBe(
      "createNewSite on https://gis.example.com:20443/arcgis/admin failed (code 500): The specified configuration store location is not accessible.",
    );
    expect(JSON.stringify(e)).not.toContain(ADMIN_PASSWORD);
  });

  it("is never re-sent, even on a 502 from a load balancer", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/createNewSite`, method: "POST" })
      .reply(502, ProxyBadGatewayPage)
      .times(3);
    const e = await failure(
      createNewSite(ADMIN_URL, { ...params, serverType: "arcgis-server" }, { dispatcher: agent }),
    );
    expect(e.httpStatus).toBe(502);
    expect(recordedCalls(agent)).toHaveLength(1);
  });

  it("reports a site that already exists as SERVER with the server's code", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/createNewSite`, method: "POST" })
      .reply(200, SiteAlreadyExistsAnswer, json);
    const e = await failure(
      createNewSite(ADMIN_URL, { ...params, serverType: "arcgis-server" }, { dispatcher: agent }),
    );
    expect(e).toMatchObject({ code: "SERVER", serverCode: 500 });
  });
});

describe("healthCheck()", () => {
  it("GETs {server_root}/rest/info/healthCheck, the admin URL without /admin", async () => {
    const agent = mockAgent();
    agent
      .get("https://h:6443")
      .intercept({ path: "/arcgis/rest/info/healthCheck?f=json", method: "GET" })
      .reply(200, HealthyAnswer, json);
    await expect(
      healthCheck("https://h:6443/arcgis/admin/", {
        dispatcher: agent,
        serverType: "arcgis-server",
      }),
    ).resolves.toEqual({ state: "healthy", reportsNoSite: false, raw: HealthyAnswer });
  });

  it("GETs Mission Server's rest/healthcheck, and reads success false there as its documented no-site signal", async () => {
    const agent = mockAgent();
    const pool = agent.get("https://h:20443");
    pool
      .intercept({ path: "/arcgis/rest/healthcheck?f=json", method: "GET" })
      .reply(200, { success: false }, json);
    await expect(
      healthCheck("https://h:20443/arcgis/admin", { dispatcher: agent }),
    ).resolves.toEqual({ state: "unhealthy", reportsNoSite: true, raw: { success: false } });
  });

  it('sends Video Server\'s health check a token in the header, and reads success "true"', async () => {
    const agent = mockAgent();
    agent
      .get("https://h:21443")
      .intercept({ path: "/arcgis/rest/info/healthcheck?f=json", method: "GET" })
      .reply(200, { success: "true" }, json);
    const r = await healthCheck("https://h:21443/arcgis/admin", {
      dispatcher: agent,
      serverType: "video-server",
      token: ADMIN_TOKEN,
    });
    expect(r.state).toBe("healthy");
    expect(recordedCalls(agent)[0]!.headers["x-esri-authorization"]).toBe(`Bearer ${ADMIN_TOKEN}`);
  });

  it("reports a health check that answers 404 as absent (the caller falls back)", async () => {
    const agent = mockAgent();
    agent
      .get("https://h:20443")
      .intercept({ path: "/arcgis/rest/healthcheck?f=json" })
      .reply(404, "<html><title>Not Found</title></html>", {
        headers: { "content-type": "text/html" },
      });
    const r = await healthCheck("https://h:20443/arcgis/admin", { dispatcher: agent });
    expect(r.state).toBe("absent");
  });

  it("reports unhealthy for success: false, an ArcGIS error or HTTP 503", async () => {
    const agent = mockAgent();
    const pool = agent.get("https://h:6443");
    const path = "/arcgis/rest/info/healthCheck?f=json";
    pool.intercept({ path }).reply(200, { success: false }, json);
    pool
      .intercept({ path })
      .reply(200, { status: "error", messages: ["Not ready"], code: 500 }, json);
    pool.intercept({ path }).reply(503, "");
    for (let i = 0; i < 3; i++) {
      const r = await healthCheck("https://h:6443/arcgis/admin", {
        dispatcher: agent,
        serverType: "arcgis-server",
      });
      expect(r).toMatchObject({ state: "unhealthy", reportsNoSite: false });
    }
  });

  it("throws failures that waiting will not fix", async () => {
    const agent = mockAgent();
    agent
      .get("https://h:6443")
      .intercept({ path: "/arcgis/rest/info/healthCheck?f=json" })
      .reply(200, WebAdaptorLoginPage, { headers: { "content-type": "text/html" } });
    await expect(
      healthCheck("https://h:6443/arcgis/admin", {
        dispatcher: agent,
        serverType: "arcgis-server",
      }),
    ).rejects.toMatchObject({ code: "BAD_RESPONSE" });
  });
});

describe("exportSite()", () => {
  it("POSTs location with the token in the body and returns the written file", async () => {
    const { agent, pool, session, calls } = adminSessionSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(200, ExportedToFolderAnswer, json);
    await expect(exportSite(session, { location: "/backups" })).resolves.toEqual({
      location: ExportedToFolderAnswer.location,
    });
    expect(calls("exportSite")[0]!.form).toEqual({
      location: "/backups",
      f: "json",
      token: ADMIN_TOKEN,
    });
    expectNoTokenInAnyUrl(agent, [ADMIN_TOKEN]);
  });

  it("omits location when not given and returns the download URL", async () => {
    const { pool, session, calls } = adminSessionSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(200, ExportedForDownloadAnswer, json);
    await expect(exportSite(session)).resolves.toEqual({
      location: ExportedForDownloadAnswer.location,
    });
    expect(calls("exportSite")[0]!.form).toEqual({ f: "json", token: ADMIN_TOKEN });
  });

  it("reports an answer without location as BAD_RESPONSE", async () => {
    const { pool, session } = adminSessionSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(200, { status: "success" }, json);
    const e = await failure(exportSite(session));
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain("location");
  });

  it("is never re-sent on 502", async () => {
    const { pool, session, calls } = adminSessionSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(502, ProxyBadGatewayPage)
      .times(3);
    await failure(exportSite(session));
    expect(calls("exportSite")).toHaveLength(1);
  });
});

describe("deleteSite()", () => {
  it("POSTs deleteSite once, never re-sent on 502", async () => {
    const { pool, session, calls } = adminSessionSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/deleteSite`, method: "POST" })
      .reply(502, "")
      .times(3);
    const e = await failure(deleteSite(session));
    expect(e.code).toBe("HTTP");
    expect(calls("deleteSite")).toHaveLength(1);
    expect(calls("deleteSite")[0]!.form["token"]).toBe(ADMIN_TOKEN);
  });

  it("returns the server's answer", async () => {
    const { pool, session } = adminSessionSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/deleteSite`, method: "POST" })
      .reply(200, { status: "success" }, json);
    await expect(deleteSite(session)).resolves.toEqual({ status: "success" });
  });
});

describe("listMachines()", () => {
  it("GETs machines with the token in the header and is lenient about the entries", async () => {
    const { agent, pool, session, calls } = adminSessionSetup();
    pool
      .intercept({ path: startsWith(`${ADMIN_PATH}/machines`), method: "GET" })
      .reply(200, MachinesAnswer, json);
    await expect(listMachines(session)).resolves.toEqual(["GIS1.EXAMPLE.COM", "GIS2.EXAMPLE.COM"]);
    expect(calls("machines")[0]!.headers["x-esri-authorization"]).toBe(`Bearer ${ADMIN_TOKEN}`);
    expectNoTokenInAnyUrl(agent, [ADMIN_TOKEN]);
  });

  it("returns no names when the answer has no machines list", async () => {
    const { pool, session } = adminSessionSetup();
    pool
      .intercept({ path: startsWith(`${ADMIN_PATH}/machines`), method: "GET" })
      .reply(200, {}, json);
    await expect(listMachines(session)).resolves.toEqual([]);
  });

  it("retries a 503 because it is a read", async () => {
    const { pool, session, calls } = adminSessionSetup();
    pool.intercept({ path: startsWith(`${ADMIN_PATH}/machines`) }).reply(503, "");
    pool.intercept({ path: startsWith(`${ADMIN_PATH}/machines`) }).reply(200, MachinesAnswer, json);
    await expect(listMachines(session)).resolves.toHaveLength(2);
    expect(calls("machines")).toHaveLength(2);
  });
});

describe("getLogSettings()", () => {
  it("GETs logs/settings and returns the settings member", async () => {
    const { pool, session } = adminSessionSetup();
    pool
      .intercept({ path: startsWith(`${ADMIN_PATH}/logs/settings`), method: "GET" })
      .reply(200, LogSettingsAnswer, json);
    await expect(getLogSettings(session)).resolves.toEqual(LogSettingsAnswer.settings);
  });
});

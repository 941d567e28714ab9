import { createServer } from "node:http";
import { arcgisRequest, closeDispatchers } from "../../provider/client";
import {
  ADMIN_ORIGIN,
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  ADMIN_URL,
  CollaborationDoesNotExistAnswer,
  EchoingErrorAnswer,
  FailedWithoutCodeAnswer,
  FailureStatusAnswer,
  MalformedJsonParameterAnswer,
  ProxyBadGatewayPage,
  SharingInvalidTokenAnswer,
  SiteAlreadyExistsAnswer,
  TokenRequiredAnswer,
  TruncatedJson,
  WebAdaptorLoginPage,
} from "../../tools/harness/server-answers";
import { closeServer, listen } from "../../tools/harness/servers";
import {
  expectNoTokenInAnyUrl,
  failure,
  json,
  mockAgent,
  recordedCalls,
} from "../../tools/harness/mock-agent";

const ADMIN_PATH = new URL(ADMIN_URL).pathname;

afterAll(() => closeDispatchers());

describe("arcgisRequest() on the wire", () => {
  it("POSTs a form with f=json, JSON-encoded objects, text scalars, no undefined, and the token in the body", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/createNewSite`, method: "POST" })
      .reply(200, { status: "success" }, json);

    await arcgisRequest({
      url: `${ADMIN_URL}/createNewSite`,
      operation: "createNewSite",
      params: {
        username: "siteadmin",
        configStoreConnection: { type: "FILESYSTEM", connectionString: "/data/config-store" },
        directories: { directories: [{ name: "arcgisjobs", directoryType: "JOBS" }] },
        runAsync: false,
        maxFileAge: 0,
        skipped: undefined,
        alsoSkipped: null,
        f: "html",
      },
      token: ADMIN_TOKEN,
      referer: "my-referer",
      dispatcher: agent,
    });

    const [call] = recordedCalls(agent);
    expect(call!.method).toBe("POST");
    expect(call!.form).toEqual({
      username: "siteadmin",
      configStoreConnection: '{"type":"FILESYSTEM","connectionString":"/data/config-store"}',
      directories: '{"directories":[{"name":"arcgisjobs","directoryType":"JOBS"}]}',
      runAsync: "false",
      maxFileAge: "0",
      f: "json",
      token: ADMIN_TOKEN,
    });
    expect(call!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(call!.headers["referer"]).toBe("my-referer");
    expect(call!.headers["accept"]).toBe("application/json");
    expect(call!.headers["x-esri-authorization"]).toBeUndefined();
    expect(call!.fullUrl).toBe(`${ADMIN_URL}/createNewSite`);
    expectNoTokenInAnyUrl(agent, [ADMIN_TOKEN]);
  });

  it("sends a GET's token in the X-Esri-Authorization header and its parameters, with f=json, in the URL", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: (p) => p.startsWith(`${ADMIN_PATH}/machines`), method: "GET" })
      .reply(200, { machines: [] }, json);

    await arcgisRequest({
      url: `${ADMIN_URL}/machines`,
      operation: "machines",
      method: "GET",
      params: { detail: true },
      token: ADMIN_TOKEN,
      referer: "my-referer",
      dispatcher: agent,
    });

    const [call] = recordedCalls(agent);
    expect(call!.query).toEqual({ detail: "true", f: "json" });
    expect(call!.headers["x-esri-authorization"]).toBe(`Bearer ${ADMIN_TOKEN}`);
    expect(call!.headers["referer"]).toBe("my-referer");
    expect(call!.form).toEqual({});
    expectNoTokenInAnyUrl(agent, [ADMIN_TOKEN]);
  });

  it("returns the JSON object of a successful answer", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(200, { status: "success", location: "/x.agssite" }, json);
    await expect(
      arcgisRequest({ url: `${ADMIN_URL}/exportSite`, operation: "exportSite", dispatcher: agent }),
    ).resolves.toEqual({ status: "success", location: "/x.agssite" });
  });
});

describe("arcgisRequest() with ArcGIS error bodies", () => {
  function answering(status: number, body: unknown, headers = json.headers) {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/op`, method: "POST" })
      .reply(status, typeof body === "string" ? body : JSON.stringify(body), { headers });
    return arcgisRequest({
      url: `${ADMIN_URL}/op`,
      operation: "op",
      dispatcher: agent,
      token: ADMIN_TOKEN,
      secrets: [ADMIN_PASSWORD],
    });
  }

  it.each([
    ["status error with code", SiteAlreadyExistsAnswer, "SERVER", 500],
    ["status failed without code", FailedWithoutCodeAnswer, "SERVER", undefined],
    ["status failure with code 403", FailureStatusAnswer, "AUTH", 403],
    ["admin 499 token required", TokenRequiredAnswer, "AUTH", 499],
    ["sharing 498 invalid token", SharingInvalidTokenAnswer, "AUTH", 498],
    ["sharing 400 with details", CollaborationDoesNotExistAnswer, "SERVER", 400],
    ["malformed JSON parameter", MalformedJsonParameterAnswer, "SERVER", 500],
  ])("reports %s (HTTP 200) as an error", async (_name, body, code, serverCode) => {
    const e = await failure(answering(200, body));
    expect(e.name).toBe("ArcGISRequestError");
    expect(e.code).toBe(code);
    expect(e.serverCode).toBe(serverCode);
    expect(e.httpStatus).toBe(200);
    expect(e.messages.length).toBeGreaterThan(0);
    for (const m of e.messages) expect(e.message).toContain(m);
    expect(e.message).toMatch(/^op on https:\/\/gis\.example\.com:20443\/arcgis\/admin failed/);
  });

  it("keeps every message of the sharing format: message and details", async () => {
    const e = await failure(answering(200, CollaborationDoesNotExistAnswer));
    expect(e.messages).toEqual([
      CollaborationDoesNotExistAnswer.error.message,
      ...CollaborationDoesNotExistAnswer.error.details,
    ]);
  });

  it("says so when the error body has no message", async () => {
    const e = await failure(answering(200, { status: "error" }));
    expect(e.code).toBe("SERVER");
    expect(e.message).toContain("without a message");
  });

  it("prefers the ArcGIS error body over the HTTP status", async () => {
    const e = await failure(answering(500, SiteAlreadyExistsAnswer));
    expect(e.code).toBe("SERVER");
    expect(e.serverCode).toBe(500);
    expect(e.httpStatus).toBe(500);
  });

  it("never shows the password or token, even when the server echoes them", async () => {
    const e = await failure(answering(200, EchoingErrorAnswer));
    for (const text of [e.message, ...e.messages, String(e), JSON.stringify(e)]) {
      expect(text).not.toContain(ADMIN_PASSWORD);
      expect(text).not.toContain(encodeURIComponent(ADMIN_PASSWORD));
      expect(text).not.toContain(ADMIN_TOKEN);
    }
  });

  it("says an HTML page came back, with its title and HTTP status", async () => {
    const e = await failure(answering(200, WebAdaptorLoginPage, { "content-type": "text/html" }));
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain('an HTML page (HTTP 200): "ArcGIS Web Adaptor - Sign In"');
  });

  it("says an empty body came back", async () => {
    const e = await failure(answering(200, ""));
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain("an empty body (HTTP 200)");
  });

  it("says invalid JSON came back, quoting its start", async () => {
    const e = await failure(answering(200, TruncatedJson, { "content-type": "text/plain" }));
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain(`invalid JSON (HTTP 200): "${TruncatedJson}"`);
  });

  it("says JSON that is not an object came back", async () => {
    const e = await failure(answering(200, "[1,2]"));
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain("JSON that is not an object (HTTP 200)");
  });

  it("reports a proxy's 502 page as HTTP 502, saying what came back", async () => {
    const e = await failure(answering(502, ProxyBadGatewayPage, { "content-type": "text/html" }));
    expect(e.code).toBe("HTTP");
    expect(e.httpStatus).toBe(502);
    expect(e.message).toContain('an HTML page (HTTP 502): "502 Bad Gateway"');
  });

  it("reports HTTP 500 with an empty body as HTTP", async () => {
    const e = await failure(answering(500, ""));
    expect(e.code).toBe("HTTP");
    expect(e.message).toContain("an empty body (HTTP 500)");
  });

  it.each([401, 403])("reports HTTP %i without an ArcGIS body as AUTH", async (status) => {
    const e = await failure(answering(status, "Unauthorized", { "content-type": "text/plain" }));
    expect(e.code).toBe("AUTH");
    expect(e.httpStatus).toBe(status);
  });

  it("reports a redirect as REDIRECT with its target (without query) instead of following it", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/op`, method: "POST" })
      .reply(302, "", { headers: { location: "https://other.example.com/arcgis/admin/op?x=1" } });
    const e = await failure(
      arcgisRequest({ url: `${ADMIN_URL}/op`, operation: "op", dispatcher: agent }),
    );
    expect(e.code).toBe("REDIRECT");
    expect(e.httpStatus).toBe(302);
    expect(e.message).toContain(
      "redirected (HTTP 302) to https://other.example.com/arcgis/admin/op (another host: other.example.com); it was not followed",
    );
    expect(e.message).not.toContain("x=1");
  });
});

describe("arcgisRequest() retries", () => {
  const fast = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 };

  function machinesAgent() {
    const agent = mockAgent();
    const pool = agent.get(ADMIN_ORIGIN);
    const path = (p: string) => p.startsWith(`${ADMIN_PATH}/machines`);
    return { agent, pool, path };
  }

  function getMachines(agent: ReturnType<typeof mockAgent>, retry: object | false | undefined) {
    return arcgisRequest({
      url: `${ADMIN_URL}/machines`,
      operation: "machines",
      method: "GET",
      dispatcher: agent,
      ...(retry === undefined ? {} : { retry }),
    });
  }

  it("retries 502/503/504 and a refused connection, then succeeds", async () => {
    const { agent, pool, path } = machinesAgent();
    pool.intercept({ path }).reply(502, ProxyBadGatewayPage);
    pool
      .intercept({ path })
      .replyWithError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    pool.intercept({ path }).reply(200, { machines: [] }, json);
    await expect(getMachines(agent, { ...fast, maxAttempts: 4 })).resolves.toEqual({
      machines: [],
    });
    expect(recordedCalls(agent)).toHaveLength(3);
  });

  it("gives up after maxAttempts and reports the last failure", async () => {
    const { agent, pool, path } = machinesAgent();
    pool.intercept({ path }).reply(503, "").times(5);
    const e = await failure(getMachines(agent, fast));
    expect(e.code).toBe("HTTP");
    expect(e.httpStatus).toBe(503);
    expect(recordedCalls(agent)).toHaveLength(3);
  });

  it("does not retry a connection reset without a retry policy", async () => {
    const { agent, pool, path } = machinesAgent();
    pool
      .intercept({ path })
      .replyWithError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))
      .times(2);
    const e = await failure(getMachines(agent, undefined));
    expect(e.code).toBe("NETWORK");
    expect(e.message).toContain("ECONNRESET");
    expect(recordedCalls(agent)).toHaveLength(1);
  });

  it("does not retry when told retry: false", async () => {
    const { agent, pool, path } = machinesAgent();
    pool.intercept({ path }).reply(504, "").times(2);
    await failure(getMachines(agent, false));
    expect(recordedCalls(agent)).toHaveLength(1);
  });

  it("does not retry a server error that is not transient", async () => {
    const { agent, pool, path } = machinesAgent();
    pool.intercept({ path }).reply(200, SiteAlreadyExistsAnswer, json).times(3);
    const e = await failure(getMachines(agent, fast));
    expect(e.code).toBe("SERVER");
    expect(recordedCalls(agent)).toHaveLength(1);
  });
});

describe("arcgisRequest() against a real server", () => {
  let origin: string;
  let server: ReturnType<typeof createServer>;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith("/never")) return; // never answers
      if (req.url?.startsWith("/stall")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"status":');
        return; // the body never completes
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"status":"success"}');
    });
    ({ origin } = await listen(server));
  });

  afterAll(async () => {
    await closeServer(server);
  });

  it("reports TIMEOUT when no headers arrive within headersMs", async () => {
    const started = Date.now();
    const e = await failure(
      arcgisRequest({ url: `${origin}/never`, operation: "op", timeouts: { headersMs: 300 } }),
    );
    expect(e.code).toBe("TIMEOUT");
    expect(e.message).toContain("300 ms (timeouts.headersMs)");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("reports TIMEOUT when the body stalls longer than bodyMs", async () => {
    const e = await failure(
      arcgisRequest({ url: `${origin}/stall`, operation: "op", timeouts: { bodyMs: 300 } }),
    );
    expect(e.code).toBe("TIMEOUT");
    expect(e.message).toContain("timeouts.bodyMs");
  });

  it("reports ABORTED when the caller's signal fires", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const e = await failure(
      arcgisRequest({ url: `${origin}/never`, operation: "op", signal: controller.signal }),
    );
    expect(e.code).toBe("ABORTED");
  });

  it("reports ABORTED at once for an already aborted signal, even with retries", async () => {
    const e = await failure(
      arcgisRequest({
        url: `${origin}/ok`,
        operation: "op",
        signal: AbortSignal.abort(),
        retry: { baseDelayMs: 1 },
      }),
    );
    expect(e.code).toBe("ABORTED");
  });

  it("talks to a plain server through the default dispatcher", async () => {
    await expect(arcgisRequest({ url: `${origin}/ok`, operation: "op" })).resolves.toEqual({
      status: "success",
    });
  });
});

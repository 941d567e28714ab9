import { inspect } from "node:util";
import {
  DEFAULT_REFERER,
  TokenCache,
  createAdminSession,
  createPortalSession,
  generateToken,
} from "../../provider/client";
import {
  ADMIN_ORIGIN,
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  ADMIN_URL,
  BadLoginAnswer,
  FRESH_TOKEN,
  InvalidTokenAnswer,
  PORTAL_ORIGIN,
  SHARING_URL,
  SharingInvalidTokenAnswer,
  TokenRequiredAnswer,
  portalTokenAnswer,
  tokenAnswer,
} from "../../tools/harness/server-answers";
import {
  expectNoTokenInAnyUrl,
  failure,
  json,
  mockAgent,
  recordedCalls,
} from "../../tools/harness/mock-agent";

const ADMIN_PATH = new URL(ADMIN_URL).pathname;
const SHARING_PATH = new URL(SHARING_URL).pathname;
const HOUR = 60 * 60_000;

function adminSetup(now = Date.now) {
  const agent = mockAgent();
  const pool = agent.get(ADMIN_ORIGIN);
  const tokenCache = new TokenCache({ now });
  const session = createAdminSession({
    adminUrl: `${ADMIN_URL}/`,
    username: "siteadmin",
    password: ADMIN_PASSWORD,
    dispatcher: agent,
    tokenCache,
    retry: { baseDelayMs: 1 },
  });
  const tokenCalls = () => recordedCalls(agent).filter((c) => c.path.endsWith("/generateToken"));
  const opCalls = (op: string) => recordedCalls(agent).filter((c) => c.path.endsWith(`/${op}`));
  return { agent, pool, tokenCache, session, tokenCalls, opCalls };
}

function replyToken(
  pool: ReturnType<ReturnType<typeof mockAgent>["get"]>,
  token: string,
  expires: number,
) {
  pool
    .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
    .reply(200, tokenAnswer(token, expires), json);
}

describe("generateToken()", () => {
  it("POSTs the credentials with client=referer and the Referer header, and returns token and expiry", async () => {
    const agent = mockAgent();
    const expires = Date.now() + HOUR;
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(200, tokenAnswer(ADMIN_TOKEN, expires), json);

    const result = await generateToken({
      tokenUrl: `${ADMIN_URL}/generateToken`,
      username: "siteadmin",
      password: ADMIN_PASSWORD,
      referer: "my-referer",
      expirationMinutes: 30,
      dispatcher: agent,
    });

    expect(result).toEqual({ token: ADMIN_TOKEN, expires });
    const [call] = recordedCalls(agent);
    expect(call!.form).toEqual({
      username: "siteadmin",
      password: ADMIN_PASSWORD,
      client: "referer",
      referer: "my-referer",
      expiration: "30",
      f: "json",
    });
    expect(call!.headers["referer"]).toBe("my-referer");
    expect(call!.fullUrl).toBe(`${ADMIN_URL}/generateToken`);
  });

  it("accepts the portal's answer with ssl: true", async () => {
    const agent = mockAgent();
    agent
      .get(PORTAL_ORIGIN)
      .intercept({ path: `${SHARING_PATH}/generateToken`, method: "POST" })
      .reply(200, portalTokenAnswer("portal-token", 1_900_000_000_000), json);
    await expect(
      generateToken({
        tokenUrl: `${SHARING_URL}/generateToken`,
        username: "portaladmin",
        password: ADMIN_PASSWORD,
        referer: DEFAULT_REFERER,
        dispatcher: agent,
      }),
    ).resolves.toEqual({ token: "portal-token", expires: 1_900_000_000_000 });
  });

  it("computes the expiry from the requested lifetime when the answer has none", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(200, { token: ADMIN_TOKEN }, json);
    const before = Date.now();
    const { expires } = await generateToken({
      tokenUrl: `${ADMIN_URL}/generateToken`,
      username: "u",
      password: ADMIN_PASSWORD,
      referer: DEFAULT_REFERER,
      expirationMinutes: 10,
      dispatcher: agent,
    });
    expect(expires).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
  });

  it("fails without showing the password when the login is refused", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(200, BadLoginAnswer, json);
    const e = await failure(
      generateToken({
        tokenUrl: `${ADMIN_URL}/generateToken`,
        username: "u",
        password: ADMIN_PASSWORD,
        referer: DEFAULT_REFERER,
        dispatcher: agent,
      }),
    );
    expect(e.serverCode).toBe(400);
    expect(e.code).toBe("AUTH");
    expect(e.message).toContain("Invalid username or password.");
    expect(`${e.message} ${inspect(e)}`).not.toContain(ADMIN_PASSWORD);
  });

  it("reports an answer without a token as BAD_RESPONSE", async () => {
    const agent = mockAgent();
    agent
      .get(ADMIN_ORIGIN)
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(200, { expires: 1 }, json);
    const e = await failure(
      generateToken({
        tokenUrl: `${ADMIN_URL}/generateToken`,
        username: "u",
        password: ADMIN_PASSWORD,
        referer: DEFAULT_REFERER,
        dispatcher: agent,
      }),
    );
    expect(e.code).toBe("BAD_RESPONSE");
    expect(e.message).toContain("token");
  });
});

describe("AdminSession", () => {
  it("asks for one token for many calls and sends it in the body of a POST, with the default Referer everywhere", async () => {
    const { agent, pool, session, tokenCalls, opCalls } = adminSetup();
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    pool
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(200, { status: "success", location: "/x" }, json)
      .times(3);

    for (let i = 0; i < 3; i++) await session.call("exportSite", { location: "/x" });

    expect(tokenCalls()).toHaveLength(1);
    expect(tokenCalls()[0]!.form["referer"]).toBe(DEFAULT_REFERER);
    expect(opCalls("exportSite")).toHaveLength(3);
    for (const call of recordedCalls(agent)) expect(call.headers["referer"]).toBe(DEFAULT_REFERER);
    for (const call of opCalls("exportSite")) {
      expect(call.form).toEqual({ location: "/x", f: "json", token: ADMIN_TOKEN });
      expect(call.headers["x-esri-authorization"]).toBeUndefined();
    }
    expectNoTokenInAnyUrl(agent, [ADMIN_TOKEN]);
  });

  it("never serves a token obtained with one password to a session with another", async () => {
    const { agent, pool, tokenCache, session, tokenCalls } = adminSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(200, tokenAnswer(ADMIN_TOKEN, Date.now() + HOUR), json);
    pool
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(
        200,
        { error: { code: 400, message: "Unable to generate token.", details: [] } },
        json,
      );
    await session.token();
    const wrong = createAdminSession({
      adminUrl: `${ADMIN_URL}/`,
      username: "siteadmin",
      password: "not-the-password",
      dispatcher: agent,
      tokenCache,
    });
    await expect(wrong.token()).rejects.toMatchObject({ code: "AUTH" });
    expect(tokenCalls()).toHaveLength(2);
  });

  it("sends the token of a GET in the X-Esri-Authorization header", async () => {
    const { agent, pool, session } = adminSetup();
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    pool
      .intercept({ path: (p) => p.startsWith(`${ADMIN_PATH}/machines`), method: "GET" })
      .reply(200, { machines: [] }, json);

    await session.call("machines", {}, { method: "GET" });

    const get = recordedCalls(agent).find((c) => c.method === "GET")!;
    expect(get.headers["x-esri-authorization"]).toBe(`Bearer ${ADMIN_TOKEN}`);
    expect(get.query).toEqual({ f: "json" });
    expectNoTokenInAnyUrl(agent, [ADMIN_TOKEN]);
  });

  it("lets concurrent callers share one token request", async () => {
    const { pool, session, tokenCalls, opCalls } = adminSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(200, tokenAnswer(ADMIN_TOKEN, Date.now() + HOUR), json)
      .delay(50);
    pool
      .intercept({ path: `${ADMIN_PATH}/deleteSite`, method: "POST" })
      .reply(200, { status: "success" }, json)
      .times(5);

    await Promise.all([1, 2, 3, 4, 5].map(() => session.call("deleteSite")));

    expect(tokenCalls()).toHaveLength(1);
    expect(opCalls("deleteSite")).toHaveLength(5);
  });

  it("renews the token 5 minutes before it expires, not earlier", async () => {
    let now = 1_000_000_000_000;
    const { pool, session, tokenCalls, opCalls } = adminSetup(() => now);
    replyToken(pool, ADMIN_TOKEN, now + 10 * 60_000);
    replyToken(pool, FRESH_TOKEN, now + HOUR);
    pool
      .intercept({ path: `${ADMIN_PATH}/deleteSite`, method: "POST" })
      .reply(200, { status: "success" }, json)
      .times(3);

    await session.call("deleteSite");
    now += 4 * 60_000 + 59_000; // 5 min 1 s before expiry: still good
    await session.call("deleteSite");
    expect(tokenCalls()).toHaveLength(1);
    now += 1_000; // exactly 5 minutes before expiry: renew
    await session.call("deleteSite");

    expect(tokenCalls()).toHaveLength(2);
    expect(opCalls("deleteSite").map((c) => c.form["token"])).toEqual([
      ADMIN_TOKEN,
      ADMIN_TOKEN,
      FRESH_TOKEN,
    ]);
  });

  it("freshToken asks now, in one attempt, although a token is cached, and the calls after use the new one", async () => {
    const { pool, session, tokenCalls, opCalls } = adminSetup();
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    replyToken(pool, FRESH_TOKEN, Date.now() + HOUR);
    pool
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(502, "Bad gateway", { headers: { "content-type": "text/plain" } });
    pool
      .intercept({ path: `${ADMIN_PATH}/deleteSite`, method: "POST" })
      .reply(200, { status: "success" }, json);
    await expect(session.token()).resolves.toBe(ADMIN_TOKEN);
    await expect(session.freshToken()).resolves.toBe(FRESH_TOKEN);
    await session.call("deleteSite");
    expect(opCalls("deleteSite").map((c) => c.form["token"])).toEqual([FRESH_TOKEN]);
    // A transient failure is not retried: a refresh asks the server's status instead.
    await expect(session.freshToken()).rejects.toMatchObject({ httpStatus: 502 });
    expect(tokenCalls()).toHaveLength(3);
  });

  it("does not cache a failed token request", async () => {
    const { pool, session, tokenCalls } = adminSetup();
    pool
      .intercept({ path: `${ADMIN_PATH}/generateToken`, method: "POST" })
      .reply(200, BadLoginAnswer, json);
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    await expect(session.token()).rejects.toMatchObject({ code: "AUTH" });
    await expect(session.token()).resolves.toBe(ADMIN_TOKEN);
    expect(tokenCalls()).toHaveLength(2);
  });

  it.each([
    ["498 invalid token", InvalidTokenAnswer],
    ["499 token required", TokenRequiredAnswer],
  ])(
    "renews the token once on %s and repeats even a non-idempotent call",
    async (_name, rejection) => {
      const { agent, pool, session, tokenCalls, opCalls } = adminSetup();
      replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
      replyToken(pool, FRESH_TOKEN, Date.now() + HOUR);
      pool
        .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
        .reply(200, rejection, json);
      pool
        .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
        .reply(200, { status: "success", location: "/x" }, json);

      await expect(session.call("exportSite")).resolves.toEqual({
        status: "success",
        location: "/x",
      });

      expect(tokenCalls()).toHaveLength(2);
      expect(opCalls("exportSite").map((c) => c.form["token"])).toEqual([ADMIN_TOKEN, FRESH_TOKEN]);
      expectNoTokenInAnyUrl(agent, [ADMIN_TOKEN, FRESH_TOKEN]);
    },
  );

  it("surfaces a second 498 as AUTH after one renewal, without showing either token", async () => {
    const { pool, session, tokenCalls, opCalls } = adminSetup();
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    replyToken(pool, FRESH_TOKEN, Date.now() + HOUR);
    pool
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(200, { ...InvalidTokenAnswer, messages: [`Invalid token ${FRESH_TOKEN}.`] }, json)
      .times(3);

    const e = await failure(session.call("exportSite"));

    expect(e.code).toBe("AUTH");
    expect(e.serverCode).toBe(498);
    expect(tokenCalls()).toHaveLength(2);
    expect(opCalls("exportSite")).toHaveLength(2);
    for (const secret of [ADMIN_TOKEN, FRESH_TOKEN, ADMIN_PASSWORD]) {
      expect(e.message).not.toContain(secret);
      expect(e.messages.join(" ")).not.toContain(secret);
    }
  });

  it("does not renew the token on 403 (permission denied)", async () => {
    const { pool, session, tokenCalls } = adminSetup();
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    pool
      .intercept({ path: `${ADMIN_PATH}/deleteSite`, method: "POST" })
      .reply(200, { status: "error", code: 403, messages: ["No."] }, json);
    const e = await failure(session.call("deleteSite"));
    expect(e.code).toBe("AUTH");
    expect(e.serverCode).toBe(403);
    expect(tokenCalls()).toHaveLength(1);
  });

  it("retries idempotent calls on 502 but never re-sends a non-idempotent one", async () => {
    const { pool, session, opCalls } = adminSetup();
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    pool
      .intercept({ path: (p) => p.startsWith(`${ADMIN_PATH}/machines`), method: "GET" })
      .reply(502, "")
      .times(1);
    pool
      .intercept({ path: (p) => p.startsWith(`${ADMIN_PATH}/machines`), method: "GET" })
      .reply(200, { machines: [] }, json);
    pool
      .intercept({ path: `${ADMIN_PATH}/exportSite`, method: "POST" })
      .reply(502, "")
      .times(3);

    await session.call("machines", {}, { method: "GET", idempotent: true });
    const e = await failure(session.call("exportSite"));

    expect(e.httpStatus).toBe(502);
    expect(opCalls("machines")).toHaveLength(2);
    expect(opCalls("exportSite")).toHaveLength(1);
  });

  it("keeps the password out of anything that prints the session", () => {
    const { session } = adminSetup();
    expect(inspect(session, { depth: 10, showHidden: true })).not.toContain(ADMIN_PASSWORD);
    expect(JSON.stringify(session)).not.toContain(ADMIN_PASSWORD);
  });
});

describe("TokenCache.invalidate()", () => {
  it("only drops the cached token when it is the one that was rejected", async () => {
    const cache = new TokenCache();
    const key = { rootUrl: ADMIN_URL, username: "u" };
    let n = 0;
    const fetchToken = () => Promise.resolve({ token: `t${++n}`, expires: Date.now() + HOUR });
    expect(await cache.get(key, fetchToken)).toBe("t1");
    cache.invalidate(key, "some-older-token");
    expect(await cache.get(key, fetchToken)).toBe("t1");
    cache.invalidate(key, "t1");
    expect(await cache.get(key, fetchToken)).toBe("t2");
    cache.invalidate(key);
    expect(await cache.get(key, fetchToken)).toBe("t3");
  });

  it("keys tokens by root URL and username", async () => {
    const cache = new TokenCache();
    let n = 0;
    const fetchToken = () => Promise.resolve({ token: `t${++n}`, expires: Date.now() + HOUR });
    await cache.get({ rootUrl: ADMIN_URL, username: "a" }, fetchToken);
    expect(await cache.get({ rootUrl: `${ADMIN_URL}/`, username: "a" }, fetchToken)).toBe("t1");
    expect(await cache.get({ rootUrl: ADMIN_URL, username: "b" }, fetchToken)).toBe("t2");
    expect(await cache.get({ rootUrl: SHARING_URL, username: "a" }, fetchToken)).toBe("t3");
  });
});

describe("TokenCache's size", () => {
  const tokens = () => {
    let n = 0;
    const fetched: string[] = [];
    const fetchFor = (username: string) => () => {
      fetched.push(username);
      return Promise.resolve({ token: `t${++n}`, expires: Date.now() + HOUR });
    };
    return { fetched, fetchFor };
  };

  it("keeps the tokens of the keys used last, up to maxEntries, whatever the number of servers", async () => {
    const cache = new TokenCache({ maxEntries: 2 });
    const { fetched, fetchFor } = tokens();
    const key = (username: string) => ({ rootUrl: ADMIN_URL, username });
    for (const username of ["a", "b", "a", "c", "a", "b"]) {
      await cache.get(key(username), fetchFor(username));
    }
    // "a" was used again before "c" came: "b" was the least recently used, and is asked again.
    expect(fetched).toEqual(["a", "b", "c", "b"]);
  });

  it("keeps by default the tokens of a fleet's servers from its Sites' refresh to their dependents' (200 servers read, then each again)", async () => {
    const cache = new TokenCache();
    const { fetched, fetchFor } = tokens();
    const key = (username: string) => ({ rootUrl: ADMIN_URL, username });
    const servers = Array.from({ length: 200 }, (_, i) => `server-${i}`);
    for (const username of [...servers, ...servers]) {
      await cache.get(key(username), fetchFor(username));
    }
    expect(fetched).toEqual(servers);
  });

  it("lets a session under way keep its token when the cache drops its server", async () => {
    const { agent, pool, tokenCalls, opCalls } = adminSetup();
    const tokenCache = new TokenCache({ maxEntries: 1 });
    const kept = createAdminSession({
      adminUrl: ADMIN_URL,
      username: "siteadmin",
      password: ADMIN_PASSWORD,
      dispatcher: agent,
      tokenCache,
    });
    replyToken(pool, ADMIN_TOKEN, Date.now() + HOUR);
    pool
      .intercept({ path: `${ADMIN_PATH}/deleteSite`, method: "POST" })
      .reply(200, { status: "success" }, json)
      .times(2);
    await kept.call("deleteSite");
    // Another server's token takes the cache's one place.
    await tokenCache.get({ rootUrl: SHARING_URL, username: "other" }, tokens().fetchFor("other"));
    await kept.call("deleteSite");
    expect(tokenCalls()).toHaveLength(1);
    expect(opCalls("deleteSite")).toHaveLength(2);
  });
});

describe("createPortalSession()", () => {
  it("gets tokens from {sharingUrl}/generateToken with a username and password", async () => {
    const agent = mockAgent();
    const pool = agent.get(PORTAL_ORIGIN);
    pool
      .intercept({ path: `${SHARING_PATH}/generateToken`, method: "POST" })
      .reply(200, portalTokenAnswer("portal-token", Date.now() + HOUR), json);
    pool
      .intercept({ path: (p) => p.startsWith(`${SHARING_PATH}/portals/self`), method: "GET" })
      .reply(200, { id: "p1" }, json);
    const session = createPortalSession({
      sharingUrl: SHARING_URL,
      username: "portaladmin",
      password: ADMIN_PASSWORD,
      dispatcher: agent,
      tokenCache: new TokenCache(),
    });
    await session.call("portals/self", {}, { method: "GET" });
    const [tokenCall, selfCall] = recordedCalls(agent);
    expect(tokenCall!.form["username"]).toBe("portaladmin");
    expect(selfCall!.headers["x-esri-authorization"]).toBe("Bearer portal-token");
  });

  it("uses a given token as is and reports its rejection as AUTH that cannot be renewed", async () => {
    const agent = mockAgent();
    const given = "given-portal-token-XYZ";
    agent
      .get(PORTAL_ORIGIN)
      .intercept({ path: (p) => p.startsWith(`${SHARING_PATH}/portals/self`), method: "GET" })
      .reply(200, SharingInvalidTokenAnswer, json)
      .times(2);
    const session = createPortalSession({
      sharingUrl: SHARING_URL,
      token: given,
      dispatcher: agent,
    });

    const e = await failure(session.call("portals/self", {}, { method: "GET" }));

    expect(e.code).toBe("AUTH");
    expect(e.serverCode).toBe(498);
    expect(e.message).toContain("cannot be renewed");
    expect(e.message).not.toContain(given);
    expect(recordedCalls(agent)).toHaveLength(1);
    expect(recordedCalls(agent)[0]!.headers["x-esri-authorization"]).toBe(`Bearer ${given}`);
  });

  it("refuses to start without a password or a token", () => {
    expect(() => createPortalSession({ sharingUrl: SHARING_URL, username: "x" })).toThrow(
      /username and password, or a token/,
    );
  });
});

/**
 * The client suites' stand-in servers: an undici MockAgent that records every call, and admin and
 * portal sessions on it that receive a token.
 */
import { MockAgent } from "undici";
import {
  TokenCache,
  createAdminSession,
  createPortalSession,
  type ArcGISRequestError,
} from "../../provider/client";
import {
  ADMIN_ORIGIN,
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  ADMIN_URL,
  PORTAL_ORIGIN,
  SHARING_URL,
  portalTokenAnswer,
  tokenAnswer,
} from "./server-answers";

/** A MockAgent that refuses real connections and records every call. */
export function mockAgent(): MockAgent {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  return agent;
}

/** What a recorded call carried, in a shape convenient for assertions. */
export interface RecordedCall {
  method: string;
  fullUrl: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  headers: Record<string, string>;
}

/** Every call the agent saw, with form bodies decoded and header names lower-cased. */
export function recordedCalls(agent: MockAgent): RecordedCall[] {
  return (agent.getCallHistory()?.calls() ?? []).map((c) => ({
    method: c.method,
    fullUrl: c.fullUrl,
    path: c.path,
    query: { ...c.searchParams },
    form: Object.fromEntries(new URLSearchParams(typeof c.body === "string" ? c.body : "")),
    headers: Object.fromEntries(
      Object.entries(c.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
    ),
  }));
}

/** Asserts that no recorded URL carries a token, in any spelling. */
export function expectNoTokenInAnyUrl(agent: MockAgent, tokens: readonly string[]): void {
  const calls = recordedCalls(agent);
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(Object.keys(call.query).map((k) => k.toLowerCase())).not.toContain("token");
    for (const token of tokens) {
      expect(call.fullUrl).not.toContain(token);
      expect(call.fullUrl).not.toContain(encodeURIComponent(token));
    }
  }
}

/** JSON reply options for a MockAgent interceptor. */
export const json = { headers: { "content-type": "application/json" } };

/** Awaits a call that must fail and returns its error; throws when it succeeds. */
export async function failure(promise: Promise<unknown>): Promise<ArcGISRequestError> {
  try {
    await promise;
  } catch (e) {
    return e as ArcGISRequestError;
  }
  throw new Error("expected the call to fail");
}

/** A MockAgent path matcher for every path under `prefix`. */
export const startsWith = (prefix: string) => (p: string) => p.startsWith(prefix);

/** The token a portal session set up by {@link portalSessionSetup} receives. */
export const PORTAL_TOKEN = "portal-token-QQQQQQQQ";

/**
 * A MockAgent whose server at `origin` answers `<apiPath>/generateToken` with a valid token (as
 * often as asked), and a session made by `create` that uses it, with a fresh token cache and
 * 1 ms retries.
 */
function sessionOnMockAgent<S>(
  origin: string,
  apiPath: string,
  tokenReply: Record<string, unknown>,
  create: (transport: {
    dispatcher: MockAgent;
    tokenCache: TokenCache;
    retry: { maxAttempts: number; baseDelayMs: number };
  }) => S,
) {
  const agent = mockAgent();
  const pool = agent.get(origin);
  pool
    .intercept({ path: `${apiPath}/generateToken`, method: "POST" })
    .reply(200, tokenReply, json)
    .persist();
  const session = create({
    dispatcher: agent,
    tokenCache: new TokenCache(),
    retry: { maxAttempts: 3, baseDelayMs: 1 },
  });
  return { agent, pool, session };
}

/**
 * An admin session of `siteadmin` on a MockAgent that hands out {@link ADMIN_TOKEN};
 * `calls("exportSite")` lists the recorded calls of one operation.
 */
export function adminSessionSetup() {
  const adminPath = new URL(ADMIN_URL).pathname;
  const setup = sessionOnMockAgent(
    ADMIN_ORIGIN,
    adminPath,
    tokenAnswer(ADMIN_TOKEN, Date.now() + 3_600_000),
    (transport) =>
      createAdminSession({
        adminUrl: ADMIN_URL,
        username: "siteadmin",
        password: ADMIN_PASSWORD,
        ...transport,
      }),
  );
  const calls = (suffix: string) =>
    recordedCalls(setup.agent).filter((c) => c.path === `${adminPath}/${suffix}`);
  return { ...setup, calls };
}

/**
 * A portal session of `portaladmin` on a MockAgent that hands out {@link PORTAL_TOKEN};
 * `calls(path)` lists the recorded calls of one full path.
 */
export function portalSessionSetup() {
  const setup = sessionOnMockAgent(
    PORTAL_ORIGIN,
    new URL(SHARING_URL).pathname,
    portalTokenAnswer(PORTAL_TOKEN, Date.now() + 3_600_000),
    (transport) =>
      createPortalSession({
        sharingUrl: SHARING_URL,
        username: "portaladmin",
        password: ADMIN_PASSWORD,
        ...transport,
      }),
  );
  const calls = (path: string) => recordedCalls(setup.agent).filter((c) => c.path === path);
  return { ...setup, calls };
}

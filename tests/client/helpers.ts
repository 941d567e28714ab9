import { createServer, type Server } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { MockAgent } from "undici";
import * as yazl from "yazl";
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
} from "./fixtures";

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

/** Builds a small zip archive in memory (a stand-in for an .agssite file). */
export function makeZip(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

/** Starts a server on 127.0.0.1:0 and returns it with its base URL. */
export async function listen<S extends Server | HttpsServer>(
  server: S,
  scheme: "http" | "https" = "http",
): Promise<{ server: S; origin: string }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `${scheme}://127.0.0.1:${port}` };
}

/** Stops a server, dropping open connections (keep-alive or hanging ones). */
export async function closeServer(server: Server | HttpsServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const { server, origin } = await listen(createServer());
  await closeServer(server);
  return Number(new URL(origin).port);
}

/**
 * A port with nothing listening that a test binds itself later: below Linux's ephemeral range
 * (32768 and up), where neither a `listen(0)` nor an outgoing connection of a suite running
 * beside it can take it meanwhile.
 */
export async function closedPortToBindLater(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (free) {
      await closeServer(server);
      return port;
    }
  }
}

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

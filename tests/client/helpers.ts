import { createServer, type Server } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { MockAgent } from "undici";
import * as yazl from "yazl";

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

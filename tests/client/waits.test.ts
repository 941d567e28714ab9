/**
 * The client's waits (waitForServer, waitForSite) against a real local server whose answers
 * change over time, driven with short polling intervals.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  closeDispatchers,
  waitForServer,
  waitForSite,
  type WaitStatus,
} from "../../provider/client";
import { closeServer, listen } from "../../tools/harness/servers";

/** What the scripted server answers, per path, at a given moment. */
type Script = (path: string, req: IncomingMessage) => { status: number; body: unknown } | "reset";

let script: Script = () => ({ status: 404, body: {} });
const paths: string[] = [];
const server = createServer((req, res: ServerResponse) => {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  paths.push(path);
  req.resume();
  req.on("end", () => {
    const answer = script(path, req);
    if (answer === "reset") {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
});
let adminUrl: string;

beforeAll(async () => {
  const { origin } = await listen(server);
  adminUrl = `${origin}/arcgis/admin`;
});
afterAll(async () => {
  await closeServer(server);
  await closeDispatchers();
});
beforeEach(() => {
  paths.length = 0;
});

const TOKEN_REQUIRED = { status: 200, body: { error: { code: 499, message: "Token Required" } } };
const NO_SITE = { status: 200, body: { error: { code: 500, message: "Not in a site." } } };

describe("waitForServer()", () => {
  it("polls through resets at the given interval until the admin root answers, reporting each look", async () => {
    // Counted rather than timed: on a loaded machine the first look alone can take 300 ms.
    let resets = 3;
    script = () => (resets-- > 0 ? "reset" : NO_SITE);
    const seen: WaitStatus[] = [];
    const status = await waitForServer(
      adminUrl,
      {},
      { deadline: Date.now() + 5_000, pollIntervalMs: 50, onStatus: (s) => seen.push(s) },
    );
    expect(status).toMatchObject({ state: "no-site", errorFormat: "error", serverCode: 500 });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.every((s) => s.state === "unreachable")).toBe(true);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.elapsedMs - seen[i - 1]!.elapsedMs).toBeGreaterThanOrEqual(45);
    }
  });

  it("ends with ABORTED soon after its signal fires, long before the deadline", async () => {
    script = () => "reset";
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    await expect(
      waitForServer(
        adminUrl,
        {},
        { deadline: started + 10_000, pollIntervalMs: 50, signal: controller.signal },
      ),
    ).rejects.toMatchObject({ code: "ABORTED" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("ends at the deadline with a TIMEOUT that says what it last saw", async () => {
    script = () => ({ status: 503, body: { status: "error", code: 503, messages: ["Down."] } });
    const started = Date.now();
    await expect(
      waitForServer(adminUrl, {}, { deadline: started + 300, pollIntervalMs: 50 }),
    ).rejects.toMatchObject({
      code: "TIMEOUT",
      messages: [expect.stringMatching(/not answering yet .*\(code 503\): Down\./)],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe("waitForSite()", () => {
  const target = () => ({
    adminUrl,
    serverType: "mission-server" as const,
    username: "siteadmin",
    password: "site-Password-1",
  });

  it("is done once the admin root answers 499, a token is issued and the health check says success", async () => {
    const started = Date.now();
    const ready = () => Date.now() - started > 250;
    script = (path) => {
      if (path === "/arcgis/admin/") return ready() ? TOKEN_REQUIRED : NO_SITE;
      if (path === "/arcgis/admin/generateToken") {
        return { status: 200, body: { token: "t0k3n-abc", expires: Date.now() + 3_600_000 } };
      }
      if (path === "/arcgis/rest/healthcheck") return { status: 200, body: { success: ready() } };
      return { status: 404, body: {} };
    };
    const seen: WaitStatus[] = [];
    await waitForSite(target(), {
      deadline: Date.now() + 5_000,
      pollIntervalMs: 50,
      onStatus: (s) => seen.push(s),
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(paths).toContain("/arcgis/rest/healthcheck");
  });

  it("falls back to an authenticated read of the admin root where the health check answers 404", async () => {
    script = (path, req) => {
      if (path === "/arcgis/admin/generateToken") {
        return { status: 200, body: { token: "t0k3n-abc", expires: Date.now() + 3_600_000 } };
      }
      if (path === "/arcgis/admin/") {
        const authed = req.headers["x-esri-authorization"] === "Bearer t0k3n-abc";
        return authed ? { status: 200, body: { resources: ["machines"] } } : TOKEN_REQUIRED;
      }
      return { status: 404, body: {} };
    };
    await waitForSite(target(), { deadline: Date.now() + 5_000, pollIntervalMs: 50 });
    expect(paths.filter((p) => p === "/arcgis/admin/").length).toBe(2);
  });

  it("keeps waiting while the site exists but is unhealthy, and ends at the deadline saying so", async () => {
    script = (path) => {
      if (path === "/arcgis/admin/") return TOKEN_REQUIRED;
      if (path === "/arcgis/admin/generateToken") {
        return { status: 200, body: { token: "t0k3n-abc", expires: Date.now() + 3_600_000 } };
      }
      return { status: 200, body: { success: false } };
    };
    await expect(
      waitForSite(target(), { deadline: Date.now() + 300, pollIntervalMs: 50 }),
    ).rejects.toMatchObject({
      code: "TIMEOUT",
      messages: [expect.stringMatching(/the site exists; the health check says not ready/)],
    });
  });
});

/**
 * Fuzzing the emulator over real HTTPS, at every endpoint of both APIs: random and malformed form
 * bodies, random path parameters, wrong methods and content types, every token form with missing,
 * garbage, expired, cross-API and valid tokens, and bodies above the documented 1 MiB limit. Every
 * answer must be a JSON error in the called API's format (admin, of the default product Mission
 * Server: {error:{code,message}}; sharing: {error:{code,message,details}}) or a valid success, never a stack trace; the emulator must keep
 * answering; and afterwards its state must still be valid: the site, the portal and exports work,
 * and a restart on the same data dir loads the state.
 *
 * Generated inputs use a fixed seed (in the test names and the results file); every loop is
 * bounded by a run count and by fast-check's time limit.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { Readable } from "node:stream";
import * as tls from "node:tls";
import fc from "fast-check";
import { Agent, request } from "undici";
import { MAX_BODY_BYTES, startEmulator } from "../../emulator";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { SuiteFigures } from "../../tools/harness/robustness-record";

const SEED = 20_261_124;
/** Random requests per endpoint (about 30 endpoints). */
const RUNS_PER_ENDPOINT = 50;
/** Wall-time bound of each endpoint's property. */
const TIME_LIMIT_MS = 4_000;

const figures = new SuiteFigures("fuzz-emulator", SEED);
afterAll(() => figures.write());

const PORTAL_ID = "FUZZPORTAL01";
const SITE_ADMIN = { username: "siteadmin", password: "fuzz-Site-Pw-4e7a" };
const PORTAL_ADMIN = { username: "gisadmin", password: "fuzz-Portal-Pw-1c9b" };
const PORTAL_USER = { username: "viewer", password: "fuzz-User-Pw-5d2f" };
const MACHINE = "FUZZMACHINE";

type Api = "admin" | "sharing";

/** One endpoint: its API, a path template, and whether a valid token may be sent to it. */
interface Endpoint {
  api: Api;
  name: string;
  /** Builds the path; `param` is a random (URL-encoded) path segment. */
  path: (param: string) => string;
  /** Operations that would destroy the state the suite checks afterwards get no valid token. */
  destructive?: boolean;
}

const ADMIN = "/arcgis/admin";
const SHARING = "/portal/sharing/rest";
const COLLABS = `${SHARING}/portals/${PORTAL_ID}/collaborations`;

/**
 * Every endpoint of emulator/admin/api.ts (handleAdmin, resolveRoute), emulator/server.ts (the
 * token service alias and /arcgis/rest) and emulator/portal/sharing-api.ts (handleSharing), plus an
 * unknown operation of each API.
 */
const ENDPOINTS: Endpoint[] = [
  { api: "admin", name: "admin root", path: () => `${ADMIN}/` },
  { api: "admin", name: "generateToken", path: () => `${ADMIN}/generateToken` },
  { api: "admin", name: "token service", path: () => "/arcgis/tokens/generateToken" },
  { api: "admin", name: "createNewSite", path: () => `${ADMIN}/createNewSite` },
  { api: "admin", name: "exportSite", path: () => `${ADMIN}/exportSite` },
  { api: "admin", name: "deleteSite", path: () => `${ADMIN}/deleteSite`, destructive: true },
  { api: "admin", name: "importSite", path: () => `${ADMIN}/importSite` },
  { api: "admin", name: "uploads", path: () => `${ADMIN}/uploads` },
  { api: "admin", name: "uploads/upload", path: () => `${ADMIN}/uploads/upload` },
  { api: "admin", name: "uploads/<id>", path: (p) => `${ADMIN}/uploads/${p}` },
  { api: "admin", name: "machines", path: () => `${ADMIN}/machines` },
  { api: "admin", name: "machines/<name>", path: (p) => `${ADMIN}/machines/${p}` },
  { api: "admin", name: "logs", path: () => `${ADMIN}/logs` },
  { api: "admin", name: "logs/settings", path: () => `${ADMIN}/logs/settings` },
  { api: "admin", name: "logs/settings/edit", path: () => `${ADMIN}/logs/settings/edit` },
  { api: "admin", name: "system", path: () => `${ADMIN}/system` },
  { api: "admin", name: "system/directories", path: () => `${ADMIN}/system/directories` },
  { api: "admin", name: "system/configstore", path: () => `${ADMIN}/system/configstore` },
  { api: "admin", name: "services", path: () => `${ADMIN}/services` },
  { api: "admin", name: "services/<folder>", path: (p) => `${ADMIN}/services/${p}` },
  { api: "admin", name: "info", path: () => `${ADMIN}/info` },
  { api: "admin", name: "unknown admin operation", path: (p) => `${ADMIN}/x${p}` },
  { api: "admin", name: "rest/info", path: () => "/arcgis/rest/info" },
  { api: "admin", name: "rest/healthcheck", path: () => "/arcgis/rest/healthcheck" },
  { api: "sharing", name: "sharing root", path: () => `${SHARING}/` },
  { api: "sharing", name: "generateToken", path: () => `${SHARING}/generateToken` },
  { api: "sharing", name: "community/self", path: () => `${SHARING}/community/self` },
  { api: "sharing", name: "portals/self", path: () => `${SHARING}/portals/self` },
  { api: "sharing", name: "portals/<id>", path: (p) => `${SHARING}/portals/${p}` },
  {
    api: "sharing",
    name: "portals/<id>/createCollaboration",
    path: () => `${SHARING}/portals/${PORTAL_ID}/createCollaboration`,
  },
  { api: "sharing", name: "collaborations", path: () => COLLABS },
  { api: "sharing", name: "collaborations/<id>", path: (p) => `${COLLABS}/${p}` },
  {
    api: "sharing",
    name: "collaborations/<id>/delete",
    path: (p) => `${COLLABS}/${p}/delete`,
    destructive: true,
  },
  {
    api: "sharing",
    name: "collaborations/<id>/removeParticipation",
    path: (p) => `${COLLABS}/${p}/removeParticipation`,
    destructive: true,
  },
  { api: "sharing", name: "unknown sharing operation", path: (p) => `${SHARING}/x${p}` },
];

/** The child resources the admin root of a mission server lists (as the emulator models it). */
const ADMIN_ROOT_RESOURCES = ["machines", "logs", "system", "services", "uploads", "info"];
/** The operations the admin root lists. */
const ADMIN_ROOT_OPERATIONS = [
  "createNewSite",
  "deleteSite",
  "exportSite",
  "generateToken",
  "importSite",
];

let emu: TestEmulator;
let agent: Agent;
const tokens: Record<"admin" | "portalAdmin" | "orgUser" | "expired", string> = {
  admin: "",
  portalAdmin: "",
  orgUser: "",
  expired: "",
};
let requestsSent = 0;

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(
  method: string,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<Answer> {
  requestsSent++;
  const origin = new URL(emu.adminUrl).origin;
  const res = await request(`${origin}${pathAndQuery}`, {
    method: method as "GET",
    headers,
    body: body ?? null,
    dispatcher: agent,
  });
  const text = await res.body.text();
  const contentType = res.headers["content-type"];
  return {
    status: res.statusCode,
    contentType: Array.isArray(contentType) ? contentType[0]! : (contentType ?? ""),
    text,
  };
}

async function form(path: string, params: Record<string, string>): Promise<unknown> {
  const answer = await send(
    "POST",
    path,
    { "content-type": "application/x-www-form-urlencoded" },
    new URLSearchParams({ f: "json", ...params }).toString(),
  );
  return JSON.parse(answer.text);
}

async function tokenOf(path: string, params: Record<string, string>): Promise<string> {
  const answer = (await form(path, params)) as { token?: string };
  if (typeof answer.token !== "string") throw new Error(`no token from ${path}`);
  return answer.token;
}

/** Frames of a Node or V8 stack trace, or file paths of the emulator's sources. */
const STACK_TRACE = /\n\s*at |\bat [\w.<>]+ \(|node:internal|[\w/-]+\.(?:ts|js):\d+:\d+/;

/**
 * Fails unless the answer is a JSON error in `api`'s format or a success; returns which.
 * (A successful download is a file, which random ids never reach.)
 */
function judge(api: Api, answer: Answer, context: string): "error" | "success" {
  const where = `${context}: ${answer.text.slice(0, 300)}`;
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status} from ${where}`);
  if (!/^application\/json/.test(answer.contentType)) {
    throw new Error(`content type ${answer.contentType} from ${where}`);
  }
  if (STACK_TRACE.test(answer.text)) throw new Error(`stack trace in ${where}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`not JSON: ${where}`);
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new Error(`not a JSON object: ${where}`);
  }
  const b = body as Record<string, unknown>;
  if (api === "admin") {
    // Mission Server (the default product) answers {"error":{"code","message"}}, nothing else.
    if (b.status === "error") {
      throw new Error(`ArcGIS Server-format error from the Mission Server admin API: ${where}`);
    }
    if ("error" in b) {
      const e = b.error as Record<string, unknown> | null;
      const ok =
        e !== null &&
        typeof e === "object" &&
        Object.keys(e).sort().join(",") === "code,message" &&
        Number.isInteger(e.code) &&
        typeof e.message === "string" &&
        e.message !== "";
      if (!ok) throw new Error(`malformed admin error: ${where}`);
      return "error";
    }
    return "success";
  }
  if (b.status === "error") throw new Error(`admin-format error from the sharing API: ${where}`);
  if ("error" in b) {
    const e = b.error as Record<string, unknown> | null;
    const ok =
      e !== null &&
      typeof e === "object" &&
      Number.isInteger(e.code) &&
      typeof e.message === "string" &&
      e.message !== "";
    if (!ok) throw new Error(`malformed sharing error: ${where}`);
    return "error";
  }
  return "success";
}

beforeAll(async () => {
  emu = await startTestEmulator({
    createDelayMs: 20,
    exportDelayMs: 20,
    machineName: MACHINE,
    seed: portalSeed(
      [
        { ...PORTAL_ADMIN, role: "org_admin" },
        { ...PORTAL_USER, role: "org_user" },
      ],
      PORTAL_ID,
    ),
  });
  agent = new Agent({ connect: { ca: emu.caCert! }, connections: 8 });
  const created = (await form(`${ADMIN}/createNewSite`, SITE_ADMIN)) as { status?: string };
  expect(created.status).toBe("success");
  tokens.admin = await tokenOf(`${ADMIN}/generateToken`, SITE_ADMIN);
  tokens.portalAdmin = await tokenOf(`${SHARING}/generateToken`, PORTAL_ADMIN);
  tokens.orgUser = await tokenOf(`${SHARING}/generateToken`, PORTAL_USER);
  // Expires after 30 ms.
  tokens.expired = await tokenOf(`${ADMIN}/generateToken`, { ...SITE_ADMIN, expiration: "0.0005" });
  await new Promise((resolve) => setTimeout(resolve, 100));
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await emu?.close();
});

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const PARAM_NAMES = [
  "username",
  "password",
  "location",
  "settings",
  "logsSettings",
  "directories",
  "configStoreConnection",
  "runAsync",
  "expiration",
  "client",
  "referer",
  "ip",
  "name",
  "id",
  "description",
  "hostPortalId",
  "guestPortalIds",
  "start",
  "num",
  "logLevel",
  "logDir",
];

const nastyValue = fc.constantFrom(
  "",
  "true",
  "False",
  "null",
  "[]",
  "{}",
  "[{}]",
  '{"directories":[{"name":1}]}',
  '{"logLevel":"LOUD"}',
  "-1",
  "0",
  "1e309",
  "NaN",
  "../../../../etc/passwd",
  "/etc",
  "C:\\Windows",
  "\\\\server\\share",
  "%00",
  "\u0000",
  "\ud800",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
);
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  nastyValue,
  fc.json({ maxDepth: 3 }),
  // Malformed JSON: valid JSON cut short.
  fc.json({ maxDepth: 3 }).map((j) => j.slice(0, Math.max(1, j.length - 1))),
  fc.integer().map(String),
);
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PARAM_NAMES) },
  {
    weight: 1,
    arbitrary: fc.string({ maxLength: 12 }).filter((k) => k !== "f" && k !== "token"),
  },
);
const params = fc.dictionary(key, value, { maxKeys: 6 });

/** A request body and its content type. */
const body: fc.Arbitrary<{ contentType: string | undefined; data: string | Buffer }> = fc.oneof(
  params.map((p) => ({
    contentType: "application/x-www-form-urlencoded",
    data: new URLSearchParams(p).toString(),
  })),
  // Broken percent-encoding and separators.
  fc.string({ maxLength: 60 }).map((s) => ({
    contentType: "application/x-www-form-urlencoded",
    data: `${s}%zz&=%&&a=%E0%A4%A&&==&username=%`,
  })),
  params.map((p) => {
    const boundary = `----fuzz${randomBytes(4).toString("hex")}`;
    const parts = Object.entries(p).map(
      ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
    );
    return {
      contentType: `multipart/form-data; boundary=${boundary}`,
      data: `${parts.join("")}--${boundary}--\r\n`,
    };
  }),
  // Multipart that is not: no boundary, wrong boundary, garbage.
  fc
    .constantFrom("multipart/form-data", "multipart/form-data; boundary=nope")
    .chain((ct) => fc.string({ maxLength: 80 }).map((data) => ({ contentType: ct, data }))),
  params.map((p) => ({ contentType: "application/json", data: JSON.stringify(p) })),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => ({
    contentType: fc.sample(
      fc.constantFrom("application/octet-stream", "text/plain; charset=utf-16", undefined),
      { numRuns: 1, seed: bytes.length },
    )[0],
    data: Buffer.from(bytes),
  })),
);

const pathParam = fc.oneof(
  fc.constantFrom(
    "hosted1",
    "joined1",
    MACHINE,
    "System",
    PORTAL_ID,
    "self",
    "..",
    "%2e%2e",
    "%2e%2e%2fstate.json",
    "..%2F..%2Fstate.json",
    "%2Fetc%2Fpasswd",
    "C%3A%5Cwindows",
    "%00",
    "%",
    "%E0%A4%A",
    randomBytes(16).toString("hex"),
  ),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] as const;

/** Which token a request carries, and in which form. */
const tokenChoice = fc.record({
  which: fc.constantFrom("none", "garbage", "expired", "orgUser", "admin", "portalAdmin"),
  form: fc.constantFrom("body", "query", "x-esri", "authorization"),
});

// ---------------------------------------------------------------------------------------------
// Random requests at every endpoint
// ---------------------------------------------------------------------------------------------

describe(`the emulator under random requests (fast-check, seed ${SEED})`, () => {
  it("lists every resource and operation its admin root advertises", async () => {
    const root = (await form(`${ADMIN}/`, { token: tokens.admin })) as {
      resources: string[];
      operations: string[];
    };
    // Compared with a list written out here, not with the server's own answer: a root that
    // advertises less, or nothing, fails as surely as one that advertises an endpoint this
    // suite does not fuzz.
    expect([...root.resources].sort()).toEqual([...ADMIN_ROOT_RESOURCES].sort());
    expect([...root.operations].sort()).toEqual([...ADMIN_ROOT_OPERATIONS].sort());
    const names = new Set(ENDPOINTS.map((e) => e.name.split("/")[0]));
    for (const name of [...ADMIN_ROOT_RESOURCES, ...ADMIN_ROOT_OPERATIONS]) {
      expect(names).toContain(name);
    }
    figures.record(
      "endpoint list covers the admin root's resources and operations",
      {
        requestsSent: 1,
      },
      { endpoints: ENDPOINTS.length },
    );
  });

  it.each(ENDPOINTS.map((e, i) => ({ ...e, index: i })))(
    "$api $name: a JSON answer in the API's format for every request, never a stack trace",
    async (endpoint) => {
      const outcomes = { error: 0, success: 0 };
      let tried = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...METHODS),
          body,
          pathParam,
          tokenChoice,
          fc.constantFrom("json", "pjson", "xml", "JSON"),
          async (method, b, param, token, format) => {
            tried++;
            const headers: Record<string, string> = {};
            const query = new URLSearchParams({ f: format });
            let data: string | Buffer | undefined = method === "GET" ? undefined : b.data;
            if (data !== undefined && b.contentType !== undefined)
              headers["content-type"] = b.contentType;
            const which =
              endpoint.destructive && (token.which === "admin" || token.which === "portalAdmin")
                ? "garbage"
                : token.which;
            const value =
              which === "none" ? undefined : which === "garbage" ? "x.y" : tokens[which];
            if (value !== undefined) {
              if (token.form === "query" || (token.form === "body" && data === undefined)) {
                query.set("token", value);
              } else if (token.form === "body") {
                // Appended to whatever the body is; in a urlencoded body it is a real field.
                data = Buffer.concat([Buffer.from(data!), Buffer.from(`&token=${value}`)]);
              } else {
                headers[token.form === "x-esri" ? "x-esri-authorization" : "authorization"] =
                  `Bearer ${value}`;
              }
            }
            const answer = await send(
              method,
              `${endpoint.path(param)}?${query.toString()}`,
              headers,
              data,
            );
            const context = `${method} ${endpoint.path(param)} (${b.contentType ?? "no type"}, token ${which}/${token.form})`;
            outcomes[judge(endpoint.api, answer, context)]++;
          },
        ),
        {
          seed: SEED + endpoint.index,
          numRuns: RUNS_PER_ENDPOINT,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
          endOnFailure: true,
        },
      );
      // Still answering after the batch.
      const health = JSON.parse((await send("GET", "/arcgis/rest/healthcheck?f=json")).text);
      expect(health).toEqual({ success: true });
      figures.record(
        `${endpoint.api} ${endpoint.name}: random requests`,
        {
          inputsTried: tried,
          requestsSent: tried + 1,
          refusalsVerified: outcomes.error,
        },
        { successes: outcomes.success, errors: outcomes.error },
      );
    },
    30_000,
  );
});

describe("bodies above the documented limit", () => {
  it(`answers a JSON error with code 413 in the API's format at every endpoint (limit ${MAX_BODY_BYTES} bytes)`, async () => {
    const oversized = `username=${"a".repeat(MAX_BODY_BYTES)}`;
    let refused = 0;
    for (const endpoint of ENDPOINTS) {
      const path = `${endpoint.path("hosted1")}?f=json`;
      for (const data of [oversized, Buffer.alloc(MAX_BODY_BYTES + 1, 0x61)]) {
        const answer = await send(
          "POST",
          path,
          { "content-type": "application/x-www-form-urlencoded" },
          data,
        );
        expect(judge(endpoint.api, answer, `oversized POST ${path}`)).toBe("error");
        const parsed = JSON.parse(answer.text);
        const code = parsed.error.code;
        const message: string = parsed.error.message;
        expect(code).toBe(413);
        expect(message).toContain(String(MAX_BODY_BYTES));
        refused++;
      }
    }
    // Exactly at the limit the body is read (whatever the operation then answers).
    const atLimit = `username=${"a".repeat(MAX_BODY_BYTES - "username=".length)}`;
    const answer = await send(
      "POST",
      `${ADMIN}/generateToken?f=json`,
      { "content-type": "application/x-www-form-urlencoded" },
      atLimit,
    );
    expect(JSON.parse(answer.text).error.code).not.toBe(413);
    figures.record("bodies above 1 MiB at every endpoint", {
      inputsTried: refused + 1,
      requestsSent: refused + 1,
      refusalsVerified: refused,
    });
  });

  it("answers 413 to an oversized body sent without a length (chunked), and keeps answering", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x62);
    let left = 20; // 1.25 MiB
    const stream = new Readable({
      read() {
        this.push(left-- > 0 ? chunk : null);
      },
    });
    requestsSent++;
    const res = await request(`${new URL(emu.sharingUrl).origin}${SHARING}/generateToken?f=json`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      dispatcher: agent,
    });
    const text = await res.body.text();
    expect(
      judge(
        "sharing",
        { status: res.statusCode, contentType: String(res.headers["content-type"]), text },
        "chunked",
      ),
    ).toBe("error");
    expect(JSON.parse(text).error.code).toBe(413);
    figures.record("chunked body above 1 MiB", {
      inputsTried: 1,
      requestsSent: 1,
      refusalsVerified: 1,
    });
  });
});

describe("malformed HTTP that Node's parser refuses", () => {
  it("survives garbage request lines and oversized headers, and keeps answering", async () => {
    const { port, hostname } = new URL(emu.adminUrl);
    const garbage = fc.sample(
      fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
        fc
          .constantFrom(
            "GET / HTTP/9.9\r\n\r\n",
            "POST /arcgis/admin/generateToken HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
            "POST /arcgis/admin/generateToken HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "POST /arcgis/admin/generateToken HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n",
            `GET /arcgis/admin/?f=json&x=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
            `GET /arcgis/admin/ HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`,
            "\r\n\r\n\r\n",
          )
          .map((s) => Buffer.from(s)),
      ),
      { seed: SEED, numRuns: 40 },
    );
    for (const payload of garbage) {
      await new Promise<void>((resolve) => {
        const socket = tls.connect({ host: hostname, port: Number(port), ca: emu.caCert! }, () => {
          socket.end(payload);
        });
        socket.setTimeout(2000, () => socket.destroy());
        socket.on("data", () => undefined);
        socket.on("error", () => resolve());
        socket.on("close", () => resolve());
      });
    }
    const health = JSON.parse((await send("GET", "/arcgis/rest/healthcheck?f=json")).text);
    expect(health).toEqual({ success: true });
    figures.record("malformed HTTP on raw TLS connections", {
      inputsTried: garbage.length,
      requestsSent: garbage.length + 1,
    });
  });
});

describe("the state after the fuzzing", () => {
  it("is still valid: the site, the portal and exports work, and a restart loads the state", async () => {
    const sentBefore = requestsSent;
    // The administrator still logs in, and the site answers with its machine.
    const token = await tokenOf(`${ADMIN}/generateToken`, SITE_ADMIN);
    const machines = (await form(`${ADMIN}/machines`, { token })) as {
      machines: Array<{ machineName: string }>;
    };
    expect(machines.machines.map((m) => m.machineName)).toEqual([MACHINE]);
    // An export still works and its download is a zip.
    const exported = (await form(`${ADMIN}/exportSite`, { token })) as { location: string };
    // Built from the machine name, as a real server does; fetched here at the emulator's address.
    const location = new URL(exported.location);
    expect(location.hostname).toBe(MACHINE.toLowerCase());
    expect(location.pathname).toMatch(/\/uploads\/[0-9a-f]{32}$/);
    const download = await request(`${new URL(emu.adminUrl).origin}${location.pathname}`, {
      headers: { "x-esri-authorization": `Bearer ${token}` },
      dispatcher: agent,
    });
    const zip = Buffer.from(await download.body.arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe("PK");
    // The portal: its administrator logs in, and neither seeded collaboration was deleted.
    const portalToken = await tokenOf(`${SHARING}/generateToken`, PORTAL_ADMIN);
    const list = (await form(`${COLLABS}`, { token: portalToken, num: "100" })) as {
      collaborations: Array<{ id: string }>;
    };
    const ids = list.collaborations.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(["hosted1", "joined1"]));
    // The request log is one JSON line per request.
    const log = await fs.readFile(`${emu.dataDir}/requests.log`, "utf8");
    const lines = log.trim().split("\n");
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    // A restart on the same data dir validates and loads the state.
    await emu.close();
    const again = await startEmulator({ dataDir: emu.dataDir, quiet: true });
    try {
      const res = await request(`${again.healthUrl}?f=json`, { dispatcher: agent });
      expect(await res.body.json()).toEqual({ success: true });
    } finally {
      await again.close();
    }
    figures.record(
      "state valid after fuzzing (token, machines, export, portal, restart)",
      {
        requestsSent: requestsSent - sentBefore + 1,
        dataLost: ["hosted1", "joined1"].filter((id) => !ids.includes(id)).length,
      },
      { totalRequestsSent: requestsSent, requestLogLines: lines.length },
    );
  });
});

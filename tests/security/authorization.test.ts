/**
 * Authorization in the emulator, and through the resources where it matters: every administrative
 * and collaboration operation refuses an org_user token, expired tokens (by time and by
 * expireTokens), a token of the other API and a forged one, in every form a token can travel, and
 * changes nothing; guests cannot delete a collaboration; createNewSite cannot take over a machine
 * in a site, with or without a token; exportSite refuses locations outside its roots; and upload
 * ids cannot traverse paths.
 */
import { promises as fs } from "node:fs";
import * as https from "node:https";
import os from "node:os";
import path from "node:path";
import { implementation as collaboration } from "../../provider/resources/collaboration/lifecycle";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure } from "../../tools/harness/outcome";
import { runTempDir } from "../../tools/harness/temp";

const figures = new SuiteFigures("security-authorization");
afterAll(() => figures.write());

const PORTAL_ID = "AUTHZPORTAL1";
const SITE_ADMIN = { username: "siteadmin", password: "authz-Site-Pw-7c3d" };
const PORTAL_ADMIN = { username: "gisadmin", password: "authz-Portal-Pw-9e1f" };
const PORTAL_USER = { username: "viewer", password: "authz-User-Pw-4b6a" };
const MACHINE = "AUTHZMACHINE";
const ADMIN = "/arcgis/admin";
const SHARING = "/portal/sharing/rest";
const COLLABS = `${SHARING}/portals/${PORTAL_ID}/collaborations`;

let emu: TestEmulator;
/** Requests this suite sent (all of them through {@link send}). */
let requestsSent = 0;

interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
  /** The parsed JSON body, or undefined. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/**
 * Sends one request with node:https, which keeps the path exactly as given (no dot-segment
 * normalisation), so traversal attempts reach the emulator as written.
 */
function send(
  method: "GET" | "POST",
  rawPath: string,
  options: {
    form?: Record<string, string>;
    headers?: Record<string, string>;
    target?: TestEmulator;
  } = {},
): Promise<Answer> {
  requestsSent++;
  const target = options.target ?? emu;
  const url = new URL(target.adminUrl);
  const body =
    options.form === undefined ? undefined : new URLSearchParams(options.form).toString();
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: rawPath,
        ca: target.caCert!,
        agent: false,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const data = Buffer.concat(chunks);
          let json: unknown;
          try {
            json = JSON.parse(data.toString("utf8"));
          } catch {
            json = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers["content-type"] ?? "",
            body: data,
            json,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function tokenOf(api: "admin" | "sharing", params: Record<string, string>): Promise<string> {
  const root = api === "admin" ? ADMIN : SHARING;
  const answer = await send("POST", `${root}/generateToken`, { form: { f: "json", ...params } });
  if (typeof answer.json?.token !== "string") {
    throw new Error(`no token: ${answer.body.toString()}`);
  }
  return answer.json.token as string;
}

/** A token with the claims of `token` but a signature made without the emulator's secret. */
function forged(token: string): string {
  const [payload] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
  claims.exp = Date.now() + 3_600_000;
  const forgedPayload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${forgedPayload}.${Buffer.from("not-the-signature").toString("base64url")}`;
}

/** The four ways a token travels. */
type TokenForm = "body" | "query" | "x-esri" | "authorization";
const FORMS: TokenForm[] = ["body", "query", "x-esri", "authorization"];

/** One operation: method, path and the form it needs (f=json is added). */
interface Operation {
  name: string;
  method: "GET" | "POST";
  path: () => string;
  form?: () => Record<string, string>;
}

/** Sends `op` with `token` in `form`. */
function call(op: Operation, token: string, form: TokenForm): Promise<Answer> {
  const params: Record<string, string> = { f: "json", ...op.form?.() };
  const headers: Record<string, string> = {};
  let query = "";
  if (form === "query" || (form === "body" && op.method === "GET")) {
    query = `token=${encodeURIComponent(token)}`;
  } else if (form === "body") params.token = token;
  else headers[form === "x-esri" ? "x-esri-authorization" : "authorization"] = `Bearer ${token}`;
  if (op.method === "GET") {
    const q = new URLSearchParams(params).toString();
    return send("GET", `${op.path()}?${q}${query === "" ? "" : `&${query}`}`, { headers });
  }
  return send("POST", `${op.path()}${query === "" ? "" : `?${query}`}`, { form: params, headers });
}

let uploadId = "";
const EXPORT_ROOT_NAME = "exports";

/** Every administrative operation of the emulated mission server. */
const ADMIN_OPERATIONS: Operation[] = [
  { name: "admin root", method: "GET", path: () => `${ADMIN}/` },
  { name: "info", method: "GET", path: () => `${ADMIN}/info` },
  { name: "machines", method: "GET", path: () => `${ADMIN}/machines` },
  { name: "machines/<name>", method: "GET", path: () => `${ADMIN}/machines/${MACHINE}` },
  { name: "logs", method: "GET", path: () => `${ADMIN}/logs` },
  { name: "logs/settings", method: "GET", path: () => `${ADMIN}/logs/settings` },
  {
    name: "logs/settings/edit",
    method: "POST",
    path: () => `${ADMIN}/logs/settings/edit`,
    form: () => ({ logLevel: "DEBUG" }),
  },
  { name: "system", method: "GET", path: () => `${ADMIN}/system` },
  { name: "system/directories", method: "GET", path: () => `${ADMIN}/system/directories` },
  { name: "system/configstore", method: "GET", path: () => `${ADMIN}/system/configstore` },
  { name: "services", method: "GET", path: () => `${ADMIN}/services` },
  { name: "services/<folder>", method: "GET", path: () => `${ADMIN}/services/System` },
  { name: "exportSite (download URL)", method: "POST", path: () => `${ADMIN}/exportSite` },
  {
    name: "exportSite (location)",
    method: "POST",
    path: () => `${ADMIN}/exportSite`,
    form: () => ({ location: path.join(emu.dataDir, EXPORT_ROOT_NAME) }),
  },
  { name: "uploads/<id> (download)", method: "GET", path: () => `${ADMIN}/uploads/${uploadId}` },
  { name: "deleteSite", method: "POST", path: () => `${ADMIN}/deleteSite` },
  {
    name: "createNewSite",
    method: "POST",
    path: () => `${ADMIN}/createNewSite`,
    form: () => ({ username: "intruder", password: "intruder-Pw-1" }),
  },
];

/** Every collaboration operation of the emulated portal (all need an administrator). */
const COLLABORATION_OPERATIONS: Operation[] = [
  { name: "collaborations (list)", method: "GET", path: () => COLLABS },
  { name: "collaborations/<id>", method: "GET", path: () => `${COLLABS}/hosted1` },
  { name: "collaborations/<id>/delete", method: "POST", path: () => `${COLLABS}/hosted1/delete` },
  {
    name: "collaborations/<id>/removeParticipation",
    method: "POST",
    path: () => `${COLLABS}/joined1/removeParticipation`,
  },
  {
    name: "createCollaboration",
    method: "POST",
    path: () => `${SHARING}/portals/${PORTAL_ID}/createCollaboration`,
    form: () => ({ name: "Intruders", id: "intruded" }),
  },
];

/** What must not change when a refused operation is tried. */
async function snapshot() {
  const state = JSON.parse(await fs.readFile(path.join(emu.dataDir, "state.json"), "utf8"));
  return {
    site: state.site,
    collaborations: state.portal.collaborations.map((c: { id: string }) => c.id).sort(),
    exportsStarted: emu.stats().exportsStarted,
    sitesCreated: emu.stats().sitesCreated,
  };
}

function expectAdminRefusal(answer: Answer, code: number, context: string): void {
  expect({ context, status: answer.status, body: answer.json }).toEqual({
    context,
    status: 200,
    // Mission Server, the default product: {"error":{"code","message"}}.
    body: { error: expect.objectContaining({ code }) },
  });
}

function expectSharingRefusal(answer: Answer, code: number, context: string): void {
  expect({ context, status: answer.status, body: answer.json }).toEqual({
    context,
    status: 200,
    body: { error: expect.objectContaining({ code }) },
  });
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
  await fs.mkdir(path.join(emu.dataDir, EXPORT_ROOT_NAME));
  const created = await send("POST", `${ADMIN}/createNewSite`, {
    form: { f: "json", ...SITE_ADMIN },
  });
  expect(created.json).toEqual({ status: "success" });
  const token = await tokenOf("admin", SITE_ADMIN);
  const exported = await send("POST", `${ADMIN}/exportSite`, { form: { f: "json", token } });
  uploadId = String(exported.json.location).split("/").at(-1)!;
  expect(uploadId).toMatch(/^[0-9a-f]{32}$/);
});

afterAll(async () => {
  await emu?.close();
});

describe("tokens that must not be accepted", () => {
  it("every administrative operation refuses them in every form, and nothing changes", async () => {
    const siteToken = await tokenOf("admin", SITE_ADMIN);
    const bad: Record<string, string> = {
      "org_user (portal token)": await tokenOf("sharing", PORTAL_USER),
      "org_admin of the portal (other API)": await tokenOf("sharing", PORTAL_ADMIN),
      "expired (lifetime over)": await tokenOf("admin", { ...SITE_ADMIN, expiration: "0.0005" }),
      "forged (site admin claims, wrong signature)": forged(siteToken),
    };
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = await snapshot();
    let refused = 0;
    for (const op of ADMIN_OPERATIONS) {
      for (const [kind, token] of Object.entries(bad)) {
        for (const form of FORMS) {
          const answer = await call(op, token, form);
          expectAdminRefusal(answer, 498, `${op.name} with ${kind} in ${form}`);
          refused++;
        }
      }
      // The same operation without a token: 499.
      const anonymous = await send(op.method, `${op.path()}?f=json`, {
        ...(op.method === "POST" ? { form: { f: "json", ...op.form?.() } } : {}),
      });
      expectAdminRefusal(anonymous, 499, `${op.name} without a token`);
      refused++;
    }
    expect(await snapshot()).toEqual(before);
    // Positive control: the site administrator's token does work on a read and the download.
    const good = await call(ADMIN_OPERATIONS[2]!, siteToken, "x-esri");
    expect(good.json.machines).toHaveLength(1);
    const download = await call(ADMIN_OPERATIONS[14]!, siteToken, "x-esri");
    expect(download.contentType).toBe("application/octet-stream");
    expect(download.body.subarray(0, 2).toString()).toBe("PK");
    figures.record(
      "administrative operations x refused tokens x token forms",
      { refusalsVerified: refused, requestsSent: refused + 2, dataLost: 0 },
      { operations: ADMIN_OPERATIONS.length, tokenKinds: Object.keys(bad).length },
    );
  });

  it("every collaboration operation refuses them in every form, and nothing changes", async () => {
    const portalToken = await tokenOf("sharing", PORTAL_ADMIN);
    const bad: Array<[string, string, number]> = [
      ["org_user", await tokenOf("sharing", PORTAL_USER), 403],
      ["site admin (other API)", await tokenOf("admin", SITE_ADMIN), 498],
      [
        "expired (lifetime over)",
        await tokenOf("sharing", { ...PORTAL_ADMIN, expiration: "0.0005" }),
        498,
      ],
      ["forged (portal admin claims, wrong signature)", forged(portalToken), 498],
    ];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = await snapshot();
    let refused = 0;
    for (const op of COLLABORATION_OPERATIONS) {
      for (const [kind, token, code] of bad) {
        for (const form of FORMS) {
          expectSharingRefusal(await call(op, token, form), code, `${op.name}, ${kind}, ${form}`);
          refused++;
        }
      }
      const anonymous = await send(op.method, `${op.path()}?f=json`, {
        ...(op.method === "POST" ? { form: { f: "json", ...op.form?.() } } : {}),
      });
      expectSharingRefusal(anonymous, 499, `${op.name} without a token`);
      refused++;
    }
    expect(await snapshot()).toEqual(before);
    // Positive control: the portal administrator lists the seed's three collaborations.
    const list = await call(COLLABORATION_OPERATIONS[0]!, portalToken, "x-esri");
    expect(list.json.total).toBe(3);
    figures.record(
      "collaboration operations x refused tokens x token forms",
      { refusalsVerified: refused, requestsSent: refused + 1, dataLost: 0 },
      { operations: COLLABORATION_OPERATIONS.length, tokenKinds: bad.length },
    );
  });

  it("tokens made invalid by expireTokens are refused by every operation of both APIs", async () => {
    const siteToken = await tokenOf("admin", SITE_ADMIN);
    const portalToken = await tokenOf("sharing", PORTAL_ADMIN);
    await emu.expireTokens();
    const before = await snapshot();
    let refused = 0;
    for (const op of ADMIN_OPERATIONS) {
      expectAdminRefusal(await call(op, siteToken, "body"), 498, `${op.name} after expiry`);
      refused++;
    }
    for (const op of COLLABORATION_OPERATIONS) {
      expectSharingRefusal(await call(op, portalToken, "body"), 498, `${op.name} after expiry`);
      refused++;
    }
    expect(await snapshot()).toEqual(before);
    figures.record("all operations after expireTokens", {
      refusalsVerified: refused,
      requestsSent: refused,
    });
  });
});

describe("guests and collaborations", () => {
  it("a guest portal's administrator cannot delete the collaboration, which stays", async () => {
    const sentBefore = requestsSent;
    const token = await tokenOf("sharing", PORTAL_ADMIN);
    const answer = await send("POST", `${COLLABS}/joined1/delete`, { form: { f: "json", token } });
    expect(answer.json).toEqual({
      error: expect.objectContaining({
        code: 400,
        messageCode: "COLLABORATION_GUEST_CANNOT_DELETE",
        message: expect.stringMatching(/guest.*removeParticipation/),
      }),
    });
    const still = await send("GET", `${COLLABS}/joined1?f=json&token=${token}`);
    expect(still.json.id).toBe("joined1");
    figures.record("guest delete refused (emulator)", {
      refusalsVerified: answer.json.error.code === 400 ? 1 : 0,
      requestsSent: requestsSent - sentBefore,
    });
  });

  it("a Collaboration whose state claims host on a guest portal still cannot delete it", async () => {
    // State tampered with (or a stale role): the server's refusal keeps the collaboration.
    const outs = {
      sharingUrl: emu.sharingUrl,
      collaborationId: "joined1",
      ...PORTAL_ADMIN,
      leaveAsGuest: false,
      tls: { caCert: emu.caCert },
      portalId: PORTAL_ID,
      portalIdGiven: true,
      name: "Joined",
      description: "",
      hostPortalId: PORTAL_ID,
      role: "host",
    };
    const error = errorOf(await measure(collaboration.delete(`${PORTAL_ID}/joined1`, outs)));
    expect(error.message).toMatch(/^Deleting the collaboration joined1 .* failed: .*guest/);
    expect(error.message).toMatch(/stays in the stack/);
    const token = await tokenOf("sharing", PORTAL_ADMIN);
    const still = await send("GET", `${COLLABS}/joined1?f=json&token=${token}`);
    expect(still.json.id).toBe("joined1");
    figures.record("guest delete refused (Collaboration resource)", {
      refusalsVerified: 1,
      dataLost: still.json.id === "joined1" ? 0 : 1,
    });
  });
});

describe("createNewSite on a machine in a site", () => {
  it("cannot take it over, with or without a token, and the site and its administrator stay", async () => {
    const before = await snapshot();
    const siteToken = await tokenOf("admin", SITE_ADMIN);
    const intruder = { username: "intruder", password: "intruder-Pw-2" };
    const attempts: Array<[string, Record<string, string>, Record<string, string>, number]> = [
      ["no token", {}, {}, 499],
      ["garbage token", { token: "x.y" }, {}, 498],
      ["org_user token", { token: await tokenOf("sharing", PORTAL_USER) }, {}, 498],
      ["forged token", { token: forged(siteToken) }, {}, 498],
      ["the site administrator's token", { token: siteToken }, {}, 500],
      [
        "the site administrator's token, header",
        {},
        { "x-esri-authorization": `Bearer ${siteToken}` },
        500,
      ],
    ];
    for (const [name, extra, headers, code] of attempts) {
      for (const async of ["true", "false"]) {
        const answer = await send("POST", `${ADMIN}/createNewSite`, {
          form: { f: "json", ...intruder, async, ...extra },
          headers,
        });
        expectAdminRefusal(answer, code, `createNewSite with ${name} (async ${async})`);
        if (code === 500) {
          expect(answer.json.error.message).toMatch(/already participates in a site/);
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await snapshot()).toEqual(before);
    // The intruder cannot log in; the administrator still can.
    const login = await send("POST", `${ADMIN}/generateToken`, {
      form: { f: "json", ...intruder },
    });
    expect(login.json).toMatchObject({ error: { code: 400 } });
    expect(await tokenOf("admin", SITE_ADMIN)).toMatch(/\./);
    figures.record("createNewSite takeover attempts", {
      refusalsVerified: attempts.length * 2,
      requestsSent: attempts.length * 2 + 2,
      dataLost: 0,
    });
  });

  it("lets exactly one of five concurrent creations on a fresh machine win", async () => {
    const fresh = await startTestEmulator({ createDelayMs: 100 });
    const sentBefore = requestsSent;
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          send("POST", `${ADMIN}/createNewSite`, {
            form: {
              f: "json",
              username: `admin${i}`,
              password: `Racer-Pw-${i}`,
              async: "false",
            },
            target: fresh,
          }),
        ),
      );
      const winners = answers.flatMap((a, i) => (a.json?.status === "success" ? [i] : []));
      expect(winners).toHaveLength(1);
      for (const [i, a] of answers.entries()) {
        if (i !== winners[0]) expectAdminRefusal(a, 499, `losing createNewSite ${i}`);
      }
      expect(fresh.stats()).toMatchObject({ createNewSiteRequests: 5, sitesCreated: 1 });
      // Only the winner administers the site.
      for (let i = 0; i < 5; i++) {
        const login = await send("POST", `${ADMIN}/generateToken`, {
          form: { f: "json", username: `admin${i}`, password: `Racer-Pw-${i}` },
          target: fresh,
        });
        expect(typeof login.json.token === "string").toBe(i === winners[0]);
      }
      figures.record("five concurrent createNewSite on a fresh machine", {
        refusalsVerified: answers.length - winners.length,
        requestsSent: requestsSent - sentBefore,
        dataLost: 0,
      });
    } finally {
      await fresh.close();
    }
  });
});

describe("exportSite locations and upload ids", () => {
  it("refuses locations outside the export roots, relative paths and traversal, writing nothing", async () => {
    const token = await tokenOf("admin", SITE_ADMIN);
    const outside = runTempDir("authz-outside-");
    const root = path.join(emu.dataDir, EXPORT_ROOT_NAME);
    const link = path.join(root, "link-out");
    await fs.symlink(outside, link);
    const file = path.join(root, "a-file");
    await fs.writeFile(file, "x");
    const before = emu.stats().exportsStarted;
    const locations = [
      outside,
      os.tmpdir(),
      "/",
      `${root}/..`,
      `${root}/../${EXPORT_ROOT_NAME}`,
      `${root}/sub/../../..`,
      "exports",
      `./${EXPORT_ROOT_NAME}`,
      link,
      path.join(root, "missing"),
      file,
      "C:\\..\\Windows",
      "\\\\fileserver\\share",
      `${root}\\..\\..`,
    ];
    try {
      for (const location of locations) {
        const answer = await send("POST", `${ADMIN}/exportSite`, {
          form: { f: "json", token, location },
        });
        expectAdminRefusal(answer, 400, `exportSite to ${location}`);
        expect(answer.json.error.message).toMatch(/^Cannot export the site to /);
      }
      expect(emu.stats().exportsStarted).toBe(before);
      expect(await fs.readdir(outside)).toEqual([]);
      // Positive control: the root itself is allowed.
      const ok = await send("POST", `${ADMIN}/exportSite`, {
        form: { f: "json", token, location: root },
      });
      expect(ok.json.location).toMatch(/\.agssite$/);
      expect(path.dirname(ok.json.location)).toBe(root);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
    figures.record("exportSite locations outside the roots", {
      refusalsVerified: locations.length,
      inputsTried: locations.length,
      requestsSent: locations.length + 1,
    });
  });

  it("refuses upload ids that are not generated ids: traversal, encoded, absolute", async () => {
    const token = await tokenOf("admin", SITE_ADMIN);
    const state = await fs.readFile(path.join(emu.dataDir, "state.json"), "utf8");
    const secret = (JSON.parse(state) as { tokenSecret: string }).tokenSecret;
    const ids = [
      "..",
      "../state.json",
      "../../state.json",
      "..%2Fstate.json",
      "..%2F..%2Fstate.json",
      "%2e%2e",
      "%2e%2e%2fstate.json",
      "%2E%2E%2F%2E%2E%2Fstate.json",
      "..%5Cstate.json",
      "%2Fetc%2Fpasswd",
      "/etc/passwd",
      `${emu.dataDir}/state.json`,
      encodeURIComponent(path.join(emu.dataDir, "state.json")),
      `${uploadId}/../../state.json`,
      `${uploadId}%2F..%2F..%2Fstate.json`,
      `${uploadId}%00`,
      uploadId.toUpperCase(),
      `${uploadId.slice(0, 31)}`,
      "C:%5CWindows%5Cwin.ini",
      "tls",
      "requests.log",
    ];
    let refused = 0;
    for (const id of ids) {
      const answer = await send("GET", `${ADMIN}/uploads/${id}?f=json`, {
        headers: { "x-esri-authorization": `Bearer ${token}` },
      });
      const text = answer.body.toString("utf8");
      expect({ id, contentType: answer.contentType }).toEqual({
        id,
        contentType: expect.stringMatching(/^application\/json/),
      });
      // Dot segments are resolved as in any URL, so `uploads/..` is the admin root itself; what
      // stays under uploads/ must be refused as not found.
      const resolved = new URL(`http://emulator.invalid${ADMIN}/uploads/${id}`).pathname;
      if (resolved.startsWith(`${ADMIN}/uploads/`)) {
        expect({ id, answer: answer.json }).toEqual({
          id,
          answer: { error: expect.objectContaining({ code: 404 }) },
        });
      }
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/passwordHash|root:x:0:0|BEGIN CERTIFICATE/);
      refused++;
    }
    // Positive control: the generated id downloads.
    const good = await send("GET", `${ADMIN}/uploads/${uploadId}`, {
      headers: { "x-esri-authorization": `Bearer ${token}` },
    });
    expect(good.contentType).toBe("application/octet-stream");
    figures.record(
      "upload ids with traversal",
      { refusalsVerified: refused, inputsTried: ids.length, requestsSent: ids.length + 1 },
      { suiteRequestsSoFar: requestsSent },
    );
  });
});

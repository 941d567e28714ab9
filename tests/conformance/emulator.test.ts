/**
 * Replays every exchange of the conformance corpus against the emulator: a real HTTPS emulator
 * on 127.0.0.1 emulating the case's product (and version), brought to the case's state, sent the
 * case's request exactly as its source sends it, and checked against the answer the source shows
 * or reads. createNewSite cases also check that the site then exists and holds what was sent.
 */
import { promises as fs, openAsBlob, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, FormData, request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { DEFAULT_PORTAL_ADMIN } from "../../emulator/core/options";
import type {
  CaseAnswer,
  CaseRequest,
  ConformanceCase,
  Expected,
  Json,
  ServerType,
} from "./corpus";
import { CASES } from "./index";
import { matchesExpected } from "./match";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import { runTempDir } from "../../tools/harness/temp";

const REFERER = "https://conformance.replay";

/** A received answer. */
interface Answer {
  status: number;
  text: string;
  json: unknown;
}

/** The corpus case that creates a site on a product (the replay's way to reach "site"). */
function creationCaseOf(serverType: ServerType): ConformanceCase {
  const found = CASES.find(
    (c) =>
      c.serverType === serverType &&
      c.request.path === "/admin/createNewSite" &&
      c.version === undefined,
  );
  if (found === undefined) throw new Error(`the corpus has no createNewSite case of ${serverType}`);
  return found;
}

/** Name of the second machine of the `joining-machine` and `two-machine-site` states. */
const SECOND_MACHINE = "conformance-machine-2";

/**
 * Values of the placeholders a case may hold (`{exportFolder}`, `{siteAdminUrl}`,
 * `{joinedMachine}`; `{archive}` and `{uploadId}` once the replay has exported one).
 */
type Placeholders = Record<string, string>;

function fill(text: string, placeholders: Placeholders): string {
  return Object.entries(placeholders).reduce(
    (out, [name, value]) => out.replaceAll(`{${name}}`, value),
    text,
  );
}

/** A case's parameters as form fields: JSON parameters as JSON text, placeholders filled. */
function formFields(c: ConformanceCase, placeholders: Placeholders): Array<[string, string]> {
  return Object.entries(c.request.params).map(([name, value]) => {
    let text: string;
    if (c.request.jsonParams?.includes(name)) text = JSON.stringify(value);
    else if (value === null || typeof value === "object") {
      throw new Error(`${c.name}: parameter ${name} is JSON but not listed in jsonParams`);
    } else text = String(value);
    return [name, fill(text, placeholders)];
  });
}

function credentialsOf(c: ConformanceCase): { username: string; password: string } {
  const { username, password } = c.request.params;
  if (typeof username !== "string" || typeof password !== "string") {
    throw new Error(`${c.name} has no username and password`);
  }
  return { username, password };
}

class Replay {
  readonly agent: Agent;
  readonly origin: string;

  constructor(
    readonly emu: RunningEmulator,
    readonly placeholders: Placeholders,
  ) {
    this.agent = new Agent({ connect: { ca: readFileSync(emu.caCertFile!, "utf8") } });
    this.origin = new URL(emu.adminUrl).origin;
  }

  async send(
    method: "GET" | "POST",
    pathBelowRoot: string,
    fields: Array<[string, string]>,
    headers: Record<string, string> = {},
    root: "/arcgis" | "/portal" = "/arcgis",
  ): Promise<Answer> {
    const form = new URLSearchParams(fields).toString();
    const url = `${this.origin}${root}${pathBelowRoot}${method === "GET" && form !== "" ? `?${form}` : ""}`;
    const res = await request(url, {
      method,
      headers:
        method === "POST"
          ? { ...headers, "content-type": "application/x-www-form-urlencoded" }
          : headers,
      body: method === "POST" ? form : null,
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, text, json };
  }

  /** POSTs a multipart form: the fields, and each file part read from its path. */
  async sendMultipart(
    pathBelowRoot: string,
    fields: Array<[string, string]>,
    files: Record<string, string>,
    headers: Record<string, string>,
    tokenIn: "form" | "header" = "form",
    root: "/arcgis" | "/portal" = "/arcgis",
  ): Promise<Answer> {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    for (const [name, file] of Object.entries(files)) {
      form.append(name, await openAsBlob(file), path.basename(file));
    }
    const token = headers["x-esri-authorization"]?.replace(/^Bearer /, "");
    // Chef sends the token as a form field of the multipart body; DSC, to Mission, Notebook and
    // Video Server, in the X-Esri-Authorization header.
    if (token !== undefined && tokenIn === "form") form.append("token", token);
    const res = await request(`${this.origin}${root}${pathBelowRoot}`, {
      method: "POST",
      headers: {
        referer: headers.referer ?? REFERER,
        ...(token !== undefined && tokenIn === "header"
          ? { "x-esri-authorization": `Bearer ${token}` }
          : {}),
      },
      body: form,
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, text, json };
  }

  /** An admin token, sent afterwards as Esri's tools may: X-Esri-Authorization with the Referer. */
  async tokenHeaders(credentials: { username: string; password: string }) {
    const answer = await this.send("POST", "/admin/generateToken", [
      ["username", credentials.username],
      ["password", credentials.password],
      ["client", "referer"],
      ["referer", REFERER],
      ["f", "json"],
    ]);
    const token = (answer.json as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string") throw new Error(`generateToken failed: ${answer.text}`);
    return { "x-esri-authorization": `Bearer ${token}`, referer: REFERER };
  }

  /**
   * A token of the emulator's portal administrator, sent as a server's admin token is: what Chef
   * sends to a server its portal federated (`federate`'s `services/federate`).
   */
  async portalTokenHeaders() {
    const answer = await this.send(
      "POST",
      "/sharing/rest/generateToken",
      [
        ["username", DEFAULT_PORTAL_ADMIN.username],
        ["password", DEFAULT_PORTAL_ADMIN.password],
        ["client", "referer"],
        ["referer", REFERER],
        ["f", "json"],
      ],
      {},
      "/portal",
    );
    const token = (answer.json as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string") throw new Error(`portal generateToken failed: ${answer.text}`);
    return { "x-esri-authorization": `Bearer ${token}`, referer: REFERER };
  }

  /** Sends a case's request (or another request of the case) as its source does. */
  replay(
    c: ConformanceCase,
    headers: Record<string, string> = {},
    request: CaseRequest = c.request,
  ): Promise<Answer> {
    const { placeholders } = this;
    return this.send(
      request.method,
      fill(request.path, placeholders),
      formFields({ ...c, request }, placeholders),
      headers,
      request.root === "portal" ? "/portal" : "/arcgis",
    );
  }

  async close(): Promise<void> {
    await this.emu.close();
    await this.agent.close();
  }
}

/** Waits until `GET /arcgis/admin/?f=json` answers a status below 400 (Chef's `url_available?`). */
async function untilAvailable(replay: Replay): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await replay.send("GET", "/admin/", [["f", "json"]])).status >= 400) {
    if (Date.now() > deadline) throw new Error("the server did not become available again");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The product's error document with a code (the form Chef, DSC and Ansible read). */
function errorWithCode(serverType: ServerType, code: number): Expected {
  return serverType === "arcgis-server" ? { status: "error", code } : { error: { code } };
}

/** Brings a fresh emulator to the case's state; returns the credentials of its site, if any. */
async function given(
  c: ConformanceCase,
  replay: Replay,
  second: Replay | null,
): Promise<{ username: string; password: string } | null> {
  if (c.given === "no-site" || c.given === "portal-no-site") return null;
  const creation = creationCaseOf(c.serverType);
  if (c.given === "joining-machine" || c.given === "two-machine-site") {
    const answer = await replay.replay(creation);
    expect(matchesExpected(answer.json, { status: "success" })).toEqual([]);
    const credentials = credentialsOf(creation);
    if (c.given === "two-machine-site") {
      const joined = await second!.send("POST", "/admin/joinSite", [
        ["adminURL", replay.emu.adminUrl],
        ["username", credentials.username],
        ["password", credentials.password],
        ["f", "json"],
      ]);
      expect(matchesExpected(joined.json, { status: "success" })).toEqual([]);
    }
    return credentials;
  }
  // The site was created before the emulator was restarted as the upgraded software (see the test).
  if (c.given === "upgrade-required") return credentialsOf(creation);
  if (
    c.given === "site" ||
    c.given === "site-with-web-adaptor" ||
    c.given === "federated-site" ||
    c.given === "federated-with-another-portal" ||
    c.given === "site-with-certificates"
  ) {
    const answer = await replay.replay(creation);
    expect(matchesExpected(answer.json, { status: "success" })).toEqual([]);
    const credentials = credentialsOf(creation);
    if (c.given === "site-with-web-adaptor") await registerWebAdaptor(replay, credentials);
    if (c.given === "federated-site") await federateWithPortalOf(replay, replay, credentials);
    if (c.given === "site-with-certificates") await importCertificates(replay, credentials);
    // The other portal is the second emulator's: the case's request goes to the first's portal.
    if (c.given === "federated-with-another-portal") {
      await federateWithPortalOf(second!, replay, credentials);
    }
    return credentials;
  }
  // A slow creation, started asynchronously so that the case's request meets it under way.
  const flag = c.serverType === "arcgis-server" ? "runAsync" : "async";
  const fields = formFields(creation, replay.placeholders).filter(
    ([name]) => name !== "runAsync" && name !== "async",
  );
  const started = await replay.send("POST", "/admin/createNewSite", [...fields, [flag, "true"]]);
  expect(matchesExpected(started.json, { status: "success" })).toEqual([]);
  const root = await replay.send("GET", "/admin/", [["f", "json"]]);
  expect(matchesExpected(root.json, errorWithCode(c.serverType, 503))).toEqual([]);
  return null;
}

/**
 * Registers a Web Adaptor as python-mission-register-web-adaptor does, and names its id
 * `{webAdaptorId}` (what Chef's `unregister_web_adaptors` reads from the list before unregistering);
 * and one with the portal, `{portalWebAdaptorId}`.
 */
async function registerWebAdaptor(
  replay: Replay,
  credentials: { username: string; password: string },
): Promise<void> {
  const headers = await replay.tokenHeaders(credentials);
  const registered = await replay.send(
    "POST",
    "/admin/system/webadaptors/register",
    [
      ["machineName", "webadaptor.example.com"],
      ["machineIP", "10.0.0.5"],
      ["webAdaptorURL", "https://gis.example.com/server"],
      ["description", ""],
      ["httpPort", "80"],
      ["httpsPort", "443"],
      ["f", "json"],
    ],
    headers,
  );
  expect(matchesExpected(registered.json, { status: "success" })).toEqual([]);
  const listed = await replay.send("GET", "/admin/system/webadaptors", [["f", "json"]], headers);
  const [adaptor] = (listed.json as { webAdaptors: Array<{ id: string }> }).webAdaptors;
  replay.placeholders.webAdaptorId = adaptor!.id;
  // And one with the portal, as the emulated Web Adaptor's configuration registers it (its
  // `register` takes the server's parameters: an assumption, docs/emulator.md); its id is
  // `{portalWebAdaptorId}`.
  const portalHeaders = await replay.portalTokenHeaders();
  const fields: Array<[string, string]> = [
    ["machineName", "webadaptor.example.com"],
    ["machineIP", "10.0.0.5"],
    ["webAdaptorURL", "https://gis.example.com/portal"],
    ["httpPort", "80"],
    ["httpsPort", "443"],
    ["f", "json"],
  ];
  const atPortal = await replay.send(
    "POST",
    "/portaladmin/system/webadaptors/register",
    fields,
    portalHeaders,
    "/portal",
  );
  expect(matchesExpected(atPortal.json, { status: "success" })).toEqual([]);
  const portalList = await replay.send(
    "GET",
    "/portaladmin/system/webadaptors",
    [["f", "json"]],
    portalHeaders,
    "/portal",
  );
  const [portalAdaptor] = (portalList.json as { webAdaptors: Array<{ id: string }> }).webAdaptors;
  replay.placeholders.portalWebAdaptorId = portalAdaptor!.id;
}

/**
 * Federates `site`'s site with the portal of `portalOf` as Chef's `federate_server` does (the site
 * root as `url` and `adminUrl`, the primary administrator's credentials).
 */
async function federateWithPortalOf(
  portalOf: Replay,
  site: Replay,
  credentials: { username: string; password: string },
): Promise<void> {
  const portal = await portalOf.portalTokenHeaders();
  const siteRoot = site.emu.adminUrl.replace(/\/admin$/, "");
  const federated = await portalOf.send(
    "POST",
    "/portaladmin/federation/servers/federate",
    [
      ["url", siteRoot],
      ["adminUrl", siteRoot],
      ["username", credentials.username],
      ["password", credentials.password],
      ["f", "json"],
    ],
    portal,
    "/portal",
  );
  expect(federated.json).toMatchObject({ serverId: expect.any(String) });
  // The portal's cases name the federation by its id (Chef reads it from the servers' list).
  site.placeholders.serverId = (federated.json as { serverId: string }).serverId;
}

/** What the emulator stored must be what createNewSite sent (secrets and Chef's ids aside). */
async function expectStoredAsSent(
  c: ConformanceCase,
  replay: Replay,
  headers: Record<string, string>,
): Promise<void> {
  const params = c.request.params;
  const read = async (resource: string): Promise<unknown> =>
    (await replay.send("GET", `/admin/${resource}`, [["f", "json"]], headers)).json;

  const store = params.configStoreConnection as Record<string, Json>;
  const storedStore = (await read("system/configstore")) as Record<string, unknown>;
  if (c.serverType === "arcgis-server") {
    expect(storedStore).toMatchObject({
      type: store.type,
      connectionString: store.connectionString,
    });
  } else {
    const { password, ...withoutPassword } = store;
    expect(storedStore).toMatchObject(withoutPassword);
    if (typeof password === "string") expect(JSON.stringify(storedStore)).not.toContain(password);
  }
  expect(storedStore).not.toHaveProperty("password");
  expect(storedStore).not.toHaveProperty("connectionSecret");

  const storedDirs = ((await read("system/directories")) as { directories: unknown }).directories;
  if (c.serverType === "arcgis-server") {
    expect(storedDirs).toEqual((params.directories as { directories: Json }).directories);
  } else {
    expect(storedDirs).toEqual(
      (params.directories as Array<Record<string, Json>>).map(({ id: _id, ...dir }) => dir),
    );
  }

  const sentLogs = (params.logsSettings ?? params.settings) as Record<string, Json> | undefined;
  if (sentLogs !== undefined) {
    const storedLogs = await read("logs/settings");
    expect(
      c.serverType === "arcgis-server"
        ? (storedLogs as { settings: unknown }).settings
        : storedLogs,
    ).toMatchObject(sentLogs);
  }
}

/**
 * After a joinSite case, the second machine is in the site ("site exists" at its admin root) and
 * the site lists it; after an unregister case, the site no longer lists it and it is in no site.
 */
async function expectMachinesAfter(
  c: ConformanceCase,
  first: Replay,
  second: Replay,
  credentials: { username: string; password: string },
): Promise<void> {
  const listed = await first.send(
    "GET",
    "/admin/machines",
    [["f", "json"]],
    await first.tokenHeaders(credentials),
  );
  const names = (listed.json as { machines: Array<{ machineName: string }> }).machines.map(
    (m) => m.machineName,
  );
  const root = await second.send("GET", "/admin/", [["f", "json"]]);
  const inSite = matchesExpected(root.json, errorWithCode(c.serverType, 499)).length === 0;
  if (c.request.path.endsWith("/unregister")) {
    expect(names).not.toContain(SECOND_MACHINE);
    expect(inSite).toBe(false);
  } else {
    expect(names).toContain(SECOND_MACHINE);
    expect(inSite).toBe(true);
  }
  // Added to a cluster: the cluster lists it (Chef's join_cluster).
  const cluster = /^\/admin\/clusters\/([^/]+)\/machines\/add$/.exec(c.request.path)?.[1];
  if (cluster !== undefined) {
    const read = await first.send(
      "GET",
      `/admin/clusters/${cluster}`,
      [["f", "json"]],
      await first.tokenHeaders(credentials),
    );
    expect((read.json as { machineNames: string[] }).machineNames).toContain(SECOND_MACHINE);
  }
}

/**
 * The `site-with-certificates` state: the test CA imported as the root `rootca` and the server
 * certificate it signed as `gisserver.example.com` on the site's machine, as Chef imports them.
 */
async function importCertificates(
  replay: Replay,
  credentials: { username: string; password: string },
): Promise<void> {
  const headers = await replay.tokenHeaders(credentials);
  const base = `/admin/machines/${replay.placeholders.siteMachine!}/sslcertificates`;
  const imports: Array<[string, Array<[string, string]>, Record<string, string>]> = [
    ["importRootOrIntermediate", [["alias", "rootca"]], { rootCACertificate: "{rootCertificate}" }],
    [
      "importExistingServerCertificate",
      [
        ["alias", "gisserver.example.com"],
        ["certPassword", replay.placeholders.pfxPassword!],
      ],
      { certFile: "{serverPfx}" },
    ],
  ];
  for (const [op, fields, files] of imports) {
    const answer = await replay.sendMultipart(
      `${base}/${op}`,
      [...fields, ["f", "json"]],
      fillFiles(files, replay.placeholders),
      headers,
    );
    expect(matchesExpected(answer.json, { status: "success" })).toEqual([]);
  }
}

function fillFiles(files: Record<string, string>, placeholders: Placeholders) {
  return Object.fromEntries(
    Object.entries(files).map(([name, file]) => [name, fill(file, placeholders)]),
  );
}

/**
 * An import case names its archive by a placeholder: `{archive}` (a path the server can read) or
 * `{uploadId}` (an archive stored on the server). The replay makes it real with an export (added
 * to the replay's placeholders), then changes the log settings, so that the import has something
 * to restore; returns the exported log settings.
 */
async function prepareImport(
  c: ConformanceCase,
  replay: Replay,
  headers: Record<string, string>,
): Promise<Record<string, unknown> | null> {
  const location = c.request.params.location;
  if (typeof location !== "string" || !/^\{(archive|uploadId)\}$/.test(location)) return null;
  const exported = await readLogSettings(c, replay, headers);
  const fields: Array<[string, string]> =
    location === "{archive}"
      ? [
          ["location", replay.placeholders.exportFolder!],
          ["f", "json"],
        ]
      : [["f", "json"]];
  const answer = await replay.send("POST", "/admin/exportSite", fields, headers);
  const where = (answer.json as { location?: unknown } | undefined)?.location;
  if (typeof where !== "string") throw new Error(`exportSite failed: ${answer.text}`);
  if (location === "{archive}") replay.placeholders.archive = where;
  else replay.placeholders.uploadId = where.split("/").at(-1)!;
  const edited = await replay.send(
    "POST",
    "/admin/logs/settings/edit",
    [
      ["logLevel", exported.logLevel === "DEBUG" ? "SEVERE" : "DEBUG"],
      ["f", "json"],
    ],
    headers,
  );
  expect(matchesExpected(edited.json, { status: "success" })).toEqual([]);
  return exported;
}

/**
 * A case on an uploaded item names it `{uploadId}`: the replay makes one with an export to the
 * uploads (no `location`), whose answer's URL ends with the item's id.
 */
async function exportToUploads(replay: Replay, headers: Record<string, string>): Promise<void> {
  const answer = await replay.send("POST", "/admin/exportSite", [["f", "json"]], headers);
  const where = (answer.json as { location?: unknown } | undefined)?.location;
  if (typeof where !== "string") throw new Error(`exportSite failed: ${answer.text}`);
  replay.placeholders.uploadId = where.split("/").at(-1)!;
}

/** The site's log settings, flat whatever the product's form. */
async function readLogSettings(
  c: ConformanceCase,
  replay: Replay,
  headers: Record<string, string>,
): Promise<Record<string, unknown>> {
  const body = (await replay.send("GET", "/admin/logs/settings", [["f", "json"]], headers))
    .json as Record<string, unknown>;
  return (c.serverType === "arcgis-server" ? body.settings : body) as Record<string, unknown>;
}

/**
 * Sends a multipart case (an upload) with an archive the replay exports first, and checks that the
 * server then lists the item with its description.
 */
async function replayUpload(
  c: ConformanceCase,
  replay: Replay,
  headers: Record<string, string>,
): Promise<Answer> {
  const exported = await replay.send(
    "POST",
    "/admin/exportSite",
    [
      ["location", replay.placeholders.exportFolder!],
      ["f", "json"],
    ],
    headers,
  );
  replay.placeholders.archive = (exported.json as { location: string }).location;
  const files = Object.fromEntries(
    Object.entries(c.request.files ?? {}).map(([name, file]) => [
      name,
      fill(file, replay.placeholders),
    ]),
  );
  const answer = await replay.sendMultipart(
    c.request.path,
    formFields(c, replay.placeholders),
    files,
    headers,
  );
  const itemID = (answer.json as { item?: { itemID?: unknown } } | undefined)?.item?.itemID;
  const listed = await replay.send("GET", "/admin/uploads", [["f", "json"]], headers);
  expect(listed.json).toMatchObject({
    items: expect.arrayContaining([
      expect.objectContaining({ itemID, description: c.request.params.description }),
    ]),
  });
  return answer;
}

/**
 * After a portal's createNewSite: a successful one made the portal's site (Chef's site_exist?:
 * code 499 without a token; DSC then asks for a token with the case's credentials); a refused
 * one left the portal in no site (DSC's "not initialized" document).
 */
async function expectPortalSiteAfter(
  c: ConformanceCase,
  replay: Replay,
  answer: Answer,
): Promise<void> {
  const root = await replay.send("GET", "/portaladmin/", [["f", "json"]], {}, "/portal");
  const created = matchesExpected(answer.json, { status: "success" }).length === 0;
  if (!created) {
    expect(root.json).toMatchObject({ status: "error", messages: [expect.any(String)] });
    return;
  }
  expect(matchesExpected(root.json, { error: { code: 499 } })).toEqual([]);
  const token = await replay.send(
    "POST",
    "/sharing/rest/generateToken",
    [...Object.entries(credentialsOf(c)), ["referer", REFERER], ["f", "json"]],
    {},
    "/portal",
  );
  expect(token.json).toMatchObject({ token: expect.any(String) });
}

/** The answer has the HTTP status and the body the case shows (placeholders filled). */
function expectAnswer(answer: Answer, expected: CaseAnswer, placeholders: Placeholders): void {
  const { httpStatus } = expected;
  if (typeof httpStatus === "number") expect(answer.status).toBe(httpStatus);
  else expect(answer.status).not.toBe(httpStatus.not);
  if (expected.body !== undefined) {
    expect(answer.json).toBeDefined();
    const body = JSON.parse(fill(JSON.stringify(expected.body), placeholders)) as Expected;
    expect(matchesExpected(answer.json, body)).toEqual([]);
  }
}

describe("the conformance corpus replayed against the emulator", () => {
  let exportFolder: string;
  let replay: Replay | null = null;
  let second: Replay | null = null;

  /**
   * `{rootCertificate}` (a CA's PEM), `{serverPfx}` (a certificate it signed), `{pfxPassword}`,
   * and `{portalLicense}` (a portal license file, never checked).
   */
  let pki: Placeholders;

  beforeAll(async () => {
    exportFolder = runTempDir("conformance-exports-");
    const ca = makeRootCa();
    const server = issueServerCertificate(ca, ["localhost", "127.0.0.1"], "gisserver.example.com");
    pki = {
      rootCertificate: path.join(exportFolder, "rootca.cer"),
      serverPfx: path.join(exportFolder, "gisserver.pfx"),
      pfxPassword: "conformance-Pfx-1",
      portalLicense: path.join(exportFolder, "portal-license.json"),
    };
    await fs.writeFile(pki.portalLicense!, JSON.stringify({ license: "conformance" }));
    await fs.writeFile(pki.rootCertificate!, ca.certPem);
    await fs.writeFile(pki.serverPfx!, pkcs12(server, pki.pfxPassword!, { chain: [ca.certPem] }));
  });
  afterEach(async () => {
    await replay?.close();
    await second?.close();
    replay = second = null;
  });
  afterAll(async () => {
    await fs.rm(exportFolder, { recursive: true, force: true });
  });

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const dataDir = runTempDir("conformance-emu-");
    const twoMachines = c.given === "joining-machine" || c.given === "two-machine-site";
    const otherPortal = c.given === "federated-with-another-portal";
    try {
      const common = {
        dataDir,
        quiet: true,
        serverType: c.serverType,
        // Long enough for a "being created" site to stay so during the case.
        createDelayMs: c.given === "site-being-created" ? 60_000 : 20,
        exportDelayMs: 20,
        importDelayMs: 20,
        upgradeDelayMs: 20,
        exportRoots: [exportFolder],
        portalNoSite: c.given === "portal-no-site",
        portalCreateDelayMs: 20,
      };
      if (c.given === "upgrade-required") {
        // The site is created by the former version, then the software is "upgraded": the same
        // data dir started again as the case's version, with the site's former version.
        if (c.upgradeFrom === undefined) throw new Error(`${c.name} has no upgradeFrom`);
        const former = new Replay(
          await startEmulator({ ...common, serverVersion: c.upgradeFrom }),
          {},
        );
        try {
          const created = await former.replay(creationCaseOf(c.serverType));
          expect(matchesExpected(created.json, { status: "success" })).toEqual([]);
        } finally {
          await former.close();
        }
      }
      const emu = await startEmulator({
        ...common,
        ...(c.version === undefined ? {} : { serverVersion: c.version }),
        ...(c.given === "upgrade-required" ? { upgradeFrom: c.upgradeFrom } : {}),
      });
      const placeholders: Placeholders = {
        exportFolder,
        siteAdminUrl: emu.adminUrl,
        joinedMachine: SECOND_MACHINE,
        // The emulator's default machine name (emulator/core/options.ts): Chef asks `local` for it.
        siteMachine: os.hostname(),
        // The site root a portal federates (`url` and `adminUrl` of Chef's federate_server).
        siteRoot: emu.adminUrl.replace(/\/admin$/, ""),
        ...pki,
      };
      replay = new Replay(emu, placeholders);
      if (otherPortal) {
        // Another emulator's portal; the two share this process, so it reaches the first's site.
        const otherEmu = await startEmulator({
          dataDir: path.join(dataDir, "other-portal"),
          quiet: true,
          serverType: c.serverType,
          machineName: SECOND_MACHINE,
        });
        second = new Replay(otherEmu, {});
      }
      if (twoMachines) {
        const secondEmu = await startEmulator({
          dataDir: path.join(dataDir, "second"),
          quiet: true,
          serverType: c.serverType,
          machineName: SECOND_MACHINE,
          joinDelayMs: 20,
          joinPollAfterSeconds: 1,
        });
        second = new Replay(secondEmu, placeholders);
      }
      const credentials = await given(c, replay, second);
      // joinSite goes to the machine that joins; everything else to the site's first machine.
      const target = c.given === "joining-machine" ? second! : replay;
      const headers =
        c.request.token === "portal"
          ? await target.portalTokenHeaders()
          : c.request.token === true && credentials !== null
            ? await target.tokenHeaders(credentials)
            : {};
      if (c.request.token === true) expect(credentials).not.toBeNull();

      const exported = await prepareImport(c, target, headers);
      if (c.request.path.includes("{uploadId}")) await exportToUploads(target, headers);
      const answer =
        c.request.files === undefined
          ? await target.replay(c, headers)
          : c.request.path.toLowerCase().includes("/sslcertificates/") ||
              c.request.root === "portal"
            ? await target.sendMultipart(
                fill(c.request.path, target.placeholders),
                formFields(c, target.placeholders),
                fillFiles(c.request.files, target.placeholders),
                headers,
                c.request.multipartToken ?? "form",
                c.request.root === "portal" ? "/portal" : "/arcgis",
              )
            : await replayUpload(c, target, headers);

      expectAnswer(answer, c.answer, target.placeholders);
      if (c.followUp !== undefined) {
        // As Chef (`wait_until_available`) and DSC (`Wait-ForUrl`) do after a change that may
        // restart the server's web server, before they read again.
        await untilAvailable(target);
        expectAnswer(
          await target.replay(c, headers, c.followUp.request),
          c.followUp.answer,
          target.placeholders,
        );
      }

      if (exported !== null) {
        // The import restored the exported configuration.
        expect(await readLogSettings(c, target, headers)).toEqual(exported);
      }

      if (c.request.path === "/admin/createNewSite") {
        // The site exists: "site exists" as Esri's tools decide it, and a token works.
        const root = await replay.send("GET", "/admin/", [["f", "json"]]);
        expect(matchesExpected(root.json, errorWithCode(c.serverType, 499))).toEqual([]);
        const siteHeaders = await replay.tokenHeaders(credentialsOf(c));
        const authorized = await replay.send("GET", "/admin/", [["f", "json"]], siteHeaders);
        expect(authorized.json).toMatchObject({ resources: expect.any(Array) });
        await expectStoredAsSent(c, replay, siteHeaders);
      }
      if (c.request.path === "/portaladmin/createNewSite" && c.given === "portal-no-site") {
        await expectPortalSiteAfter(c, replay, answer);
      }
      if (twoMachines) await expectMachinesAfter(c, replay, second!, credentials!);
    } finally {
      await replay?.close();
      await second?.close();
      replay = second = null;
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

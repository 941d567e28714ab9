/**
 * The mission server administrative API under `/arcgis/admin`: routing, authentication
 * and the answers of each resource and operation. Errors are {@link AdminError}s, which
 * the server renders with HTTP 200.
 */
import { randomBytes } from "node:crypto";
import { parseCreateNewSite, parseLogSettingsEdit } from "./admin-params";
import { SERVER_VERSION } from "./archive";
import { AdminError, json, type ApiRequest, type Reply } from "./http";
import type { Runtime } from "./runtime";
import {
  deleteSite,
  editLogSettings,
  exportSite,
  findUpload,
  newUploadId,
  resolveExportFolder,
  siteUnavailableError,
  startCreation,
} from "./site";
import type { SiteRecord } from "./state";
import {
  checkToken,
  issueToken,
  presentedToken,
  readTokenRequest,
  verifyPassword,
  type TokenClaims,
} from "./tokens";

/** Prefix of the administrative API. */
export const ADMIN_PREFIX = "/arcgis/admin";

/** The 404 of an unknown resource or operation, in a real server's words. */
export function notFoundError(name: string): AdminError {
  return new AdminError(404, [`Could not find resource or operation '${name}' on the system.`]);
}

type Handler = (rt: Runtime, req: ApiRequest, site: SiteRecord) => Promise<Reply> | Reply;

interface Route {
  /** Operations that change something must be POSTed; resources can be read with GET too. */
  readonly post: boolean;
  readonly run: Handler;
}

/** Handles one request under {@link ADMIN_PREFIX}. */
export async function handleAdmin(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const op = req.segments.join("/");
  if (op === "generateToken") {
    requirePost(req, op);
    return generateToken(rt, req);
  }
  if (op === "createNewSite") {
    requirePost(req, op);
    return createNewSite(rt, req);
  }
  const route = resolveRoute(req.segments);
  const site = rt.store.current.site;
  if (site?.status !== "ready") {
    if (route === null) throw notFoundError(req.segments.at(-1) ?? "");
    throw siteUnavailableError(rt);
  }
  // Once a site exists, every resource needs an admin token, unknown ones included.
  authenticate(rt, req, site);
  if (route === null) throw notFoundError(req.segments.at(-1) ?? "");
  if (route.post) requirePost(req, op);
  return route.run(rt, req, site);
}

function requirePost(req: ApiRequest, op: string): void {
  if (req.method !== "POST") {
    throw new AdminError(405, [`The operation '${op}' must be invoked with HTTP POST.`]);
  }
}

/** Checks the request's admin token: 499 without one, 498 for any token not valid here. */
function authenticate(rt: Runtime, req: ApiRequest, site: SiteRecord): TokenClaims {
  const state = rt.store.current;
  const check = checkToken(presentedToken(req.headers, req.params), {
    secret: state.tokenSecret,
    audience: "admin",
    scope: site.id,
    epoch: state.tokenEpoch,
    now: Date.now(),
    referer: req.headers.referer,
    remoteAddress: req.remoteAddress,
  });
  if (check.ok && check.claims.sub === site.admin.username) return check.claims;
  if (!check.ok && check.problem === "missing") {
    throw new AdminError(499, [
      "Unauthorized access. Token not found. You can generate a token using the 'generateToken' operation.",
    ]);
  }
  throw new AdminError(498, ["Invalid token."]);
}

function resolveRoute(segments: readonly string[]): Route | null {
  const [first, second, third, ...rest] = segments;
  if (rest.length > 0) return null;
  const read = (run: Handler): Route => ({ post: false, run });
  const write = (run: Handler): Route => ({ post: true, run });
  switch (first) {
    case undefined:
      return read(root);
    case "info":
      return second === undefined ? read(() => json(versionInfo())) : null;
    case "machines":
      if (third !== undefined) return null;
      return second === undefined
        ? read(machines)
        : read((_rt, _req, site) => machine(site, second));
    case "logs":
      if (second === undefined) return read(() => json({ resources: ["settings"] }));
      if (second !== "settings") return null;
      if (third === undefined)
        return read((_rt, _req, site) => json({ settings: site.logSettings }));
      return third === "edit" ? write(editLogs) : null;
    case "system":
      if (third !== undefined) return null;
      if (second === undefined)
        return read(() => json({ resources: ["directories", "configstore"] }));
      if (second === "directories") {
        return read((_rt, _req, site) => json({ directories: site.directories }));
      }
      if (second === "configstore") {
        return read((_rt, _req, site) => json({ ...site.configStore, status: "Ready" }));
      }
      return null;
    case "services":
      if (third !== undefined) return null;
      return read((_rt, _req, site) => services(site, second));
    case "exportSite":
      return second === undefined ? write(runExport) : null;
    case "deleteSite":
      return second === undefined ? write(removeSite) : null;
    case "uploads":
      return second !== undefined && third === undefined
        ? read((rt) => download(rt, second))
        : null;
    default:
      return null;
  }
}

function versionInfo(): Record<string, unknown> {
  return { currentVersion: Number(SERVER_VERSION), fullVersion: `${SERVER_VERSION}.0` };
}

function root(): Reply {
  return json({
    resources: ["machines", "logs", "system", "services", "uploads", "info"],
    operations: ["exportSite", "deleteSite", "createNewSite", "generateToken"],
    ...versionInfo(),
  });
}

function machineAdminUrl(name: string): string {
  return `https://${name}:20443/arcgis/admin`;
}

function machines(_rt: Runtime, _req: ApiRequest, site: SiteRecord): Reply {
  return json({
    machines: site.machines.map((machineName) => ({
      machineName,
      adminURL: machineAdminUrl(machineName),
    })),
  });
}

function machine(site: SiteRecord, name: string): Reply {
  const found = site.machines.find((m) => m.toLowerCase() === name.toLowerCase());
  if (found === undefined) throw notFoundError(name);
  return json({
    machineName: found,
    adminURL: machineAdminUrl(found),
    platform: process.platform,
    configuredState: "STARTED",
    synchronize: false,
  });
}

function services(site: SiteRecord, folder: string | undefined): Reply {
  const folders = [...new Set(site.services.map((s) => s.folderName))];
  if (folder === undefined) return json({ folderName: "/", folders, services: [] });
  if (!folders.includes(folder)) throw notFoundError(folder);
  return json({
    folderName: folder,
    services: site.services.filter((s) => s.folderName === folder),
  });
}

async function editLogs(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const settings = await editLogSettings(rt, (current) =>
    parseLogSettingsEdit(req.params, current),
  );
  return json({ status: "success", settings });
}

async function removeSite(rt: Runtime): Promise<Reply> {
  await deleteSite(rt);
  return json({ status: "success" });
}

async function runExport(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const location = req.params.get("location")?.trim() ?? "";
  if (location !== "") {
    const target = await resolveExportFolder(rt, location);
    return json({ status: "success", location: await exportSite(rt, target) });
  }
  const id = newUploadId();
  await exportSite(rt, { kind: "upload", id });
  return json({ status: "success", location: `${req.origin}${ADMIN_PREFIX}/uploads/${id}` });
}

async function download(rt: Runtime, id: string): Promise<Reply> {
  const upload = await findUpload(rt, id);
  if (upload === null) throw notFoundError(id);
  return { kind: "file", ...upload };
}

/**
 * createNewSite: validates, then creates the site unless the machine is already in one.
 * With runAsync the answer comes at once (an emulator assumption: the real answer is
 * undocumented); without, it comes when creation has completed or failed.
 */
async function createNewSite(rt: Runtime, req: ApiRequest): Promise<Reply> {
  rt.stats.createNewSiteRequests++;
  if (rt.store.current.site !== null) throw siteExists(rt, req);
  const input = parseCreateNewSite(req.params);
  const start = await startCreation(rt, input);
  if (start.kind === "exists") throw siteExists(rt, req);
  if (input.runAsync) {
    return json({
      status: "success",
      runAsync: true,
      message: `Site creation has started on machine '${rt.options.machineName}'. The admin root reports that creation is in progress until it completes.`,
    });
  }
  const outcome = await start.done;
  if (!outcome.ok) throw new AdminError(500, [outcome.message]);
  return json({ status: "success" });
}

/**
 * The answer of createNewSite on a machine already in a site (or creating one): like a
 * real server, authentication comes first (499 without a token, 498 for a bad one); an
 * administrator learns that the machine already participates in a site.
 */
function siteExists(rt: Runtime, req: ApiRequest): AdminError {
  const site = rt.store.current.site;
  if (site !== null) authenticate(rt, req, site);
  return new AdminError(500, [
    `Failed to create the site. The machine '${rt.options.machineName}' already participates in a site.`,
  ]);
}

/** generateToken: a token for the site's primary administrator. */
async function generateToken(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const username = req.params.get("username") ?? "";
  const password = req.params.get("password") ?? "";
  if (username === "" || password === "") {
    throw new AdminError(400, ["Unable to generate token. Username and password are required."]);
  }
  const request = readTokenRequest(req.params, req.remoteAddress, rt.options.tokenLifetimeMinutes);
  if ("error" in request) throw new AdminError(400, [request.error]);
  const site = rt.store.current.site;
  // Until a site is ready there is no administrator: the reference's second signal of
  // "no site yet" is exactly that generateToken fails.
  if (site?.status !== "ready") {
    throw new AdminError(400, [
      "Unable to generate token. The machine is not participating in a site yet.",
    ]);
  }
  const valid =
    (await verifyPassword(password, site.admin.passwordHash)) && username === site.admin.username;
  if (!valid)
    throw new AdminError(400, ["Unable to generate token. Invalid username or password."]);
  const expires = Date.now() + Math.round(request.minutes * 60_000);
  const token = issueToken(rt.store.current.tokenSecret, {
    aud: "admin",
    sub: username,
    scope: site.id,
    epoch: rt.store.current.tokenEpoch,
    exp: expires,
    ...request.binding,
    nonce: randomBytes(8).toString("hex"),
  });
  rt.stats.tokensIssued++;
  return json({ token, expires });
}

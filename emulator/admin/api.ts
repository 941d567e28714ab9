/**
 * The administrative API under `/arcgis/admin`: routing, authentication and the answers of
 * each resource and operation, in the emulated product's dialect (emulator/core/products.ts).
 * Errors are {@link AdminError}s, which the server renders with HTTP 200 in the product's
 * error format.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { parseCreateNewSite, parseLogSettingsEdit } from "./params";
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import { portalAdministrator } from "./federated";
import { joinSite, unregisterMachine } from "./machines";
import type { Runtime } from "../core/runtime";
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
import { deleteItem, importSite, listItems, uploadItem } from "./site-import";
import { readSecurityConfig, updateSecurityConfig } from "./security";
import { assignPrivilege, updateIdentityStore } from "./identity";
import { tokenManager, updateTokenManager } from "./token-manager";
import { registerDirectory } from "./directories";
import {
  deleteService,
  federateServices,
  findService,
  service,
  serviceStatus,
  setServiceState,
} from "./services";
import { addMachinesToCluster, cluster, listClusters, removeMachinesFromCluster } from "./clusters";
import { adminUrlOf, editMachine, machine, machineStatus, setMachineState } from "./machine";
import { certificateRoute } from "./certificates";
import { upgrade, upgradePendingError, upgradeRoot } from "./upgrade";
import {
  editServicesDirectory,
  licenses,
  servicesDirectory,
  systemProperties,
  updateSystemProperties,
} from "./system";
import {
  listWebAdaptors,
  registerWebAdaptor,
  unregisterWebAdaptor,
  webAdaptor,
} from "./web-adaptors";
import type { SiteRecord } from "../core/state";
import { notFoundError } from "./not-found";

// Parts of the API written before not-found.ts import it from here.
export { notFoundError } from "./not-found";
import {
  checkToken,
  issueToken,
  presentedToken,
  readTokenRequest,
  verifyPassword,
  type TokenClaims,
} from "../core/tokens";

/** Prefix of the administrative API. */
export const ADMIN_PREFIX = "/arcgis/admin";

type Handler = (rt: Runtime, req: ApiRequest, site: SiteRecord) => Promise<Reply> | Reply;

interface Route {
  /** Operations that change something must be POSTed; resources can be read with GET too. */
  readonly post: boolean;
  readonly run: Handler;
}

/** Handles one request under {@link ADMIN_PREFIX}. */
export async function handleAdmin(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const op = req.segments.join("/");
  // Esri's tools ask `upgrade` without a token, whatever the state (admin/upgrade.ts).
  if (op === "upgrade") return upgrade(rt, req);
  const pendingUpgrade = rt.store.current.site?.upgrade ?? null;
  if (pendingUpgrade !== null) {
    // While an upgrade is due or runs the root reports it (the docs poll the root); nothing
    // else, signing in included, is served until it is done.
    if (op === "") return upgradeRoot(rt, rt.store.current.site!);
    throw upgradePendingError(rt, pendingUpgrade);
  }
  if (op === "generateToken") {
    requirePost(req, op);
    return generateToken(rt, req);
  }
  if (op === "createNewSite") {
    requirePost(req, op);
    return createNewSite(rt, req);
  }
  if (op === "joinSite") {
    requirePost(req, op);
    return joinSite(rt, req, (site) => authenticate(rt, req, site));
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

/**
 * Checks the request's admin token: 499 without one, 498 for any token not valid here. A server
 * federated with a portal also takes that portal's administrators' tokens (admin/federated.ts).
 */
export function authenticate(rt: Runtime, req: ApiRequest, site: SiteRecord): TokenClaims {
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
  const portalClaims = portalAdministrator(req, site);
  if (portalClaims !== null) return portalClaims;
  throw new AdminError(498, ["Invalid token."]);
}

function resolveRoute(segments: readonly string[]): Route | null {
  const [first, second, third, ...rest] = segments;
  const read = (run: Handler): Route => ({ post: false, run });
  const write = (run: Handler): Route => ({ post: true, run });
  const path = segments.join("/").toLowerCase();
  if (path === "services/federate") {
    return write((rt, req, site) =>
      classicOnly(rt, "federate", () => federateServices(rt, req, site)),
    );
  }
  if (first === "services" && second !== undefined) return serviceRoute(segments.slice(1));
  // Chef's server_security recipe (admin/identity.ts): ArcGIS Server only.
  if (path === "security/config/updateidentitystore") {
    return write((rt, req, site) =>
      classicOnly(rt, "updateIdentityStore", () => updateIdentityStore(rt, req, site)),
    );
  }
  // DSC's ArcGIS_ServerSettings (admin/token-manager.ts): ArcGIS Server only.
  if (path === "security/tokens") {
    return read((rt, _req, site) => classicOnly(rt, "tokens", () => tokenManager(rt, site)));
  }
  if (path === "security/tokens/update") {
    return write((rt, req, site) =>
      classicOnly(rt, "update", () => updateTokenManager(rt, req, site)),
    );
  }
  // DSC's ArcGIS_Server_RegisterDirectories (admin/directories.ts): ArcGIS Server only.
  if (path === "system/directories/register") {
    return write((rt, req) => classicOnly(rt, "register", () => registerDirectory(rt, req)));
  }
  if (path === "security/roles/assignprivilege") {
    return write((rt, req) => classicOnly(rt, "assignPrivilege", () => assignPrivilege(req)));
  }
  // ArcGIS Server's clusters (admin/clusters.ts).
  if (first === "clusters") {
    const name = second;
    if (name === undefined) {
      return read((rt, _req, site) => classicOnly(rt, "clusters", () => listClusters(site)));
    }
    if (third === undefined) {
      return read((rt, _req, site) => classicOnly(rt, name, () => cluster(site, name)));
    }
    if (third === "machines" && rest.length === 1 && rest[0] === "add") {
      return write((rt, req, site) =>
        classicOnly(rt, "add", () => addMachinesToCluster(rt, req, site, name)),
      );
    }
    if (third === "machines" && rest.length === 1 && rest[0] === "remove") {
      return write((rt, req, site) =>
        classicOnly(rt, "remove", () => removeMachinesFromCluster(rt, req, site, name)),
      );
    }
    return null;
  }
  if (path === "system/handlers/rest/servicesdirectory") {
    return read((rt, _req, site) =>
      classicOnly(rt, "servicesdirectory", () => servicesDirectory(site)),
    );
  }
  if (path === "system/handlers/rest/servicesdirectory/edit") {
    return write((rt, req) => classicOnly(rt, "edit", () => editServicesDirectory(rt, req)));
  }
  if (
    first === "system" &&
    second === "webadaptors" &&
    rest.length === 1 &&
    rest[0] === "unregister"
  ) {
    return write((rt) => unregisterWebAdaptor(rt, third!));
  }
  // A machine's keystore (admin/certificates.ts): Chef spells it `sslcertificates`, DSC
  // `sslCertificates`.
  if (first === "machines" && second !== undefined && third?.toLowerCase() === "sslcertificates") {
    const route = certificateRoute(second, rest);
    if (route === null) return null;
    return route.post ? write(route.run) : read(route.run);
  }
  if (rest.length > 0) return null;
  switch (first) {
    case undefined:
      return read((rt) => root(rt));
    case "info":
      return second === undefined ? read((rt) => json(versionInfo(rt))) : null;
    case "machines":
      if (third === "unregister" && second !== undefined) {
        return write((rt, _req, site) => unregisterMachine(rt, site, second));
      }
      // The machine's edit (admin/machine.ts): Chef calls it on ArcGIS Server, DSC's
      // ArcGIS_Server_TLS on every product, and Mission and Notebook Server document it too.
      if (third === "edit" && second !== undefined) {
        return write((rt, req, site) => editMachine(rt, req, site, second));
      }
      // A machine's state (admin/machine.ts): only ArcGIS Server's sources (Chef's `stop_machine`
      // and `unregister_stopped_machines`, the Python API's server `Machine`) and pages show it.
      if (second !== undefined && third === "status") {
        return read((rt, _req, site) =>
          classicOnly(rt, "status", () => machineStatus(site, second)),
        );
      }
      if (second !== undefined && (third === "stop" || third === "start")) {
        const state = third === "stop" ? "STOPPED" : "STARTED";
        return write((rt, _req, site) =>
          classicOnly(rt, third, () => setMachineState(rt, site, second, state)),
        );
      }
      if (third !== undefined) return null;
      return second === undefined
        ? read(machines)
        : read((rt, _req, site) => machine(rt, site, second));
    case "logs":
      if (second === undefined) return read(() => json({ resources: ["settings"] }));
      if (second !== "settings") return null;
      if (third === undefined) return read(logSettings);
      return third === "edit" ? write(editLogs) : null;
    case "system":
      if (second === "directories" && third !== undefined) {
        return read((rt, _req, site) => directory(rt, site, third));
      }
      if (second === "properties" && third === "update") {
        return write((rt, req) => updateSystemProperties(rt, req));
      }
      if (second === "webadaptors" && third === "register") {
        return write((rt, req) => registerWebAdaptor(rt, req));
      }
      if (second === "webadaptors" && third !== undefined) {
        return read((_rt, _req, site) => webAdaptor(site, third));
      }
      if (third !== undefined) return null;
      if (second === undefined) {
        return read(() =>
          json({
            resources: ["properties", "directories", "configstore", "licenses", "webadaptors"],
          }),
        );
      }
      if (second === "directories") return read(directories);
      // The docs spell it `configstore`; the ArcGIS API for Python 2.4.4 asks for `configStore`.
      if (second === "configstore" || second === "configStore") return read(configStore);
      if (second === "properties") return read((_rt, _req, site) => systemProperties(site));
      if (second === "licenses") return read((rt, _req, site) => licenses(rt, site));
      if (second === "webadaptors") return read((_rt, _req, site) => listWebAdaptors(site));
      return null;
    case "security":
      if (second === undefined) return read(() => json({ resources: ["config"] }));
      if (second !== "config") return null;
      if (third === undefined) return read((rt, _req, site) => readSecurityConfig(rt, site));
      return third === "update" ? write(updateSecurityConfig) : null;
    case "services":
      return read((_rt, _req, site) => services(site, undefined));
    // ArcGIS Server's machine resource of the machine answering (Chef `local_machine_name`).
    case "local":
      return second === undefined
        ? read((rt, _req, site) =>
            classicOnly(rt, "local", () =>
              json({
                machineName: rt.options.machineName,
                adminURL: adminUrlOf(rt, site, rt.options.machineName),
              }),
            ),
          )
        : null;
    case "exportSite":
      return second === undefined ? write(runExport) : null;
    case "deleteSite":
      return second === undefined ? write(removeSite) : null;
    // importSite: Video Server's page spells the path `importsite` (docs, Video Server 12.0).
    case "importSite":
    case "importsite":
      return second === undefined
        ? write(async (rt, req) => json(await importSite(rt, req)))
        : null;
    case "uploads":
      if (second === undefined) return read(async (rt) => json({ items: await listItems(rt) }));
      if (second === "upload" && third === undefined) {
        return write(async (rt, req) =>
          json({ status: "success", item: await uploadItem(rt, req) }),
        );
      }
      if (third === undefined) return read((rt) => upload(rt, second));
      if (third === "delete") {
        return write(async (rt) => {
          // An unknown id gets the admin API's usual "not found" (assumed: docs/emulator.md).
          if (!(await deleteItem(rt, second))) throw notFoundError(second);
          return json({ status: "success" });
        });
      }
      return third === "download" ? read((rt) => itemDownload(rt, second)) : null;
    default:
      return null;
  }
}

/**
 * `services/<folder>`, `services/<folder>/<name>.<type>` (or `services/<name>.<type>` in the root
 * folder) with its `status`, `start` and `stop` (admin/services.ts).
 */
function serviceRoute(below: readonly string[]): Route | null {
  const read = (run: Handler): Route => ({ post: false, run });
  const write = (run: Handler): Route => ({ post: true, run });
  const [a, b, c, ...rest] = below;
  if (rest.length > 0 || a === undefined) return null;
  const isService = (segment: string): boolean => segment.includes(".");
  // `services/<name>.<type>[/op]` or `services/<folder>/<name>.<type>[/op]`.
  let folder: string;
  let name: string;
  let op: string | undefined;
  if (isService(a)) {
    if (c !== undefined) return null;
    [folder, name, op] = ["/", a, b];
  } else if (b === undefined) {
    return read((_rt, _req, site) => services(site, a));
  } else {
    [folder, name, op] = [a, b, c];
  }
  const of = (site: SiteRecord) => findService(site, folder, name);
  if (op === undefined) return read((_rt, _req, site) => service(of(site)));
  if (op === "status") return read((_rt, _req, site) => serviceStatus(of(site)));
  if (op === "start") return write((rt, _req, site) => setServiceState(rt, of(site), "STARTED"));
  if (op === "stop") return write((rt, _req, site) => setServiceState(rt, of(site), "STOPPED"));
  // Only ArcGIS Server's sources (Chef's `delete_service`) and pages show a service's delete.
  if (op === "delete") {
    return write((rt, _req, site) => classicOnly(rt, "delete", () => deleteService(rt, of(site))));
  }
  return null;
}

/**
 * A resource only ArcGIS Server's sources show: on the other products it answers as any unknown
 * resource does (their docs do not list it).
 */
function classicOnly(
  rt: Runtime,
  name: string,
  run: () => Reply | Promise<Reply>,
): Reply | Promise<Reply> {
  if (rt.product.dialect !== "classic") throw notFoundError(name);
  return run();
}

/** `currentVersion` and `fullVersion`, as rest/info and the admin root report them. */
export function versionInfo(rt: Runtime): { currentVersion: number; fullVersion: string } {
  const version = rt.options.serverVersion;
  return { currentVersion: version.current, fullVersion: version.full };
}

function root(rt: Runtime): Reply {
  return json({
    resources: ["machines", "logs", "system", "services", "uploads", "info"],
    operations: ["exportSite", "importSite", "deleteSite", "createNewSite", "generateToken"],
    ...versionInfo(rt),
  });
}

function machines(rt: Runtime, _req: ApiRequest, site: SiteRecord): Reply {
  return json({
    machines: site.machines.map((machineName) => ({
      machineName,
      adminURL: adminUrlOf(rt, site, machineName),
    })),
  });
}

/**
 * logs/settings: ArcGIS Server nests the fields under `settings` (DSC ArcGIS_Server reads
 * `$logSettings.settings.logLevel`); Mission, Notebook and Video Server answer them flat
 * (DSC ArcGIS_MissionServer and ArcGIS_NotebookServer read `$logSettings.logLevel`).
 */
function logSettings(rt: Runtime, _req: ApiRequest, site: SiteRecord): Reply {
  const { usageMeteringEnabled, ...classic } = site.logSettings;
  if (rt.product.dialect === "classic") return json({ settings: classic });
  return json({ ...classic, usageMeteringEnabled });
}

/**
 * system/directories, in the form createNewSite took them (what a real server answers here
 * is not shown by any source: docs/emulator.md).
 */
function directories(rt: Runtime, _req: ApiRequest, site: SiteRecord): Reply {
  if (rt.product.dialect === "classic") return json({ directories: site.directories });
  return json({
    directories: site.directories.map((d) => ({
      name: d.name,
      path: d.physicalPath,
      type: d.directoryType,
    })),
  });
}

/**
 * system/directories/<name>: one directory as its own resource (ArcGIS Server's docs,
 * https://developers.arcgis.com/rest/enterprise-administration/server/directory/), in the form of
 * the list's entries; the name is matched in any letter case. Another name: code 404 (the text is
 * this project's).
 */
function directory(rt: Runtime, site: SiteRecord, name: string): Reply {
  const found = site.directories.find((d) => d.name.toLowerCase() === name.toLowerCase());
  if (found === undefined) {
    throw new AdminError(404, [`The server directory '${name}' does not exist.`]);
  }
  if (rt.product.dialect === "classic") return json(found);
  return json({ name: found.name, path: found.physicalPath, type: found.directoryType });
}

/** system/configstore, in the form createNewSite took it; never a secret or password. */
function configStore(rt: Runtime, _req: ApiRequest, site: SiteRecord): Reply {
  const store = site.configStore;
  if (rt.product.dialect === "classic") {
    return json({
      type: store.type,
      connectionString: store.connectionString,
      localRepositoryPath: store.localRepositoryPath,
      status: "Ready",
    });
  }
  return json({
    configPersistenceType: store.type,
    connectionString: store.connectionString,
    className: store.className,
    ...(store.username === null ? {} : { username: store.username }),
    status: "Ready",
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

/** logs/settings/edit: flat form fields (DSC Update-LogSettings reads status "success"). */
async function editLogs(rt: Runtime, req: ApiRequest): Promise<Reply> {
  await editLogSettings(rt, (current) => parseLogSettingsEdit(req.params, current, rt.product));
  return json({ status: "success" });
}

async function removeSite(rt: Runtime): Promise<Reply> {
  await deleteSite(rt);
  return json({ status: "success" });
}

/**
 * exportSite. Without `location` the answer is a URL built from the machine's own name (or
 * the listen address), never from the request's Host header: in the `file` form it serves
 * the archive, in the `item` form it describes an uploaded item whose archive is served at
 * `.../download` (ArcGIS Server docs).
 */
async function runExport(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const location = req.params.get("location")?.trim() ?? "";
  if (location !== "") {
    const target = await resolveExportFolder(rt, location);
    return json({ status: "success", location: await exportSite(rt, target) });
  }
  const id = newUploadId();
  await exportSite(rt, { kind: "upload", id });
  return json({ status: "success", location: `${rt.publicOrigin}${ADMIN_PREFIX}/uploads/${id}` });
}

/** uploads/<id>: the archive itself (`file` form), or the item's description (`item` form). */
async function upload(rt: Runtime, id: string): Promise<Reply> {
  const found = await findUpload(rt, id);
  if (found === null) throw notFoundError(id);
  if (rt.options.exportUrlForm === "file") return { kind: "file", ...found };
  const site = rt.store.current.site;
  const system = site?.directories.find((d) => d.directoryType === "SYSTEM");
  const systemDir = system?.physicalPath ?? `${rt.product.installRoot}/directories/arcgissystem`;
  // The uploaded-item resource of the ArcGIS Server docs (uploadeditem.htm).
  return json({
    itemID: id,
    itemName: found.name,
    description: null,
    pathOnServer: path.posix.join(systemDir.replaceAll("\\", "/"), "arcgisuploads", id, found.name),
    date: found.modified,
    committed: true,
  });
}

/** uploads/<id>/download: the archive (`item` form only). */
async function itemDownload(rt: Runtime, id: string): Promise<Reply> {
  if (rt.options.exportUrlForm !== "item") throw notFoundError("download");
  const found = await findUpload(rt, id);
  if (found === null) throw notFoundError(id);
  return { kind: "file", file: found.file, name: found.name, size: found.size };
}

/**
 * createNewSite: validates, then creates the site unless the machine is already in one.
 * With runAsync (ArcGIS Server) or async (Mission, Notebook, Video Server) the answer comes
 * at once (an emulator assumption: the real answer is undocumented, and no Esri tool asks
 * for it); without, it comes when creation has completed or failed.
 */
async function createNewSite(rt: Runtime, req: ApiRequest): Promise<Reply> {
  rt.stats.createNewSiteRequests++;
  if (rt.store.current.site !== null) throw siteExists(rt, req);
  const input = parseCreateNewSite(req.params, rt.profile);
  const start = await startCreation(rt, input);
  if (start.kind === "exists") throw siteExists(rt, req);
  if (input.runAsync) {
    const flag = rt.product.dialect === "classic" ? "runAsync" : "async";
    return json({
      status: "success",
      [flag]: true,
      message: `Site creation has started on machine '${rt.options.machineName}'. The admin root reports that creation is in progress until it completes.`,
    });
  }
  const outcome = await start.done;
  if (!outcome.ok) throw new AdminError(500, [outcome.message]);
  // DSC Invoke-CreateSite: `if($response.status -ieq "success")`.
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

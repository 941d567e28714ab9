/**
 * The portal's federation of ArcGIS servers: `portaladmin/federation/servers` (federate, update,
 * unfederate, validate) and the sharing API's list `portals/self/servers`.
 *
 * Evidence:
 * - What clients send: Esri/arcgis-cookbook `cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb`
 *   at 6b807249eec03146b913a2ad8661425472d53780 (`federate_server`: url, adminUrl, username,
 *   password, token; reads `serverId`; `update_server`: serverRole, serverFunction, reads
 *   `serverId`; `unfederate_server`: forceUnfederate; `servers`: `GET
 *   sharing/rest/portals/self/servers`, reads `servers`; `validate_response`: an `error` object is
 *   a failure), and `providers/portal.rb` (a server is found in the list by its `url`).
 * - What the portal answers: https://developers.arcgis.com/rest/enterprise-administration/portal/federate-servers.htm
 *   (`status`), .../portal/servers.htm (the list's fields: id, name, url, isHosted, adminUrl,
 *   serverRole, serverFunction, serverType `ARCGIS_MISSION_SERVER` for Mission Server, `ArcGIS` for
 *   ArcGIS Server, webgisServerTrustKey), .../portal/validate-server (status, serverId, messages,
 *   adminUrl), .../portal/federation.htm (`{"resources":["servers"]}`).
 * Assumptions (docs/emulator.md): the emulated portal reaches the emulated servers of its own
 * process (core/registry.ts, as joinSite does); any other adminUrl cannot be reached; the texts of its refusals; Notebook and Video Server's
 * serverType; a server federated twice is refused, also by a second portal (the wording of that
 * refusal).
 */
import { randomBytes } from "node:crypto";
import { json, requirePost, SharingError, type ApiRequest, type Reply } from "../core/http";
import type { ServerType } from "../core/products";
import type { Runtime } from "../core/runtime";
import type { FederatedServer } from "../core/state";
import { federationOf, portalUrlOf } from "../core/federations";
import { machineAt } from "../core/registry";
import { verifyPassword } from "../core/tokens";
import { withoutTrailingSlash } from "../core/url";

/** The roles `update` takes (Chef's `enable_server_function`; the update docs). */
export const SERVER_ROLES = [
  "FEDERATED_SERVER",
  "FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING",
  "HOSTING_SERVER",
] as const;

/** serverType in the list, per product (docs: Mission `ARCGIS_MISSION_SERVER`, ArcGIS `ArcGIS`). */
const SERVER_TYPE_NAMES: Record<ServerType, string> = {
  "arcgis-server": "ArcGIS",
  "mission-server": "ARCGIS_MISSION_SERVER",
  "notebook-server": "ARCGIS_NOTEBOOK_SERVER",
  "video-server": "ARCGIS_VIDEO_SERVER",
};

/** The site root the portal federates (`https://host:port/arcgis`), path of this emulator. */
const SITE_ROOT_PATH = "/arcgis";

function describe(server: FederatedServer): Record<string, unknown> {
  return {
    id: server.id,
    name: server.name,
    url: server.url,
    isHosted: server.serverRole === "HOSTING_SERVER",
    adminUrl: server.adminUrl,
    serverRole: server.serverRole,
    serverFunction: server.serverFunction,
    serverType: server.serverType,
    webgisServerTrustKey: "",
  };
}

function notFederated(id: string): SharingError {
  return new SharingError(400, `Server with id '${id}' is not federated with this portal.`);
}

function required(req: ApiRequest, name: string): string {
  const value = req.params.get(name)?.trim() ?? "";
  if (value === "") throw new SharingError(400, `The '${name}' parameter is required.`);
  return value;
}

/**
 * `GET sharing/rest/portals/self/servers` and `GET portaladmin/federation/servers`; the caller
 * has checked that an administrator asks.
 */
export function listServers(rt: Runtime): Reply {
  return json({ servers: rt.store.current.portal.servers.map(describe) });
}

/** The emulated machine of this process whose site root `adminUrl` names, if any. */
function serverAt(adminUrl: string): Runtime | null {
  let path: string;
  try {
    path = withoutTrailingSlash(new URL(adminUrl).pathname);
  } catch {
    return null;
  }
  if (path !== SITE_ROOT_PATH) return null;
  return machineAt(adminUrl)?.rt ?? null;
}

/**
 * A federated server's id: 16 letters and digits, the form of the ids in Esri's pages (e.g.
 * `0123456789ABCDEF`); never a leading `-`, which a command line would read as a flag.
 */
function serverId(): string {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(16)].map((b) => letters[b % letters.length]).join("");
}

/** `POST portaladmin/federation/servers/federate`. */
async function federate(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const url = withoutTrailingSlash(required(req, "url"));
  const adminUrl = withoutTrailingSlash(required(req, "adminUrl"));
  const username = required(req, "username");
  const password = required(req, "password");
  const server = serverAt(adminUrl);
  const site = server?.store.current.site ?? null;
  if (server === null || site === null || site.status !== "ready") {
    throw new SharingError(
      400,
      `Unable to federate the server. The ArcGIS Server site at '${adminUrl}' could not be reached or is not a site.`,
    );
  }
  const valid =
    username === site.admin.username && (await verifyPassword(password, site.admin.passwordHash));
  if (!valid) {
    throw new SharingError(
      400,
      `Unable to federate the server. The username or password of the primary site administrator of '${adminUrl}' is not valid.`,
    );
  }
  // A server's security configuration names one portal (Chef's `federate` writes one
  // portalProperties; its rest/info one owningSystemUrl): another portal's federate is refused,
  // in this API's error form. The wording is assumed (docs/emulator.md).
  const owner = federationOf(site);
  if (owner !== null && owner.portal !== rt) {
    throw new SharingError(
      400,
      `Unable to federate the server. The server '${adminUrl}' is already federated with another portal ('${portalUrlOf(owner.portal)}'). Unfederate it from that portal first.`,
    );
  }
  await rt.delay(rt.options.federateDelayMs);
  const id = serverId();
  await rt.store.update((draft) => {
    const taken = draft.portal.servers.find((s) => s.adminUrl === adminUrl || s.url === url);
    if (taken !== undefined) {
      throw new SharingError(
        400,
        `Unable to federate the server. The server '${adminUrl}' is already federated with this portal (id '${taken.id}').`,
      );
    }
    draft.portal.servers.push({
      id,
      name: new URL(adminUrl).host,
      url,
      adminUrl,
      serverRole: "FEDERATED_SERVER",
      serverFunction: "",
      serverType: SERVER_TYPE_NAMES[server.product.type],
    });
  });
  rt.stats.serversFederated++;
  rt.log(`server ${adminUrl} federated as ${id}`);
  return json({ status: "success", serverId: id });
}

/** `POST portaladmin/federation/servers/<id>/update`. */
async function update(rt: Runtime, req: ApiRequest, id: string): Promise<Reply> {
  const role = required(req, "serverRole");
  if (!(SERVER_ROLES as readonly string[]).includes(role)) {
    throw new SharingError(
      400,
      `Invalid serverRole '${role}'. Use one of ${SERVER_ROLES.join(", ")}.`,
    );
  }
  const serverFunction = req.params.get("serverFunction")?.trim() ?? "";
  await rt.store.update((draft) => {
    const server = draft.portal.servers.find((s) => s.id === id);
    if (server === undefined) throw notFederated(id);
    server.serverRole = role;
    server.serverFunction = serverFunction;
  });
  return json({ status: "success", serverId: id });
}

/** `POST portaladmin/federation/servers/<id>/unfederate`. */
async function unfederate(rt: Runtime, id: string): Promise<Reply> {
  await rt.store.update((draft) => {
    const at = draft.portal.servers.findIndex((s) => s.id === id);
    if (at < 0) throw notFederated(id);
    draft.portal.servers.splice(at, 1);
  });
  rt.stats.serversUnfederated++;
  rt.log(`server ${id} unfederated`);
  return json({ status: "success" });
}

/** The validation of one federated server (validate-server's answer). */
function validation(server: FederatedServer): Record<string, unknown> {
  const site = serverAt(server.adminUrl)?.store.current.site ?? null;
  const reachable = site !== null && site.status === "ready";
  return {
    status: reachable ? "success" : "failure",
    serverId: server.id,
    messages: [
      reachable
        ? `ArcGIS Server administration URL '${server.adminUrl}' is accessible.`
        : `ArcGIS Server administration URL '${server.adminUrl}' is not accessible.`,
    ],
    adminUrl: server.adminUrl,
  };
}

/** `GET portaladmin/federation/servers/<id>/validate`. */
function validate(rt: Runtime, id: string): Reply {
  const server = rt.store.current.portal.servers.find((s) => s.id === id);
  if (server === undefined) throw notFederated(id);
  return json(validation(server));
}

/**
 * `GET portaladmin/federation/servers/validate`: every server's validation in `serversStatus`
 * (https://developers.arcgis.com/rest/enterprise-administration/portal/validate-servers; the
 * ArcGIS API for Python 2.4.4 calls it as `Federation.validate_all`). The overall `status` is
 * "success" when every server's is, else "failure" (assumption: the docs show only a success).
 */
function validateAll(rt: Runtime): Reply {
  const serversStatus = rt.store.current.portal.servers.map(validation);
  const ok = serversStatus.every((s) => s.status === "success");
  return json({ status: ok ? "success" : "failure", serversStatus });
}

/**
 * Handles `portaladmin/federation[/servers[/…]]`; `segments` start after `federation`. The caller
 * has checked that an administrator asks.
 */
export async function handleFederation(
  rt: Runtime,
  req: ApiRequest,
  segments: readonly string[],
): Promise<Reply> {
  const [servers, idOrOp, op, ...rest] = segments;
  const unknown = (): SharingError =>
    new SharingError(
      404,
      `Could not find resource or operation '${segments.at(-1) ?? "federation"}' on the system.`,
    );
  if (rest.length > 0) throw unknown();
  if (servers === undefined) return json({ resources: ["servers"] });
  if (servers !== "servers") throw unknown();
  if (idOrOp === undefined) return listServers(rt);
  if (idOrOp === "federate" && op === undefined) {
    requirePost(req, "federate");
    return federate(rt, req);
  }
  if (idOrOp === "validate" && op === undefined) return validateAll(rt);
  if (op === undefined) {
    const server = rt.store.current.portal.servers.find((s) => s.id === idOrOp);
    if (server === undefined) throw notFederated(idOrOp);
    return json(describe(server));
  }
  if (op === "update") {
    requirePost(req, op);
    return update(rt, req, idOrOp);
  }
  if (op === "unfederate") {
    requirePost(req, op);
    return unfederate(rt, idOrOp);
  }
  if (op === "validate") return validate(rt, idOrOp);
  throw unknown();
}

/**
 * The portal sharing API under `/portal/sharing/rest`: tokens, the portal and its users,
 * and distributed collaborations (list, info, create, delete, removeParticipation).
 * Errors are {@link SharingError}s, rendered with HTTP 200.
 */
import { randomBytes } from "node:crypto";
import { PORTAL_VERSION } from "../core/products";
import { json, requirePost, SharingError, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import { listServers } from "./federation";
import { authorize, exchangeToken } from "./oauth";
import type { CollaborationRecord, EmulatorState, PortalUser } from "../core/state";
import { issueToken, readTokenRequest, verifyPassword } from "../core/tokens";
import { currentUser, requireAdmin, requireUser } from "./users";

/** The portal's root path (its web adaptor name, `portal`). */
export const PORTAL_ROOT_PATH = "/portal";
/** Prefix of the sharing API. */
export const SHARING_PREFIX = `${PORTAL_ROOT_PATH}/sharing/rest`;

/** `messageCode` of the sharing errors the emulator defines (its documented assumption). */
export const MESSAGE_CODES = {
  collaborationNotFound: "COLLABORATION_NOT_FOUND",
  guestCannotDelete: "COLLABORATION_GUEST_CANNOT_DELETE",
  hostCannotLeave: "COLLABORATION_HOST_CANNOT_REMOVE_PARTICIPATION",
  portalNotFound: "PORTAL_NOT_FOUND",
} as const;

const PRIVILEGES: Record<PortalUser["role"], string[]> = {
  org_admin: [
    "portal:admin:viewUsers",
    "portal:admin:manageCollaborations",
    "portal:user:shareToGroup",
  ],
  org_user: ["portal:user:createItem", "portal:user:shareToGroup"],
};

function collaborationNotFound(id: string): SharingError {
  return new SharingError(
    400,
    `Collaboration with id '${id}' does not exist.`,
    MESSAGE_CODES.collaborationNotFound,
  );
}

/** Handles one request under {@link SHARING_PREFIX}. */
export async function handleSharing(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const [first, portalId, third, collaborationId, op, ...rest] = req.segments;
  const unknown = (): SharingError =>
    new SharingError(
      404,
      `Could not find resource or operation '${req.segments.at(-1) ?? ""}' on the system.`,
    );
  if (rest.length > 0) throw unknown();
  if (first === undefined) return json({ currentVersion: PORTAL_VERSION });
  if (first === "generateToken" && portalId === undefined) {
    requirePost(req, first);
    return generateToken(rt, req);
  }
  if (first === "info" && portalId === undefined) return info(rt);
  if (first === "oauth2" && portalId === "authorize" && third === undefined) {
    return authorize(rt, req);
  }
  if (first === "oauth2" && portalId === "token" && third === undefined) {
    return exchangeToken(rt, req);
  }
  if (first === "community" && portalId === "self" && third === undefined) {
    return communitySelf(requireUser(rt, req), rt.store.current);
  }
  if (first === "community" && portalId === "users" && third !== undefined) {
    if (collaborationId !== undefined) throw unknown();
    return communityUser(rt, requireUser(rt, req), third);
  }
  if (first !== "portals" || portalId === undefined) throw unknown();
  if (third === undefined) return portalSelf(rt, req, portalId);
  if (third === "servers" && collaborationId === undefined) {
    requireAdmin(rt, req);
    checkPortal(rt, portalId);
    return listServers(rt);
  }
  if (third === "createCollaboration" && collaborationId === undefined) {
    requireAdmin(rt, req);
    requirePost(req, third);
    checkPortal(rt, portalId);
    return createCollaboration(rt, req);
  }
  if (third !== "collaborations") throw unknown();
  requireAdmin(rt, req);
  checkPortal(rt, portalId);
  if (collaborationId === undefined) return listCollaborations(rt, req);
  if (op === undefined) return json(describe(findCollaboration(rt.store.current, collaborationId)));
  if (op === "delete") {
    requirePost(req, op);
    return deleteCollaboration(rt, collaborationId);
  }
  if (op === "removeParticipation") {
    requirePost(req, op);
    return removeParticipation(rt, collaborationId);
  }
  throw unknown();
}

/** Accepts this portal's id, or `self` as portal clients also send. */
function checkPortal(rt: Runtime, portalId: string): void {
  if (portalId !== "self" && portalId !== rt.store.current.portal.id) {
    throw new SharingError(
      400,
      `Portal with id '${portalId}' does not exist or is not accessible.`,
      MESSAGE_CODES.portalNotFound,
    );
  }
}

async function generateToken(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const username = req.params.get("username") ?? "";
  const password = req.params.get("password") ?? "";
  const request = readTokenRequest(req.params, req.remoteAddress, rt.options.tokenLifetimeMinutes);
  if ("error" in request)
    throw new SharingError(400, "Unable to generate token.", undefined, [request.error]);
  const state = rt.store.current;
  const user = state.portal.users.find((u) => u.username === username);
  const valid = user !== undefined && (await verifyPassword(password, user.passwordHash));
  if (!valid) {
    throw new SharingError(400, "Unable to generate token.", undefined, [
      "Invalid username or password.",
    ]);
  }
  const expires = Date.now() + Math.round(request.minutes * 60_000);
  const token = issueToken(state.tokenSecret, {
    aud: "portal",
    sub: username,
    scope: state.portal.id,
    epoch: state.tokenEpoch,
    exp: expires,
    ...request.binding,
    nonce: randomBytes(8).toString("hex"),
  });
  rt.stats.tokensIssued++;
  return json({ token, expires, ssl: rt.tlsEnabled });
}

/**
 * `sharing/rest/info`: where to get a token. Fields as in Esri/arcgis-rest-js at
 * 7e3424af2fe57024af3bfa97c0f36bafecf91520, `packages/arcgis-rest-request/test/mocks/sharing-rest-info.ts`
 * (`owningSystemUrl`, `authInfo.tokenServicesUrl`, `authInfo.isTokenBasedSecurity`); the ArcGIS API
 * for Python 2.4.4 reads `authInfo` (`arcgis/gis/_impl/_con/_connection.py`, `_check_product`).
 */
function info(rt: Runtime): Reply {
  return json({
    owningSystemUrl: `${rt.publicOrigin}${PORTAL_ROOT_PATH}`,
    authInfo: {
      tokenServicesUrl: `${rt.publicOrigin}${SHARING_PREFIX}/generateToken`,
      isTokenBasedSecurity: true,
    },
  });
}

function userView(user: PortalUser, state: EmulatorState): Record<string, unknown> {
  return {
    username: user.username,
    fullName: user.username,
    role: user.role,
    orgId: state.portal.id,
    privileges: PRIVILEGES[user.role],
  };
}

function communitySelf(user: PortalUser, state: EmulatorState): Reply {
  return json(userView(user, state));
}

/**
 * `community/users/<name>`: a user of this portal, for any signed-in user (the ArcGIS API for
 * Python 2.4.4 reads the signed-in user's own here: `arcgis/gis/__init__.py`, `GIS.users.me`).
 * An unknown name: code 400 (assumption).
 */
function communityUser(rt: Runtime, _caller: PortalUser, username: string): Reply {
  const state = rt.store.current;
  const user = state.portal.users.find((u) => u.username === username);
  if (user === undefined) {
    throw new SharingError(400, `User '${username}' does not exist or is inaccessible.`);
  }
  return json(userView(user, state));
}

/**
 * portals/self (or portals/<id>): anonymous callers see the portal without a user. Field names as
 * in Esri/arcgis-rest-js at 7e3424af2fe57024af3bfa97c0f36bafecf91520,
 * `packages/arcgis-rest-portal/test/mocks/portal/response.ts` (ArcGIS Online's: `isPortal` false,
 * `portalMode` "multitenant", `portalName` "ArcGIS Online", `portalHostname`). The ArcGIS API for
 * Python 2.4.4 needs `portalName` and `portalMode` (`arcgis/gis/__init__.py`, `_is_arcgisonline`:
 * ArcGIS Online is `portalName` "ArcGIS Online" in `portalMode` "multitenant"); this portal's
 * values, "Portal for ArcGIS" and "singletenant", are assumptions (docs/emulator.md).
 */
function portalSelf(rt: Runtime, req: ApiRequest, portalId: string): Reply {
  checkPortal(rt, portalId);
  const state = rt.store.current;
  const user = currentUser(rt, req);
  return json({
    id: state.portal.id,
    name: state.portal.name,
    isPortal: true,
    portalName: "Portal for ArcGIS",
    portalMode: "singletenant",
    portalHostname: `${new URL(rt.publicOrigin).host}${PORTAL_ROOT_PATH}`,
    currentVersion: PORTAL_VERSION,
    ...(user === null ? {} : { user: userView(user, state) }),
  });
}

function describe(c: CollaborationRecord): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    collaborationHostPortalId: c.hostPortalId,
    config: {},
    created: c.created,
    modified: c.modified,
  };
}

function findCollaboration(state: EmulatorState, id: string): CollaborationRecord {
  const found = state.portal.collaborations.find((c) => c.id === id);
  if (found === undefined) throw collaborationNotFound(id);
  return found;
}

function pagingParam(req: ApiRequest, name: string, fallback: number, max: number): number {
  const text = req.params.get(name)?.trim() ?? "";
  if (text === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new SharingError(
      400,
      `Invalid value for parameter '${name}': a whole number from 1 to ${max}.`,
    );
  }
  return value;
}

/** Collaborations list, paged like every portal list: 1-based `start`, `num` up to 100. */
function listCollaborations(rt: Runtime, req: ApiRequest): Reply {
  const start = pagingParam(req, "start", 1, Number.MAX_SAFE_INTEGER);
  const num = pagingParam(req, "num", 10, 100);
  const all = [...rt.store.current.portal.collaborations].sort(
    (a, b) => a.created - b.created || a.id.localeCompare(b.id),
  );
  const page = all.slice(start - 1, start - 1 + num);
  const next = start + num;
  return json({
    total: all.length,
    start,
    num: page.length,
    nextStart: next <= all.length ? next : -1,
    collaborations: page.map(describe),
  });
}

function listParam(text: string | undefined): string[] {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "") return [];
  if (trimmed.startsWith("[")) {
    const value: unknown = JSON.parse(trimmed);
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      throw new Error("not an array of strings");
    }
    return value;
  }
  return trimmed
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/**
 * createCollaboration (emulator only, for tests and demos): `name`, optional `id`,
 * `description`, `hostPortalId` (default: this portal) and `guestPortalIds` (JSON array
 * or comma-separated). This portal must be the host or one of the guests.
 */
async function createCollaboration(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const bad = (message: string): SharingError => new SharingError(400, message);
  const name = req.params.get("name")?.trim() ?? "";
  if (name === "") throw bad("The parameter 'name' is required.");
  const id = req.params.get("id")?.trim() || randomBytes(16).toString("hex");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    throw bad("Invalid value for parameter 'id': letters, digits, '_' or '-' (1 to 64).");
  }
  const portalId = rt.store.current.portal.id;
  const hostPortalId = req.params.get("hostPortalId")?.trim() || portalId;
  let guestPortalIds: string[];
  try {
    guestPortalIds = listParam(req.params.get("guestPortalIds"));
  } catch {
    throw bad(
      "Invalid value for parameter 'guestPortalIds': a JSON array of ids or a comma-separated list.",
    );
  }
  if (guestPortalIds.includes(hostPortalId)) throw bad("The host portal cannot also be a guest.");
  if (hostPortalId !== portalId && !guestPortalIds.includes(portalId)) {
    throw bad(
      `This portal ('${portalId}') must be the host or one of the guests of the collaboration.`,
    );
  }
  const record = await rt.store.update((draft) => {
    if (draft.portal.collaborations.some((c) => c.id === id)) {
      throw bad(`A collaboration with id '${id}' already exists.`);
    }
    const now = Date.now();
    const created: CollaborationRecord = {
      id,
      name,
      description: req.params.get("description") ?? "",
      hostPortalId,
      guestPortalIds,
      created: now,
      modified: now,
    };
    draft.portal.collaborations.push(created);
    return created;
  });
  return json({ success: true, id: record.id, collaboration: describe(record) });
}

/**
 * delete: only the host may delete; the collaboration then leaves the list and its info
 * answers not found. A guest is pointed at removeParticipation.
 */
async function deleteCollaboration(rt: Runtime, id: string): Promise<Reply> {
  await rt.store.update((draft) => {
    const found = findCollaboration(draft, id);
    if (found.hostPortalId !== draft.portal.id) {
      throw new SharingError(
        400,
        `This portal is a guest in collaboration '${id}' and cannot delete it; only the host portal's administrator can. To leave the collaboration, use removeParticipation (POST .../collaborations/${id}/removeParticipation).`,
        MESSAGE_CODES.guestCannotDelete,
      );
    }
    draft.portal.collaborations = draft.portal.collaborations.filter((c) => c.id !== id);
  });
  rt.log("collaboration deleted");
  return json({ success: true });
}

/** removeParticipation: a guest leaves; the host must delete instead. */
async function removeParticipation(rt: Runtime, id: string): Promise<Reply> {
  await rt.store.update((draft) => {
    const found = findCollaboration(draft, id);
    if (found.hostPortalId === draft.portal.id) {
      throw new SharingError(
        400,
        `This portal hosts collaboration '${id}' and cannot remove its participation; use delete instead.`,
        MESSAGE_CODES.hostCannotLeave,
      );
    }
    draft.portal.collaborations = draft.portal.collaborations.filter((c) => c.id !== id);
  });
  rt.log("collaboration participation removed");
  return json({ success: true });
}

/**
 * `Collaboration`: a stack owns the deletion of a distributed collaboration on a portal. Creating
 * the resource confirms the collaboration; destroying it deletes the collaboration (host) or
 * removes this portal's participation (guest). Reads top-down as its lifecycle: check (the input
 * rules), diff, create, read, update, delete; then the implementation the host loads from this
 * module's path, and the provider that loads it. Its inputs, class and frame derive from
 * `definition.ts` (`generated.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  communitySelf,
  deleteCollaboration,
  getCollaboration,
  isAuthError,
  isNotFoundError,
  portalSelf,
  removeParticipation,
} from "../../client";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { stateOnlyUpdate } from "../common/pulumi/state-diff";
import { COLLABORATION } from "./definition";
import { implementationOf } from "../common/pulumi/implementation";
import { portalSessionFor } from "../common/connection/portal";
import type { CollaborationInputs, CollaborationOutputs } from "./generated";
import { SELF } from "./definition";

function describeTarget(inputs: CollaborationInputs, portalId: string): string {
  return `collaboration ${inputs.collaborationId} on portal ${portalId} (${inputs.sharingUrl})`;
}

/**
 * diff: another portal or collaboration is a replacement (a looked-up portal id stays as long as
 * none is given); credentials, leaveAsGuest and `tls` only update state.
 */
function diff(
  _id: string,
  olds: CollaborationOutputs,
  rawNews: unknown,
): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  // State written before deleteAdoptedOnDestroy existed, and news not yet checked, hold its
  // default: no change.
  olds = { ...olds, deleteAdoptedOnDestroy: olds.deleteAdoptedOnDestroy ?? false };
  news.deleteAdoptedOnDestroy ??= false;
  // A looked-up portalId changes only when the user gives one that differs ("self" does not).
  const looksUp = news.portalId === undefined || news.portalId === SELF;
  const lookedUp = looksUp && !olds.portalIdGiven;
  const { replaces, updates } = COLLABORATION.changes(olds, news);
  const replacing = replaces.filter((key) => !(lookedUp && key === "portalId"));
  if (replacing.length > 0) return { changes: true, replaces: replacing };
  return { changes: updates.length > 0 };
}

/**
 * create: confirms that the credentials are an administrator's and that the collaboration exists,
 * and records this portal's role in it (a guest needs leaveAsGuest).
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  return confirm(COLLABORATION.parse(raw), "confirmed");
}

/**
 * What create does, and `pulumi import` (import.ts) with `adopted`: an adopted guest is recorded
 * without leaveAsGuest, since its destroy leaves the collaboration alone unless told otherwise.
 *
 * @internal
 */
export async function confirm(
  inputs: CollaborationInputs,
  state: NonNullable<CollaborationOutputs["state"]>,
): Promise<{ id: string; outs: CollaborationOutputs }> {
  const session = portalSessionFor(inputs);
  const user = await communitySelf(session);
  if (user.role !== "org_admin") {
    throw new Error(
      `The credentials of ${user.username} on ${inputs.sharingUrl} are not an administrator's ` +
        `(role ${user.role ?? "unknown"}). Deleting a collaboration needs the portal's ` +
        "administrator: give an org_admin's username and password or token.",
    );
  }
  // The role is decided by this portal's own id (portals/self), never by the literal input:
  // `portalId: "self"` names this portal too, and is resolved to its id.
  const selfId = (await portalSelf(session)).id;
  const portalIdGiven = inputs.portalId !== undefined && inputs.portalId !== SELF;
  const portalId = portalIdGiven ? inputs.portalId! : selfId;
  let info: Awaited<ReturnType<typeof getCollaboration>>;
  try {
    info = await getCollaboration(session, portalId, inputs.collaborationId);
  } catch (error) {
    if (isNotFoundError(error)) {
      throw new Error(
        `The ${describeTarget(inputs, portalId)} does not exist. Check collaborationId and ` +
          "portalId.",
        { cause: error },
      );
    }
    throw error;
  }
  const role = info.collaborationHostPortalId === selfId ? "host" : "guest";
  if (role === "guest" && !inputs.leaveAsGuest && state === "confirmed") {
    throw new Error(
      `Portal ${portalId} is a guest of the ${describeTarget(inputs, portalId)}, and a guest ` +
        "cannot delete a collaboration (only its host portal's administrator can). Set " +
        "leaveAsGuest: true to make `pulumi destroy` remove this portal's participation " +
        "(removeParticipation) instead, or manage it from the host portal.",
    );
  }
  const outs: CollaborationOutputs = {
    ...inputs,
    portalId,
    portalIdGiven,
    name: info.name,
    description: info.description ?? "",
    hostPortalId: info.collaborationHostPortalId,
    role,
    state,
  };
  return { id: `${portalId}/${inputs.collaborationId}`, outs };
}

/** read (refresh): what the portal has now, each difference named; gone when it no longer exists. */
async function read(id: string, props: CollaborationOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = COLLABORATION.parse(props);
  const session = portalSessionFor(inputs);
  let info: Awaited<ReturnType<typeof getCollaboration>>;
  try {
    info = await getCollaboration(session, props.portalId, props.collaborationId);
  } catch (error) {
    if (isNotFoundError(error)) return {};
    throw error;
  }
  // What the portal has now, each difference named.
  const selfId = (await portalSelf(session)).id;
  const now: CollaborationOutputs = {
    ...props,
    name: info.name,
    description: info.description ?? props.description,
    hostPortalId: info.collaborationHostPortalId,
    role: info.collaborationHostPortalId === selfId ? "host" : "guest",
  };
  const target = describeTarget(inputs, props.portalId);
  for (const key of ["name", "description", "hostPortalId", "role"] as const) {
    if (now[key] !== props[key]) {
      logWarn(
        `The ${target} changed on the portal: ${key}: ${JSON.stringify(props[key])} in state, ` +
          `${JSON.stringify(now[key])} now.`,
      );
    }
  }
  if (now.role === "guest" && props.role === "host" && !inputs.leaveAsGuest) {
    logWarn(
      `Portal ${props.portalId} is no longer the host of the ${target}: a guest cannot delete it. ` +
        "Set leaveAsGuest: true to make `pulumi destroy` remove this portal's participation.",
    );
  }
  return { id, props: now };
}

/** update: state only. */
const update = stateOnlyUpdate<CollaborationOutputs>(COLLABORATION.parse, COLLABORATION.stateOnly);

/**
 * delete: deletes the collaboration (host) or leaves it (guest); already gone is done. One this
 * stack imported is left alone unless deleteAdoptedOnDestroy.
 */
async function remove(_id: string, props: CollaborationOutputs): Promise<void> {
  const inputs = COLLABORATION.parse(props);
  const session = portalSessionFor(inputs);
  const target = describeTarget(inputs, props.portalId);
  // An imported collaboration existed before the stack: it is deleted (or left) only on request.
  if (props.state === "adopted" && !inputs.deleteAdoptedOnDestroy) {
    logInfo(
      `Left the ${target} as it is: this stack imported it (set deleteAdoptedOnDestroy: true ` +
        "to delete it, or leave it as a guest, on destroy).",
    );
    return;
  }
  if (props.role === "guest" && !inputs.leaveAsGuest) {
    logInfo(`Left the ${target}: a guest leaves only with leaveAsGuest: true.`);
    return;
  }
  try {
    if (props.role === "host") {
      await deleteCollaboration(session, props.portalId, props.collaborationId);
      logInfo(`Deleted the ${target}; its sharing has stopped.`);
    } else {
      await removeParticipation(session, props.portalId, props.collaborationId);
      logInfo(`Portal ${props.portalId} no longer participates in the ${target}.`);
    }
  } catch (error) {
    // Already gone: destroy can be re-run.
    if (isNotFoundError(error)) {
      logInfo(`The ${target} no longer exists; nothing to delete.`);
      return;
    }
    const hint = isAuthError(error)
      ? " Check the credentials: the token may have expired, or the user is not an administrator."
      : "";
    throw new Error(
      `${props.role === "host" ? "Deleting" : "Leaving"} the ${target} failed: ` +
        `${messageOf(error)}.${hint} It stays in the stack; run \`pulumi destroy\` again.`,
      { cause: error },
    );
  }
}

/**
 * The Collaboration implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(COLLABORATION.rules, {
  diff,
  create,
  read,
  update,
  delete: remove,
});

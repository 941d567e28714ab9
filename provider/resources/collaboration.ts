/**
 * `Collaboration`: a stack owns the deletion of a distributed collaboration on a portal. Creating
 * the resource confirms the collaboration; destroying it deletes the collaboration (host) or
 * removes this portal's participation (guest).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  communitySelf,
  createPortalSession,
  deleteCollaboration,
  getCollaboration,
  isAuthError,
  isNotFoundError,
  portalSelf,
  removeParticipation,
} from "../client";
import { lazyProvider, type ResourceImplementation, withoutProvider } from "./lazy-provider";
import { type CheckFailure, checkInputs, parseValidInputs } from "./input-check";
import { httpUrlSchema, nonEmpty, tlsSchema } from "./input-schemas";
import { sameValue, withStateOnlyChanges } from "./state-diff";
import { type TlsArgs, type TlsSettings, transportFor } from "./tls";
import { logInfo, logWarn, messageOf } from "./log";
import { resourceOptions, TYPE_MODULE } from "./resource-options";
import { type PortalConnection, resolvePortalConnection } from "./connection";

/** Inputs of a `Collaboration` whose values are known. */
export interface CollaborationInputs {
  /** The portal's sharing API root. */
  sharingUrl: string;
  /** The collaboration's id. */
  collaborationId: string;
  /** The portal the collaboration is looked up on. */
  portalId?: string;
  /** A portal administrator's name. */
  username?: string;
  /** That administrator's password (a secret). */
  password?: string;
  /** A portal token instead of username and password (a secret). */
  token?: string;
  /** Whether destroy on a guest portal removes this portal's participation. */
  leaveAsGuest: boolean;
  /** How the portal's certificate is checked. */
  tls?: TlsSettings;
}

/** Outputs of a `Collaboration` as stored in state. */
export interface CollaborationOutputs extends CollaborationInputs {
  /** The portal id used: the input, or the portal's own id from portals/self. */
  portalId: string;
  /** Whether portalId was given (false: it was looked up and may be looked up again). */
  portalIdGiven: boolean;
  /** The collaboration's name, as the portal reports it. */
  name: string;
  /** Its description, as the portal reports it. */
  description: string;
  /** The id of the portal that hosts it. */
  hostPortalId: string;
  /** This portal's role in it. */
  role: "host" | "guest";
}

/**
 * The zod schema of the Collaboration inputs.
 *
 * @internal
 */
export function collaborationInputsSchema() {
  return z.strictObject({
    sharingUrl: httpUrlSchema(),
    collaborationId: nonEmpty(),
    portalId: nonEmpty().optional(),
    username: nonEmpty().optional(),
    password: nonEmpty().optional(),
    token: nonEmpty().optional(),
    leaveAsGuest: z.boolean().default(false),
    tls: tlsSchema(),
  });
}

/** Rules across fields: credentials are username and password, or a token. */
export function collaborationCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const withPassword = values.username !== undefined || values.password !== undefined;
  if (withPassword && values.token !== undefined) {
    return [
      { property: "token", reason: "give either username and password, or a token, not both" },
    ];
  }
  if (values.token !== undefined) return [];
  const failures: CheckFailure[] = [];
  if (values.username === undefined) {
    failures.push({
      property: "username",
      reason: "required (with password), unless a token is given",
    });
  }
  if (values.password === undefined) {
    failures.push({
      property: "password",
      reason: "required (with username), unless a token is given",
    });
  }
  return failures;
}

/** The sharing API's name for the portal one is signed in to: `portals/self`. */
const SELF = "self";

/** Inputs whose change means another collaboration (a replacement). */
const REPLACING_INPUTS = ["sharingUrl", "collaborationId", "portalId"] as const;
/** Inputs whose change only updates state. */
const STATE_ONLY_INPUTS = ["username", "password", "token", "leaveAsGuest", "tls"] as const;

/** Keys that exist only in outputs: left out when outputs are read back as inputs. */
const OUTPUT_ONLY_KEYS = ["portalIdGiven", "name", "description", "hostPortalId", "role"] as const;

function parseInputs(raw: unknown): CollaborationInputs {
  const values = withoutProvider(raw);
  // A portal id that was looked up (not given) is not an input.
  if (values.portalIdGiven === false) delete values.portalId;
  return parseValidInputs<CollaborationInputs>(
    "Collaboration",
    collaborationInputsSchema(),
    values,
    OUTPUT_ONLY_KEYS,
    collaborationCrossChecks,
  );
}

function sessionFor(inputs: CollaborationInputs) {
  const credentials: { username?: string; password?: string; token?: string } = {};
  if (inputs.token !== undefined) credentials.token = inputs.token;
  if (inputs.username !== undefined) credentials.username = inputs.username;
  if (inputs.password !== undefined) credentials.password = inputs.password;
  return createPortalSession({
    sharingUrl: inputs.sharingUrl,
    ...credentials,
    ...transportFor(inputs.sharingUrl, inputs.tls),
  });
}

function describeTarget(inputs: CollaborationInputs, portalId: string): string {
  return `collaboration ${inputs.collaborationId} on portal ${portalId} (${inputs.sharingUrl})`;
}

async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseInputs(raw);
  const session = sessionFor(inputs);
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
  if (role === "guest" && !inputs.leaveAsGuest) {
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
  };
  return { id: `${portalId}/${inputs.collaborationId}`, outs };
}

function diff(
  _id: string,
  olds: CollaborationOutputs,
  rawNews: unknown,
): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const replaces = REPLACING_INPUTS.filter((key) => {
    // A looked-up portalId changes only when the user gives one that differs ("self" does not).
    const looksUp = news.portalId === undefined || news.portalId === SELF;
    if (key === "portalId" && looksUp && !olds.portalIdGiven) return false;
    return !sameValue(olds[key], news[key]);
  });
  if (replaces.length > 0) return { changes: true, replaces: [...replaces] };
  const updates = STATE_ONLY_INPUTS.filter((key) => !sameValue(olds[key], news[key]));
  return { changes: updates.length > 0 };
}

async function update(
  _id: string,
  olds: CollaborationOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: withStateOnlyChanges(olds, parseInputs(rawNews), STATE_ONLY_INPUTS) };
}

async function read(id: string, props: CollaborationOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = parseInputs(props);
  const session = sessionFor(inputs);
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

async function remove(_id: string, props: CollaborationOutputs): Promise<void> {
  const inputs = parseInputs(props);
  const session = sessionFor(inputs);
  const target = describeTarget(inputs, props.portalId);
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

/** The Collaboration implementation the host runs; tests call it directly. */
export const implementation: ResourceImplementation = {
  check: async (_olds: unknown, news: unknown) =>
    checkInputs(collaborationInputsSchema(), news, collaborationCrossChecks),
  diff: async (id: string, olds: CollaborationOutputs, news: unknown) => diff(id, olds, news),
  create,
  read,
  update,
  delete: remove,
};

/** The serialized provider of `Collaboration`. */
export const collaborationProvider = lazyProvider("collaboration");

/** Arguments of a {@link Collaboration}. Every field accepts a `pulumi.Input`. */
export interface CollaborationArgs {
  /**
   * The portal's sharing API root, e.g. `https://portal.example.com/portal/sharing/rest`.
   * Default: `connection.sharingUrl`, stack config `arcgis-admin:sharingUrl`,
   * `ARCGIS_ADMIN_SHARING_URL`.
   */
  sharingUrl?: pulumi.Input<string>;
  /**
   * A portal connection declared once (see {@link PortalConnection}). Credentials come as a
   * whole from the nearest place that gives any: these arguments, the connection, else
   * `arcgis-admin:portalUsername` / `portalPassword` / `portalToken` (or
   * `ARCGIS_ADMIN_PORTAL_USERNAME` / `_PASSWORD` / `_TOKEN`).
   */
  connection?: PortalConnection;
  /** The collaboration's id. */
  collaborationId: pulumi.Input<string>;
  /** This portal's id; omitted, it is read from portals/self. */
  portalId?: pulumi.Input<string>;
  /** A portal administrator (with password), unless a token is given. */
  username?: pulumi.Input<string>;
  /** The administrator's password. Stored only as a secret. */
  password?: pulumi.Input<string>;
  /** A portal token instead of username and password. Stored only as a secret. */
  token?: pulumi.Input<string>;
  /** On a guest portal: make destroy remove this portal's participation (default false). */
  leaveAsGuest?: pulumi.Input<boolean>;
  /** TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. */
  tls?: TlsArgs;
}

/**
 * A distributed collaboration whose deletion this stack owns: `pulumi destroy` calls
 * `POST {base_url}/portals/<portal_id>/collaborations/<id>/delete` (host) or
 * `.../removeParticipation` (guest, with leaveAsGuest).
 *
 * @example
 * ```ts
 * new Collaboration("partners", {
 *   sharingUrl: "https://portal.example.com/portal/sharing/rest",
 *   collaborationId: "8ba8a0b9c5d94c35b2c8f3a1e4d2c7b6",
 *   username: "portaladmin",
 *   password: config.requireSecret("portalPassword"),
 * });
 * ```
 */
export class Collaboration extends pulumi.dynamic.Resource {
  /** The portal's sharing API root. */
  declare public readonly sharingUrl: pulumi.Output<string>;
  /** The collaboration's id. */
  declare public readonly collaborationId: pulumi.Output<string>;
  /** Whether portalId was given (false: it was read from portals/self). */
  declare public readonly portalIdGiven: pulumi.Output<boolean>;
  /** The administrator's name, when one was given. */
  declare public readonly username: pulumi.Output<string | undefined>;
  /** The administrator's password (secret), when one was given. */
  declare public readonly password: pulumi.Output<string | undefined>;
  /** The token (secret), when one was given. */
  declare public readonly token: pulumi.Output<string | undefined>;
  /** Whether destroy on a guest portal removes this portal's participation. */
  declare public readonly leaveAsGuest: pulumi.Output<boolean>;
  /** The TLS settings used to reach the portal. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The portal id used. */
  declare public readonly portalId: pulumi.Output<string>;
  /** The collaboration's name. */
  declare public readonly name: pulumi.Output<string>;
  /** The collaboration's description. */
  declare public readonly description: pulumi.Output<string>;
  /** The host portal's id. */
  declare public readonly hostPortalId: pulumi.Output<string>;
  /** This portal's role in the collaboration. */
  declare public readonly role: pulumi.Output<"host" | "guest">;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the collaboration and credentials; see {@link CollaborationArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: CollaborationArgs, opts?: pulumi.CustomResourceOptions) {
    const { connection: _connection, ...own } = args;
    const connection = resolvePortalConnection("Collaboration", name, args);
    super(
      collaborationProvider,
      name,
      {
        // Every output is listed, so that each is a property of the resource.
        leaveAsGuest: args.leaveAsGuest,
        ...own,
        ...connection,
        portalId: args.portalId,
        portalIdGiven: undefined,
        name: undefined,
        description: undefined,
        hostPortalId: undefined,
        role: undefined,
      },
      resourceOptions("Collaboration", name, opts, ["password", "token"]),
      TYPE_MODULE,
      "Collaboration",
    );
  }
}

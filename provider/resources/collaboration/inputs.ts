/**
 * The inputs of a `Collaboration`: their types, the zod schema that checks them, the credential
 * rule across fields, and which inputs replace the resource and which only update state.
 */
import { z } from "zod";
import { type CheckFailure } from "../common/input-check";
import { httpUrlSchema, nonEmpty, tlsSchema } from "../common/input-schemas";
import { PORTAL_ACCESS_INPUTS } from "../common/portal-session";
import { type TlsSettings } from "../common/tls";
import { inputReader, type InputRules } from "../common/implementation";
import type { Assert, ParsesTo } from "../common/schema-match";
import { COLLABORATION } from "./resource";

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
  /**
   * Whether destroy deletes (host) or leaves (guest, with leaveAsGuest) a collaboration this
   * stack imported with `pulumi import`. Default false: an imported one is left as it is.
   */
  deleteAdoptedOnDestroy: boolean;
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
  /**
   * `confirmed` when the program declared it, `adopted` when `pulumi import` brought it in
   * (absent from state written before it existed: declared).
   */
  state?: "confirmed" | "adopted";
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
    deleteAdoptedOnDestroy: z.boolean().default(false),
    tls: tlsSchema(),
  });
}

/**
 * The hand-written {@link CollaborationInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type CollaborationInputsMatch = Assert<
  ParsesTo<ReturnType<typeof collaborationInputsSchema>, CollaborationInputs>
>;

/**
 * Rules across fields: credentials are username and password, or a token.
 *
 * @internal
 */
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

/**
 * The Collaboration's input rules.
 *
 * @internal
 */
export const COLLABORATION_INPUTS: InputRules = {
  frame: COLLABORATION,
  // A portal id that was looked up (not given) is not an input.
  fromOutputs: (values) => {
    if (values.portalIdGiven === false) delete values.portalId;
  },
  schema: collaborationInputsSchema,
  crossChecks: collaborationCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given (inputs, or outputs read
 * back as inputs).
 *
 * @internal
 */
export const parseCollaborationInputs = inputReader<CollaborationInputs>(COLLABORATION_INPUTS);

/**
 * The sharing API's name for the portal one is signed in to: `portals/self`.
 *
 * @internal
 */
export const SELF = "self";

/**
 * Inputs whose change means another collaboration (a replacement).
 *
 * @internal
 */
export const REPLACING_INPUTS = ["sharingUrl", "collaborationId", "portalId"] as const;

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = [
  ...PORTAL_ACCESS_INPUTS,
  "leaveAsGuest",
  "deleteAdoptedOnDestroy",
] as const;

/**
 * Every input and output of a `Collaboration`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/collaboration.md's
 * table are derived from it.
 */
import { z } from "zod";
import { type CheckFailure, defineResource } from "../common/inputs/definition";
import { nonEmpty } from "../common/inputs/schemas";
import { portalInputs, portalTlsInput } from "../common/inputs/portal";
import { resourceFrame } from "../common/pulumi/frame";
import type { CollaborationInputs } from "./generated";

const portal = portalInputs();

/**
 * The sharing API's name for the portal one is signed in to: `portals/self`.
 *
 * @internal
 */
export const SELF = "self";

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
 *
 * @internal
 */
export const COLLABORATION_DEFINITION = defineResource({
  type: "Collaboration",
  folder: "collaboration",
  doc:
    "A partnered or distributed collaboration on a portal, as the portal reports it; destroy " +
    "deletes it (host) or leaves it (guest).",
  base: "PortalConnectionArgs",
  argsDoc:
    "Arguments of a {@link Collaboration}: the portal's connection ({@link PortalConnectionArgs}) " +
    "and the collaboration. Every field accepts a `pulumi.Input`.",
  inputs: {
    sharingUrl: {
      ...portal.sharingUrl,
      doc: "The portal's sharing API root (a web adaptor prefix is fine). " + portal.sharingUrl.doc,
    },
    collaborationId: {
      schema: nonEmpty,
      doc: "The collaboration's id.",
      replaces: true,
    },
    portalId: {
      schema: () => nonEmpty().optional(),
      doc:
        'This portal\'s id; omitted, it is read from portals/self (`"self"` means this portal). ' +
        "Host or guest is decided by this portal's own id.",
      defaultText: "the portal's own id (`portals/self`)",
      replaces: true,
    },
    username: {
      ...portal.username,
      doc: "An administrator of the portal (`org_admin`), with password, unless a token is given.",
    },
    password: portal.password,
    token: {
      ...portal.token,
      doc:
        "A portal token instead of username and password. Stored only as a secret. A token " +
        "cannot be renewed: give a password for long-lived stacks.",
    },
    leaveAsGuest: {
      schema: () => z.boolean().default(false),
      doc: "On a guest portal: make destroy remove this portal's participation (default false).",
      outputDoc: "Whether destroy on a guest portal removes this portal's participation.",
      stateOnly: true,
    },
    deleteAdoptedOnDestroy: {
      schema: () => z.boolean().default(false),
      doc:
        "For a collaboration imported with `pulumi import` (through the provider plugin): make " +
        "destroy delete it (host) or leave it (guest, with leaveAsGuest). Default false: an " +
        "imported one is left as it is.",
      outputDoc: "Whether destroy deletes or leaves a collaboration this stack imported.",
      stateOnly: true,
    },
    tls: portalTlsInput(),
  },
  outputs: {
    portalId: {
      type: "string",
      doc: "The portal id used: the input, or the portal's own id from portals/self.",
    },
    portalIdGiven: {
      type: "boolean",
      doc: "Whether portalId was given (false: it was looked up and may be looked up again).",
    },
    name: { type: "string", doc: "The collaboration's name, as the portal reports it." },
    description: { type: "string", doc: "Its description, as the portal reports it." },
    hostPortalId: { type: "string", doc: "The id of the portal that hosts it." },
    role: { type: '"host" | "guest"', doc: "This portal's role in it." },
    state: {
      type: '"confirmed" | "adopted"',
      optional: true,
      doc:
        "`confirmed` when the program declared it, `adopted` when `pulumi import` brought it in " +
        "(absent from state written before it existed: declared).",
    },
  },
  operation: "`POST {base_url}/portals/<id>/collaborations/<id>/delete`",
  summary: "Deletes a distributed collaboration when the stack is destroyed.",
  connection: "portal",
  importable: true,
  crossChecks: collaborationCrossChecks,
  // A portal id that was looked up (not given) is not an input.
  fromOutputs: (values) => {
    if (values.portalIdGiven === false) delete values.portalId;
  },
});

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
 * The frame of a `Collaboration`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const COLLABORATION = resourceFrame<CollaborationInputs>()(COLLABORATION_DEFINITION);

/**
 * The inputs of a `Collaboration` as the lifecycle reads them: the schema and lists derived from
 * its definition (definition.ts), and the credential rule across fields.
 */
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { COLLABORATION_DEFINITION } from "./definition";
import type { CollaborationInputs } from "./generated";
import { COLLABORATION } from "./resource";

export type { CollaborationInputs, CollaborationOutputs } from "./generated";

/**
 * The zod schema of the Collaboration inputs.
 *
 * @internal
 */
export function collaborationInputsSchema() {
  return inputsSchema(COLLABORATION_DEFINITION);
}

/**
 * The generated {@link CollaborationInputs} and the schema agree (a build error otherwise).
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
export const REPLACING_INPUTS = inputsWith(COLLABORATION_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(COLLABORATION_DEFINITION, "stateOnly");

/**
 * The inputs of a `SystemProperties` as the lifecycle reads them: the schema and lists derived
 * from its definition (definition.ts), and the rules across fields.
 */
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { SYSTEM_PROPERTIES_DEFINITION } from "./definition";
import type { SystemPropertiesInputs } from "./generated";
import { SYSTEM_PROPERTIES } from "./resource";

export type { SystemPropertiesInputs, SystemPropertiesOutputs } from "./generated";
export { DEFAULT_CHANGE_MS } from "./definition";

export type { ManagedSystemProperties, ReportedSystemProperties } from "./values";

/**
 * The zod schema of the SystemProperties inputs.
 *
 * @internal
 */
export function systemPropertiesInputsSchema() {
  return inputsSchema(SYSTEM_PROPERTIES_DEFINITION);
}

/**
 * The generated {@link SystemPropertiesInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type SystemPropertiesInputsMatch = Assert<
  ParsesTo<ReturnType<typeof systemPropertiesInputsSchema>, SystemPropertiesInputs>
>;

/**
 * Rules across fields: none. An empty `properties` manages nothing and is allowed, because a
 * refresh that finds every declared property gone from the server records it so.
 *
 * @internal
 */
export function systemPropertiesCrossChecks(_values: Record<string, unknown>): CheckFailure[] {
  return [];
}

/**
 * The SystemProperties' input rules.
 *
 * @internal
 */
export const SYSTEM_PROPERTIES_INPUTS: InputRules = {
  frame: SYSTEM_PROPERTIES,
  schema: systemPropertiesInputsSchema,
  crossChecks: systemPropertiesCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseSystemPropertiesInputs =
  inputReader<SystemPropertiesInputs>(SYSTEM_PROPERTIES_INPUTS);

/**
 * Inputs whose change means another server (a replacement), when the URL reaches another place:
 * another spelling of the same URL only updates state.
 *
 * @internal
 */
export const REPLACING_INPUTS = inputsWith(SYSTEM_PROPERTIES_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(SYSTEM_PROPERTIES_DEFINITION, "stateOnly");

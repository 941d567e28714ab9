/**
 * The inputs of a `LogSettings` as the lifecycle reads them: the schema and lists derived from
 * its definition (definition.ts), and the rules across fields.
 */
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { LOG_SETTINGS_DEFINITION } from "./definition";
import type { LogSettingsInputs } from "./generated";
import { LOG_SETTINGS, MANAGED_LOG_FIELDS } from "./resource";

export type { LogSettingsInputs, LogSettingsOutputs } from "./generated";
export { DEFAULT_CHANGE_MS } from "./definition";
export { LOG_SETTINGS_LEVELS, type ReportedLogSettings } from "./values";

/** Log levels of every product (ArcGIS Server's list; DSC sends the same names to the others). */

/**
 * One of {@link MANAGED_LOG_FIELDS} (the settings a LogSettings can manage, listed with its
 * outputs in resource.ts).
 *
 * @internal
 */
export type ManagedField = (typeof MANAGED_LOG_FIELDS)[number];

/**
 * The zod schema of the LogSettings inputs.
 *
 * @internal
 */
export function logSettingsInputsSchema() {
  return inputsSchema(LOG_SETTINGS_DEFINITION);
}

/**
 * The generated {@link LogSettingsInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type LogSettingsInputsMatch = Assert<
  ParsesTo<ReturnType<typeof logSettingsInputsSchema>, LogSettingsInputs>
>;

/**
 * Rules across fields, reported together with the per-field problems.
 *
 * @internal
 */
export function logSettingsCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (MANAGED_LOG_FIELDS.every((field) => values[field] === undefined)) {
    failures.push({
      property: "logLevel",
      reason: `declare at least one of ${MANAGED_LOG_FIELDS.join(", ")}: a LogSettings with none would manage nothing`,
    });
  }
  if (values.serverType === "arcgis-server" && values.usageMeteringEnabled !== undefined) {
    failures.push({
      property: "usageMeteringEnabled",
      reason:
        "ArcGIS Server's logs/settings does not report usageMeteringEnabled (only Mission, " +
        "Notebook and Video Server do); remove it",
    });
  }
  return failures;
}

/**
 * The LogSettings' input rules.
 *
 * @internal
 */
export const LOG_SETTINGS_INPUTS: InputRules = {
  frame: LOG_SETTINGS,
  schema: logSettingsInputsSchema,
  crossChecks: logSettingsCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseLogSettingsInputs = inputReader<LogSettingsInputs>(LOG_SETTINGS_INPUTS);

/**
 * Inputs whose change means another server (a replacement), when the URL reaches another place:
 * another spelling of the same URL only updates state.
 *
 * @internal
 */
export const REPLACING_INPUTS = inputsWith(LOG_SETTINGS_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(LOG_SETTINGS_DEFINITION, "stateOnly");

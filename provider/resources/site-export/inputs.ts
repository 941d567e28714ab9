/**
 * The inputs of a `SiteExport` as the lifecycle reads them: the schema and lists derived from its
 * definition (definition.ts), and the rule across fields.
 */
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { SITE_EXPORT_DEFINITION } from "./definition";
import type { SiteExportInputs } from "./generated";
import { SITE_EXPORT } from "./resource";

export type { SiteExportInputs, SiteExportOutputs, SiteExportTimeouts } from "./generated";
export { DEFAULT_EXPORT_MS } from "./definition";

/**
 * The zod schema of the SiteExport inputs.
 *
 * @internal
 */
export function siteExportInputsSchema() {
  return inputsSchema(SITE_EXPORT_DEFINITION);
}

/**
 * The generated {@link SiteExportInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type SiteExportInputsMatch = Assert<
  ParsesTo<ReturnType<typeof siteExportInputsSchema>, SiteExportInputs>
>;

/**
 * Rules across fields, reported together with the per-field problems.
 *
 * @internal
 */
export function siteExportCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const key of ["downloadTo", "uploadTo"] as const) {
    if (values.location !== undefined && values[key] !== undefined) {
      failures.push({
        property: key,
        reason:
          "cannot be combined with location: the server answers a download URL only when " +
          "location is omitted",
      });
    }
  }
  if (values.downloadTo !== undefined && values.uploadTo !== undefined) {
    failures.push({
      property: "uploadTo",
      reason: "cannot be combined with downloadTo: give one destination for the archive",
    });
  }
  if (values.uploadTo === undefined) {
    for (const key of ["objectStore", "objectStoreCredentials", "deleteBackupOnDestroy"]) {
      if (values[key] !== undefined) {
        failures.push({ property: key, reason: "applies only with uploadTo" });
      }
    }
  }
  return failures;
}

/**
 * The SiteExport's input rules.
 *
 * @internal
 */
export const SITE_EXPORT_INPUTS: InputRules = {
  frame: SITE_EXPORT,
  // In outputs, `location` is the server's answer and the input is `requestedLocation`.
  fromOutputs: (values) => {
    if (values.requestedLocation !== undefined) values.location = values.requestedLocation;
    else if (values.fileName !== undefined) delete values.location;
    delete values.requestedLocation;
  },
  schema: siteExportInputsSchema,
  crossChecks: siteExportCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given (inputs, or outputs read
 * back as inputs).
 *
 * @internal
 */
export const parseSiteExportInputs = inputReader<SiteExportInputs>(SITE_EXPORT_INPUTS);

/**
 * Inputs whose change means a new export (a replacement).
 *
 * @internal
 */
export const REPLACING_INPUTS = inputsWith(SITE_EXPORT_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(SITE_EXPORT_DEFINITION, "stateOnly");

/**
 * The inputs of a `SiteUpgrade` as the lifecycle reads them: the schema and lists derived from
 * its definition (definition.ts).
 */
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { SITE_UPGRADE_DEFINITION } from "./definition";
import type { SiteUpgradeInputs } from "./generated";
import { SITE_UPGRADE } from "./resource";

export type { SiteUpgradeInputs, SiteUpgradeOutputs } from "./generated";
export { DEFAULT_UPGRADE_MS } from "./definition";

export type { SiteUpgradeOutcome } from "./values";

/**
 * The zod schema of the SiteUpgrade inputs.
 *
 * @internal
 */
export function siteUpgradeInputsSchema() {
  return inputsSchema(SITE_UPGRADE_DEFINITION);
}

/**
 * The generated {@link SiteUpgradeInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type SiteUpgradeInputsMatch = Assert<
  ParsesTo<ReturnType<typeof siteUpgradeInputsSchema>, SiteUpgradeInputs>
>;

/**
 * Rules across fields: `runAsync` only on ArcGIS Server, the one product with an asynchronous
 * upgrade (Chef's Mission, Notebook and Video cookbooks and DSC's ArcGIS_MissionServerUpgrade
 * send it synchronously only).
 *
 * @internal
 */
export function siteUpgradeCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  if (values.runAsync === true && values.serverType !== "arcgis-server") {
    return [
      {
        property: "runAsync",
        reason:
          "only ArcGIS Server (11.4 and later) upgrades asynchronously; remove runAsync, or " +
          "set serverType: arcgis-server",
      },
    ];
  }
  return [];
}

/**
 * The SiteUpgrade's input rules.
 *
 * @internal
 */
export const SITE_UPGRADE_INPUTS: InputRules = {
  frame: SITE_UPGRADE,
  schema: siteUpgradeInputsSchema,
  crossChecks: siteUpgradeCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseSiteUpgradeInputs = inputReader<SiteUpgradeInputs>(SITE_UPGRADE_INPUTS);

/**
 * Inputs whose change means another server (a replacement), when the URL reaches another place.
 *
 * @internal
 */
export const REPLACING_INPUTS = inputsWith(SITE_UPGRADE_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(SITE_UPGRADE_DEFINITION, "stateOnly");

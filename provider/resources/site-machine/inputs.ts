/**
 * The inputs of a `SiteMachine` as the lifecycle reads them: the schema and lists derived from
 * its definition (definition.ts), and the rule across fields.
 */
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { sameUrl } from "../common/connection/urls";
import { SITE_MACHINE_DEFINITION } from "./definition";
import type { SiteMachineInputs } from "./generated";
import { SITE_MACHINE } from "./resource";

export type { SiteMachineInputs, SiteMachineOutputs } from "./generated";
export { DEFAULT_JOIN_MS, DEFAULT_SERVER_READY_MS } from "./definition";

/**
 * The zod schema of the SiteMachine inputs.
 *
 * @internal
 */
export function siteMachineInputsSchema() {
  return inputsSchema(SITE_MACHINE_DEFINITION);
}

/**
 * The generated {@link SiteMachineInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type SiteMachineInputsMatch = Assert<
  ParsesTo<ReturnType<typeof siteMachineInputsSchema>, SiteMachineInputs>
>;

/**
 * A machine cannot join the site through itself, under any spelling of its URL (host case, a
 * default port, a trailing slash, `localhost` for a loopback address): a SiteMachine is never the
 * site's own machine, which its destroy would otherwise take out of the site.
 *
 * @internal
 */
export function siteMachineCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const { adminUrl, siteAdminUrl } = values;
  if (typeof adminUrl !== "string" || typeof siteAdminUrl !== "string") return [];
  if (!sameUrl(adminUrl, siteAdminUrl)) return [];
  return [
    {
      property: "siteAdminUrl",
      reason:
        "must be the admin URL of another machine, one that is already in the site (it names " +
        "the joining machine itself, the same URL spelled " +
        (adminUrl === siteAdminUrl ? "alike" : "differently") +
        ")",
    },
  ];
}

/**
 * The SiteMachine's input rules.
 *
 * @internal
 */
export const SITE_MACHINE_INPUTS: InputRules = {
  frame: SITE_MACHINE,
  schema: siteMachineInputsSchema,
  crossChecks: siteMachineCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseSiteMachineInputs = inputReader<SiteMachineInputs>(SITE_MACHINE_INPUTS);

/**
 * Inputs whose change means another machine or another site: unregister, then join anew.
 *
 * @internal
 */
export const REPLACING_INPUTS = inputsWith(SITE_MACHINE_DEFINITION, "replaces");

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(SITE_MACHINE_DEFINITION, "stateOnly");

/**
 * The inputs of a `Site` as the lifecycle reads them: the schema derived from its definition
 * (definition.ts, which generated.ts writes the public types from), and the groups of inputs the
 * lifecycle treats alike. The rules across fields are in rules.ts.
 */
import type { z } from "zod";
import { type CheckFailure, containsUnknown } from "../common/inputs/check";
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { changedInputs } from "../common/pulumi/state-diff";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import { SITE_DEFINITION } from "./definition";
import type {
  SiteConfigStoreConnection,
  SiteDirectory,
  SiteInputs,
  SiteLogSettings,
  SiteTimeouts,
} from "./generated";
import { SITE } from "./resource";

export type {
  SiteConfigStoreConnection,
  SiteDirectory,
  SiteInputs,
  SiteLogSettings,
  SiteTimeouts,
} from "./generated";
export { CLEANUP_MODES, CONFIG_STORE_TYPES, DIRECTORY_TYPES, LOG_LEVELS } from "./definition";
/** @internal */
export { DEFAULT_CREATE_MS, DEFAULT_SERVER_READY_MS } from "./definition";
import { allCrossChecks } from "./rules";

/**
 * The zod schema of the Site inputs. Built on demand: schemas must never be serialized.
 *
 * @internal
 */
export function siteInputsSchema() {
  return inputsSchema(SITE_DEFINITION);
}

/**
 * Inputs that define the site itself: createNewSite cannot run again to change them.
 *
 * @internal
 */
export const SITE_DEFINING_INPUTS = inputsWith(SITE_DEFINITION, "replaces");

/**
 * Inputs that an update applies to the existing site: log settings are written with
 * `logs/settings/edit` (as DSC's Update-LogSettings does), so a change, or drift that a refresh
 * found, is corrected in place.
 *
 * @internal
 */
export const APPLIED_INPUTS = ["logSettings"] as const;

/**
 * The administrator's credentials. They do not define the site: a change means the password was
 * changed (or another administrator is used) on the server, so it only updates state, once the
 * new credentials have proved that they obtain a token. Never a replacement.
 *
 * @internal
 */
export const CREDENTIAL_INPUTS = ["username", "password"] as const;

/**
 * Inputs that only change how the provider behaves; changing them touches nothing.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = inputsWith(SITE_DEFINITION, "stateOnly");

/**
 * The site-defining inputs whose new value differs from the old (URLs by the place they name:
 * another spelling is no change). State written before `serverType` existed is taken to be of
 * the declared product.
 *
 * @param olds - the old outputs, or the old inputs.
 * @param news - the new inputs.
 * @internal
 */
export function changedDefiningInputs(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): (typeof SITE_DEFINING_INPUTS)[number][] {
  const before = { ...olds, serverType: olds.serverType ?? news.serverType };
  return changedInputs(SITE_DEFINITION, SITE_DEFINING_INPUTS, before, news);
}

/**
 * The refusal of a change to what defines the site while `deleteSiteOnDestroy` was not set
 * before it: createNewSite cannot run again on a machine in a site, and the replacement would
 * leave the old site in place. Known from the old and new inputs alone, so check() says it (the
 * engine shows it once, under the resource), before any diff; a value still unknown (preview) is
 * compared once it is known.
 *
 * @param olds - the old outputs, or the old inputs.
 * @param news - the new inputs.
 * @returns the failure, or none when the change can be made (none, or a replacement).
 * @internal
 */
export function siteChangeRefusals(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): CheckFailure[] {
  // A Site not in the stack yet has nothing to change.
  if (Object.keys(olds).length === 0) return [];
  const changed = changedDefiningInputs(olds, news);
  if (changed.length === 0 || changed.some((key) => containsUnknown(news[key]))) return [];
  if (olds.deleteSiteOnDestroy === true) return [];
  return [
    {
      property: "",
      reason:
        `Cannot change ${changed.join(", ")} of the site at ${String(olds.adminUrl)}: the ` +
        "machine is already in a site, and createNewSite cannot run on it again, so the site " +
        "cannot be updated in place. Revert the change; or, to delete the site and create it " +
        "anew, first set deleteSiteOnDestroy: true and run `pulumi up`, then make the change.",
    },
  ];
}

/**
 * What a Site's inputs are, for `check()` and for reading them back from state.
 *
 * @internal
 */
export const SITE_INPUTS: InputRules = {
  frame: SITE,
  schema: siteInputsSchema,
  crossChecks: allCrossChecks,
};

/**
 * Reads inputs, or outputs read back as inputs, that must be valid; throws what is not.
 *
 * @internal
 */
export const parseInputs = inputReader<SiteInputs>(SITE_INPUTS);

type SiteSchemaOutput = z.output<ReturnType<typeof siteInputsSchema>>;
type SameKeys<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? true
    : false
  : false;
type Assert<T extends true> = T;

/**
 * Fails to compile when the generated input types and the schema drift apart: the same keys
 * at every level, and every {@link SiteInputs} accepted by the schema.
 *
 * @internal
 */
export type SiteInputsMatchSchema = [
  Assert<SameKeys<SiteInputs, SiteSchemaOutput>>,
  Assert<
    SameKeys<SiteConfigStoreConnection, NonNullable<SiteSchemaOutput["configStoreConnection"]>>
  >,
  Assert<SameKeys<SiteDirectory, NonNullable<SiteSchemaOutput["directories"]>[number]>>,
  Assert<SameKeys<SiteLogSettings, NonNullable<SiteSchemaOutput["logSettings"]>>>,
  Assert<SameKeys<SiteTimeouts, SiteSchemaOutput["timeouts"]>>,
  Assert<SiteInputs extends z.input<ReturnType<typeof siteInputsSchema>> ? true : false>,
];

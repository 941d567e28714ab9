/**
 * How a Site's inputs change: which define the site (a change is a replacement, refused unless
 * `deleteSiteOnDestroy` was set), which an update applies to it, and the credentials.
 */
import { type CheckFailure, containsUnknown } from "../common/inputs/check";
import { SITE } from "./definition";

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
): (typeof SITE.replacing)[number][] {
  const before = { ...olds, serverType: olds.serverType ?? news.serverType };
  return SITE.changes(before, news).replaces;
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

/**
 * What a resource whose create is sent once (Site's and PortalSite's createNewSite) tells the
 * user about the one-shot rule: a target that has what the call makes already (adopt it, or
 * alias a renamed resource), an answer that was lost (never sent again), and what appeared after
 * it that cannot be shown to be the stack's own.
 */
import { currentRuntime } from "../inputs/sources";

/** How the program gives a resource its old name, in its own language's syntax. */
function aliasOption(): string {
  return currentRuntime() === "program"
    ? 'opts: { aliases: [{ name: "<old name>" }] }'
    : "the resource option aliases, with the old name";
}

/** What the message names: the target's state, the call, the thing it makes, who may adopt it. */
export interface OneShotSubject {
  /** e.g. "The machine at https://… already participates in a site". */
  found: string;
  /** The call sent once, e.g. `createNewSite`. */
  operation: string;
  /** What the call makes, e.g. "site" or "portal's site". */
  thing: string;
  /** Whose credentials adoption needs, e.g. "the site's administrator credentials". */
  credentials: string;
}

/**
 * The target has what the one-shot call makes already and adoptExisting is not set: adopt it, or
 * give a renamed resource its alias.
 */
export function alreadyThereMessage(subject: OneShotSubject): string {
  const { found, operation, thing, credentials } = subject;
  return (
    `${found}, and ${operation} cannot run on it again. To manage that ${thing} with this ` +
    `resource, set adoptExisting: true and give ${credentials}. If you renamed this resource in ` +
    `your program, add an alias instead (${aliasOption()}) so that Pulumi keeps the ${thing} it ` +
    "already manages."
  );
}

/** The warning when the one-shot call's answer was lost: what is watched instead of resending. */
export function lostAnswerNotice(
  operation: string,
  target: string,
  lost: string,
  watching: string,
): string {
  return (
    `The answer to ${operation} on ${target} was lost (${lost}); ${watching}. ${operation} is ` +
    "not sent again."
  );
}

/**
 * After a lost answer, what appeared cannot be shown to be what this stack asked for: it is not
 * recorded as created; adoptExisting takes it over.
 */
export function unprovenAfterLostAnswer(
  subject: Pick<OneShotSubject, "operation" | "thing">,
  appeared: string,
  lost: string,
  why: string,
): string {
  const { operation, thing } = subject;
  return (
    `${appeared} after the answer to this stack's ${operation} was lost (${lost}), but it ` +
    `cannot be shown to be the one this stack asked for (${why}). It is not recorded as created ` +
    "by this stack: another client may have created it. If it is the " +
    `${thing} you want, set adoptExisting: true and run \`pulumi up\`.`
  );
}

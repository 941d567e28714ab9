/**
 * Settings a resource keeps on a server and can restore on destroy (LogSettings' log settings,
 * SystemProperties' properties): the one record of what this stack wrote, and the one rule of
 * what a destroy puts back.
 *
 * The record (`written`: the last value this stack wrote to each setting) changes only when this
 * stack writes; a refresh, an import, an adoption or a create that finds the declared values
 * already there never adds to it. So a destroy restores a setting only where the server still
 * holds exactly what this stack wrote: a value someone else set since, or one the stack found in
 * place, is never taken for the stack's own.
 */
import { sameValue } from "../pulumi/state-diff";

/** Settings by name, as the server reports them (plain JSON). */
export type Settings = Record<string, unknown>;

/**
 * What a resource records of the settings it keeps: the value each had before this stack first
 * wrote it (`previous`; `added` when the server did not have it) and the last value this stack
 * wrote to each (`written`). `written` is absent from state written before it was recorded.
 */
export interface Ledger {
  previous?: Settings | undefined;
  added?: readonly string[] | undefined;
  written?: Settings | undefined;
}

/** What one write step did: the settings as read just before it, and what it wrote. */
export interface Write {
  /** The settings the resource declares now (its managed names). */
  declared: readonly string[];
  /** The server's settings as read just before the write. */
  before: Settings;
  /** The values this step wrote (none when the server held every declared value already). */
  wrote: Settings;
}

/**
 * The ledger after a create or update. A setting no longer declared is forgotten; one written
 * for the first time has its `previous` taken from `before` (the value it replaced), one not
 * written keeps its earlier record, or is recorded from `before` when it has none. Settings
 * outside `declared` in `olds.previous` are kept when `keepUndeclared` is set (LogSettings
 * records the server's whole set at create).
 */
export function ledgerAfter(
  olds: Ledger | undefined,
  step: Write,
  keepUndeclared = false,
): { previous: Settings; added: string[]; written: Settings } {
  const oldPrevious = olds?.previous ?? {};
  const oldAdded = olds?.added ?? [];
  const oldWritten = olds?.written;
  const previous: Settings = keepUndeclared ? { ...(olds?.previous ?? step.before) } : {};
  const added: string[] = [];
  const written: Settings = {};
  for (const key of step.declared) {
    const writesNow = Object.hasOwn(step.wrote, key);
    const recorded = Object.hasOwn(oldPrevious, key) || oldAdded.includes(key);
    // A record from before `written` existed is kept: it may be this stack's own first write.
    const firstWrite = writesNow && oldWritten !== undefined && !Object.hasOwn(oldWritten, key);
    if (recorded && !firstWrite) {
      if (Object.hasOwn(oldPrevious, key)) previous[key] = oldPrevious[key];
      else added.push(key);
    } else if (Object.hasOwn(step.before, key)) {
      previous[key] = step.before[key];
    } else {
      delete previous[key];
      added.push(key);
    }
    if (writesNow) written[key] = step.wrote[key];
    else if (oldWritten !== undefined && Object.hasOwn(oldWritten, key)) {
      written[key] = oldWritten[key];
    }
  }
  return { previous, added, written };
}

/** What a destroy puts back, and what it leaves, by the one rule. */
export interface RestorePlan {
  /** Settings to write back, with the value each had before this stack wrote it. */
  set: Settings;
  /** Settings to remove: the server did not have them before this stack wrote them. */
  remove: string[];
  /** Declared settings left as they are, each with why. */
  left: { key: string; why: string }[];
}

/**
 * What a destroy restores: each setting this stack wrote whose value on the server is still
 * exactly what it wrote goes back to its `previous` value (or is removed when it was `added`).
 * A setting changed since, one this stack never wrote, and every setting of a state without a
 * `written` record, are left as they are, each with its reason.
 */
export function restorePlan(
  ledger: Ledger,
  declared: readonly string[],
  current: Settings,
): RestorePlan {
  const plan: RestorePlan = { set: {}, remove: [], left: [] };
  const now = (key: string) => shown(current, key);
  for (const key of declared) {
    if (ledger.written === undefined) {
      plan.left.push({ key, why: `now ${now(key)}; ${UNRECORDED}` });
      continue;
    }
    if (!Object.hasOwn(ledger.written, key)) {
      plan.left.push({ key, why: `now ${now(key)}; this stack has no record of writing it` });
      continue;
    }
    if (!Object.hasOwn(current, key) || !sameValue(current[key], ledger.written[key])) {
      plan.left.push({
        key,
        why: `now ${now(key)}, not the ${JSON.stringify(ledger.written[key])} this stack wrote: someone else changed it since`,
      });
      continue;
    }
    if ((ledger.added ?? []).includes(key)) plan.remove.push(key);
    else if (Object.hasOwn(ledger.previous ?? {}, key)) {
      const before = ledger.previous![key];
      if (!sameValue(before, current[key])) plan.set[key] = before;
    }
  }
  return plan;
}

/** A setting's value as `settings` holds it, for a message ("absent" when it has none). */
export function shown(settings: Settings, key: string): string {
  return Object.hasOwn(settings, key) ? JSON.stringify(settings[key]) : "absent";
}

const UNRECORDED =
  "the stack's state was written by an earlier version of pulumi-arcgis-admin, which did not " +
  "record what it wrote, so it cannot tell its own value from someone else's";

/** The line a destroy says for what it left, or undefined when it left nothing. */
export function leftMessage(plan: RestorePlan, what: string): string | undefined {
  if (plan.left.length === 0) return undefined;
  return (
    `Left ${plan.left.map((l) => `${l.key} (${l.why})`).join(", ")} of ${what} as ` +
    `${plan.left.length === 1 ? "it is" : "they are"}; restoreOnDestroy puts back only what ` +
    "the server still holds as this stack wrote it."
  );
}

/**
 * The warning of a create with `restoreOnDestroy` that wrote nothing: the server already held
 * every declared value (someone else's, or a killed earlier run's), so a destroy will have
 * nothing of this stack's to put back.
 */
export function nothingWrittenWarning(what: string): string {
  return (
    `The server already holds every declared value of ${what}, so this stack wrote none of ` +
    "them and restoreOnDestroy will leave them as they are on destroy. If a killed earlier " +
    "`pulumi up` wrote them, the values from before it are not known to this stack: put them " +
    "back by hand after the destroy if needed."
  );
}

/**
 * Comparing state: equality of JSON-like values, the inputs a diff finds changed (URL inputs by
 * the place they name), and the outputs of an update that changes only state (and the update of
 * a resource whose every update is one).
 */
import { canonicalUrl } from "../connection/urls";
import type { InputSpec, ResourceDefinition } from "../inputs/definition";

/**
 * The outputs after an update that changes only state: the old outputs with the state-only
 * inputs taken from the new inputs (an input left out is removed).
 */
export function withStateOnlyChanges<O extends object>(
  olds: O,
  news: object,
  stateOnlyKeys: readonly string[],
): O {
  const outs = { ...olds } as Record<string, unknown>;
  const next = news as Record<string, unknown>;
  for (const key of stateOnlyKeys) {
    if (next[key] === undefined) delete outs[key];
    else outs[key] = next[key];
  }
  return outs as O;
}

/**
 * The update of a resource that never changes anything on the server in place (a one-shot, or a
 * resource whose other changes replace it): the new inputs read with `parse`, and the outputs with
 * the `stateOnlyKeys` taken from them.
 */
export function stateOnlyUpdate<O extends object>(
  parse: (raw: unknown) => object,
  stateOnlyKeys: readonly string[],
): (id: string, olds: O, rawNews: unknown) => Promise<{ outs: O }> {
  return async (_id, olds, rawNews) => ({
    outs: withStateOnlyChanges(olds, parse(rawNews), stateOnlyKeys),
  });
}

/**
 * The keys among `keys` whose new value differs from the old, as the definition says to compare
 * each: an input it marks `url` by the place it names (another spelling of the same URL is no
 * change), any other by value ({@link sameValue}). Every diff compares its inputs through this, so
 * that marking an input in the definition is all a URL input needs.
 *
 * @param definition - the resource's definition (only its `inputs` are read).
 * @param keys - the inputs to compare (e.g. the replacing ones).
 * @param olds - the old outputs (or old inputs).
 * @param news - the new inputs.
 * @example `changedInputs(SITE_DEFINITION, ["adminUrl"], { adminUrl: "https://h/a/" }, news)`
 */
export function changedInputs<K extends string>(
  definition: Pick<ResourceDefinition, "inputs">,
  keys: readonly K[],
  olds: object,
  news: object,
): K[] {
  return keys.filter((key) => inputChanged(definition, key, olds, news));
}

/**
 * Whether one input's new value differs from the old, as {@link changedInputs} compares it.
 *
 * @param definition - the resource's definition (only its `inputs` are read).
 * @param key - the input.
 * @param olds - the old outputs (or old inputs).
 * @param news - the new inputs.
 * @example `inputChanged(FEDERATION_DEFINITION, "adminUrl", olds, news)`
 */
export function inputChanged(
  definition: Pick<ResourceDefinition, "inputs">,
  key: string,
  olds: object,
  news: object,
): boolean {
  const spec = definition.inputs[key];
  const before = (olds as Record<string, unknown>)[key];
  const after = (news as Record<string, unknown>)[key];
  return !sameValue(comparable(spec, before), comparable(spec, after));
}

/** A value as {@link changedInputs} compares it: the URLs the spec names in canonical spelling. */
function comparable(spec: InputSpec | undefined, value: unknown): unknown {
  const url = spec?.url;
  if (url === undefined) return value;
  if (url === true) return typeof value === "string" ? canonicalUrl(value) : value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const field of url) {
    const v = out[field];
    if (typeof v === "string") out[field] = canonicalUrl(v);
  }
  return out;
}

/**
 * Compares two JSON-like values for equality regardless of key order, treating `undefined`
 * members as absent (state round trips drop them).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/**
 * Comparing state: equality of JSON-like values, and the outputs of an update that changes only
 * state (and the update of a resource whose every update is one).
 */

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

/**
 * Checks an answer against a case's expected body (corpus.ts): a partial match at every object
 * level (other fields may exist), exact values elsewhere, and the matchers `$anyOf`, `$type` and
 * `$not`. Strict: a missing field, a wrong JSON type (1 against "1"), an array of another
 * length, or a malformed matcher are all mismatches. Also: comparing a client's request with a
 * case's request, and building an answer that conforms to a case (matchers replaced by values
 * they accept).
 */
import { isDeepStrictEqual } from "node:util";
import type { ConformanceCase, Expected, Json } from "./corpus";

const MATCHERS = ["$anyOf", "$type", "$not"] as const;
const TYPES = ["string", "number", "boolean", "array"] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Applies a matcher object; returns null when `expected` is not one (no `$` key). */
function matcher(actual: unknown, expected: Record<string, unknown>, at: string): string[] | null {
  const keys = Object.keys(expected);
  const dollar = keys.filter((k) => k.startsWith("$"));
  if (dollar.length === 0) return null;
  const [name] = dollar;
  if (keys.length !== 1 || !(MATCHERS as readonly string[]).includes(name!)) {
    return [`${at}: malformed matcher ${show(expected)} (one of ${MATCHERS.join(", ")}, alone)`];
  }
  const arg = expected[name!];
  if (actual === undefined) return [`${at}: missing (expected ${show(expected)})`];
  switch (name) {
    case "$anyOf":
      if (!Array.isArray(arg) || arg.length === 0) {
        return [`${at}: malformed matcher ${show(expected)} ($anyOf takes a non-empty array)`];
      }
      return arg.some((option) => isDeepStrictEqual(actual, option))
        ? []
        : [`${at}: expected any of ${show(arg)}, got ${show(actual)}`];
    case "$type": {
      if (!(TYPES as readonly unknown[]).includes(arg)) {
        return [`${at}: malformed matcher ${show(expected)} ($type takes ${TYPES.join(", ")})`];
      }
      const ok =
        arg === "number"
          ? typeof actual === "number" && Number.isFinite(actual)
          : typeOf(actual) === arg;
      return ok ? [] : [`${at}: expected a ${String(arg)}, got ${show(actual)}`];
    }
    default:
      return isDeepStrictEqual(actual, arg)
        ? [`${at}: expected anything but ${show(arg)}, got it`]
        : [];
  }
}

function match(actual: unknown, expected: Expected, at: string): string[] {
  if (Array.isArray(expected)) {
    if (actual === undefined) return [`${at}: missing (expected ${show(expected)})`];
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${show(actual)}`];
    if (actual.length !== expected.length) {
      return [`${at}: expected ${expected.length} elements, got ${actual.length}`];
    }
    return expected.flatMap((item, i) => match(actual[i], item, `${at}[${i}]`));
  }
  if (isPlainObject(expected)) {
    const applied = matcher(actual, expected, at);
    if (applied !== null) return applied;
    if (actual === undefined) return [`${at}: missing (expected ${show(expected)})`];
    if (!isPlainObject(actual)) return [`${at}: expected an object, got ${show(actual)}`];
    return Object.entries(expected).flatMap(([key, value]) =>
      match(actual[key], value, `${at}.${key}`),
    );
  }
  if (actual === undefined) return [`${at}: missing (expected ${show(expected)})`];
  return isDeepStrictEqual(actual, expected)
    ? []
    : [`${at}: expected ${show(expected)}, got ${show(actual)}`];
}

/**
 * Compares an answer with what a case expects.
 *
 * @param actual - the parsed answer (any JSON value).
 * @param expected - the case's expected value (`answer.body`, or any {@link Expected}).
 * @returns the mismatches, each naming its path (`body.error.code: ...`); empty when it matches.
 * @example
 * ```ts
 * matchesExpected({ error: { code: 499, message: "..." } }, { error: { code: 499 } }); // []
 * matchesExpected({ success: "true" }, { success: { $anyOf: [true] } });
 * // ['body.success: expected any of [true], got "true"']
 * ```
 */
export function matchesExpected(actual: unknown, expected: Expected): string[] {
  return match(actual, expected, "body");
}

/** A request as a server received it: parameters from the query (GET) or the form body (POST). */
export interface ReceivedRequest {
  method: string;
  /** Path below the context root `/arcgis`. */
  path: string;
  params: Record<string, string>;
}

function isMatcher(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    Object.keys(value)[0]!.startsWith("$")
  );
}

/**
 * A JSON value that `expected` accepts: exact values as they are, `$anyOf` its first choice,
 * `$type` a value of that type, `$not` a different value of the same type.
 */
export function conformingValue(expected: Expected): Json {
  if (isMatcher(expected)) {
    const m = expected as { $anyOf?: Json[]; $type?: string; $not?: Json };
    if (m.$anyOf !== undefined) return m.$anyOf[0] ?? null;
    if (m.$type !== undefined) {
      return { string: "text", number: 1, boolean: true, array: [] as Json[] }[m.$type] ?? null;
    }
    const not = m.$not;
    if (typeof not === "number") return not === 500 ? 400 : 500;
    if (typeof not === "boolean") return !not;
    if (typeof not === "string") return `${not}-other`;
    return "other";
  }
  if (Array.isArray(expected)) return expected.map(conformingValue);
  if (expected !== null && typeof expected === "object") {
    return Object.fromEntries(
      Object.entries(expected).map(([k, v]) => [k, conformingValue(v as Expected)]),
    );
  }
  return expected;
}

/** Form text of a JSON scalar as a tool sends it. */
function formText(value: Json): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const BOOLEAN_TEXT = /^(true|false)$/i;

function sameScalar(expected: Json, actual: Json): boolean {
  const e = formText(expected);
  const a = formText(actual);
  // Booleans are compared without letter case (Python's urlencode writes False).
  if (BOOLEAN_TEXT.test(e) && BOOLEAN_TEXT.test(a)) return e.toLowerCase() === a.toLowerCase();
  return e === a;
}

/** Differences between two JSON values, key order aside, skipping the `ignored` paths. */
function jsonDifferences(expected: Json, actual: Json, at: string, ignored: Set<string>): string[] {
  if (ignored.has(at)) return [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    if (expected.length !== actual.length) {
      return [`${at}: expected ${expected.length} elements, got ${actual.length}`];
    }
    return expected.flatMap((e, i) => jsonDifferences(e, actual[i]!, `${at}[]`, ignored));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    }
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((key) => {
      const path = `${at}.${key}`;
      if (ignored.has(path)) return [];
      if (!(key in expected)) return [`${path}: sent but not expected`];
      if (!(key in actual)) return [`${path}: expected but not sent`];
      return jsonDifferences(expected[key]!, actual[key]!, path, ignored);
    });
  }
  return sameScalar(expected, actual)
    ? []
    : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/**
 * Compares a received request with a case's request: method, path and parameters (JSON
 * parameters as parsed JSON, key order aside; booleans without letter case). Only the parameters
 * and paths listed in `clientMayDiffer` may differ (`directories[].id` names that key in every
 * element). The token is not a parameter here (see the case's `token`).
 *
 * @returns the differences; empty when the requests conform.
 */
export function requestDifferences(c: ConformanceCase, received: ReceivedRequest): string[] {
  const ignored = new Set(Object.keys(c.clientMayDiffer ?? {}));
  const json = new Set(c.request.jsonParams ?? []);
  const out: string[] = [];
  if (received.method !== c.request.method) {
    out.push(`method: expected ${c.request.method}, got ${received.method}`);
  }
  if (received.path !== c.request.path)
    out.push(`path: expected ${c.request.path}, got ${received.path}`);
  const names = new Set([...Object.keys(c.request.params), ...Object.keys(received.params)]);
  for (const name of names) {
    if (name === "token" || ignored.has(name)) continue;
    const expected = c.request.params[name];
    const actual = received.params[name];
    if (expected === undefined) {
      out.push(`${name}: sent but not expected`);
      continue;
    }
    if (actual === undefined) {
      out.push(`${name}: expected but not sent`);
      continue;
    }
    if (json.has(name)) {
      let parsed: Json;
      try {
        parsed = JSON.parse(actual) as Json;
      } catch {
        out.push(`${name}: expected JSON, got ${actual}`);
        continue;
      }
      out.push(...jsonDifferences(expected, parsed, name, ignored));
    } else if (!sameScalar(expected, actual)) {
      out.push(`${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    }
  }
  return out;
}

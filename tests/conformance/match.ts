/**
 * Comparing a client's request with a conformance case, and building an answer that conforms to a
 * case (matchers replaced by values they accept).
 */
import type { ConformanceCase, Expected, Json } from "./corpus";

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

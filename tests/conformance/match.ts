/**
 * Checks an answer against a case's expected body (corpus.ts): a partial match at every object
 * level (other fields may exist), exact values elsewhere, and the matchers `$anyOf`, `$type` and
 * `$not`. Strict: a missing field, a wrong JSON type (1 against "1"), an array of another
 * length, or a malformed matcher are all mismatches.
 */
import { isDeepStrictEqual } from "node:util";
import type { Expected } from "./corpus";

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

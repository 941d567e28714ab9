/**
 * Input checking with zod, the way `check()` must do it: every problem at once with its property
 * path, and no complaint about values that are still unknown during a preview.
 */
import type { z } from "zod";
import { withoutProvider } from "../pulumi/lazy-provider";
import { logWarn } from "../messages/log";
import { whereToGive } from "./sources";

/** Pulumi's sentinel for values that are not known yet during a preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type { CheckFailure } from "./definition";
import type { CheckFailure } from "./definition";

/** True when the value, or anything inside it, is still unknown (preview). */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") {
    return Object.values(value).some(containsUnknown);
  }
  return false;
}

/** Paths (as key arrays) of every unknown value inside `value`. */
function unknownPaths(value: unknown, at: PropertyKey[] = []): PropertyKey[][] {
  if (value === UNKNOWN) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPaths(v, [...at, i]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => unknownPaths(v, [...at, k]));
  }
  return [];
}

/**
 * Formats a property path the way Pulumi users write it: `directories[1].directoryType`. A key
 * that is not a plain name (empty, or with dots, brackets or spaces) is quoted, `tags["a.b"]`, so
 * that the path still names it.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && !/^[A-Za-z_$][\w$-]*$/.test(key))
      out += `[${JSON.stringify(key)}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

function isPrefix(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  return a.length <= b.length && a.every((k, i) => k === b[i]);
}

/**
 * Validates resource inputs with a zod schema, the way `check()` must: every problem at once, each
 * with its property path, and no complaint about values that are still unknown during a preview.
 *
 * @param schema - strict schema of the inputs; it fills in defaults.
 * @param news - the inputs Pulumi passed to `check()`.
 * @param crossChecks - rules across fields, run on the raw inputs even when items are invalid.
 * @param resource - the resource's class name, so that a missing input is told where it can be
 *   given (sources.ts); without it, the message says only that it is required.
 * @returns the inputs to record (defaults filled in when valid) and the failures.
 *
 * @internal
 */
export function checkInputs<S extends z.ZodType>(
  schema: S,
  news: unknown,
  crossChecks: (raw: Record<string, unknown>) => CheckFailure[] = () => [],
  resource?: string,
): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const raw = withoutProvider(news);
  const result = schema.safeParse(raw);
  const unknowns = unknownPaths(raw);
  const extra = crossChecks(raw)
    .filter((f) => !unknowns.some((u) => f.property.startsWith(formatPath(u))))
    .map((f) => withWhereToGive(f, raw, resource));
  if (result.success) {
    return { inputs: result.data as Record<string, unknown>, failures: extra };
  }
  const failures: CheckFailure[] = [...extra];
  for (const issue of result.error.issues) {
    const paths =
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of paths) {
      // A value that is still unknown is checked again once it is known (at `pulumi up`).
      if (unknowns.some((u) => isPrefix(u, path) || isPrefix(path, u))) continue;
      const reason =
        issue.code === "unrecognized_keys"
          ? "unknown property; check its spelling"
          : plainReason(issue, valueAt(raw, path), formatPath(path), resource);
      failures.push({ property: formatPath(path) || "(inputs)", reason });
    }
  }
  return { inputs: raw, failures };
}

/** The value at a path of the inputs (undefined where the path leads nowhere). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = raw;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A value's kind as a user wrote it: "a list", "a number", "nothing". */
function kindOf(value: unknown): string {
  if (value === undefined || value === null) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "boolean") return "true or false";
  return `a ${typeof value}`;
}

/** What zod calls a type, as a user writes it. */
const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
};

/**
 * A schema problem worded for the user: a missing input says it is required and where it can
 * be given on this path (sources.ts); a value of the wrong type says what it must be. The
 * schemas' own messages (refinements) are kept; zod's generic "Invalid input: expected string,
 * received undefined" never reaches the user.
 */
function plainReason(
  issue: z.core.$ZodIssue,
  value: unknown,
  property: string,
  resource: string | undefined,
): string {
  if (issue.code === "invalid_type") {
    if (value === undefined || value === null) {
      return resource === undefined
        ? "is required"
        : `is required. ${whereToGive(resource, property)}`;
    }
    const expected = EXPECTED[issue.expected] ?? issue.expected;
    return `must be ${expected}, not ${kindOf(value)}`;
  }
  if (issue.code === "invalid_value" && /^Invalid (option|input)/.test(issue.message)) {
    return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return issue.message;
}

/**
 * A cross-field rule's "required …" for an input that is absent, with where it can be given on
 * this path (a portal's username and password, or its token).
 */
function withWhereToGive(
  failure: CheckFailure,
  raw: Record<string, unknown>,
  resource: string | undefined,
): CheckFailure {
  if (resource === undefined || !failure.reason.startsWith("required")) return failure;
  if (raw[failure.property] !== undefined && raw[failure.property] !== null) return failure;
  return { ...failure, reason: `${failure.reason}. ${whereToGive(resource, failure.property)}` };
}

/** The inputs that name a server the resource sends credentials to. */
const SERVER_URL_INPUTS = ["adminUrl", "sharingUrl"] as const;

/**
 * The plain-http warnings said by this process. The engine starts a provider for each run, so
 * each is said once per run, however many resources name the same URL (a SiteExport given its
 * Site's `adminUrl` checks the same URL again once the site exists).
 */
const plainHttpWarned = new Set<string>();

/**
 * Warns about a server URL in plain http: the password and the tokens would cross the network
 * unencrypted. A warning rather than a refusal: an http URL to a web adaptor inside a trusted
 * network, or to a local test server, is a choice the user may make, but never unknowingly.
 * `check()` calls it, so it is said at every preview and update, once for each URL.
 *
 * @internal
 */
export function warnOfPlainHttp(inputs: Record<string, unknown>): void {
  for (const key of SERVER_URL_INPUTS) {
    const value = inputs[key];
    if (typeof value !== "string") continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (url.protocol !== "http:") continue;
    // Host and path only: a URL may carry user info or a query.
    const warning =
      `${key} http://${url.host}${url.pathname} is plain http: the password and the tokens ` +
      "are sent unencrypted. Use https.";
    if (plainHttpWarned.has(warning)) continue;
    plainHttpWarned.add(warning);
    logWarn(warning);
  }
}

/**
 * Reads inputs (or outputs read back as inputs) that must be valid, as create, update, read and
 * delete do: output-only keys are dropped, and any problem is thrown as one error.
 *
 * @param resource - the resource's name for the message, e.g. "Site".
 * @param outputOnlyKeys - keys that exist only in outputs.
 *
 * @internal
 */
export function parseValidInputs<T>(
  resource: string,
  schema: z.ZodType,
  raw: unknown,
  outputOnlyKeys: readonly string[],
  crossChecks?: (raw: Record<string, unknown>) => CheckFailure[],
): T {
  const values = withoutProvider(raw);
  for (const key of outputOnlyKeys) delete values[key];
  const { inputs, failures } = checkInputs(schema, values, crossChecks, resource);
  if (failures.length > 0) {
    const problems = failures.map((f) => `${f.property}: ${f.reason}`);
    throw new Error(`Invalid ${resource} inputs: ${problems.join("; ")}`);
  }
  return inputs as T;
}

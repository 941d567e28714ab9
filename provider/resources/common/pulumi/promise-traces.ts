/**
 * The stack traces Pulumi's Node.js SDK records for its promise-leak report, left out while a
 * resource registers.
 *
 * The SDK gives each property of a resource it registers four promises, and each records
 * `new Error().stack` for the report it prints when a program exits with promises pending, which
 * shows those traces only when `PULUMI_DEBUG_PROMISE_LEAKS` is set. Its program runner installs
 * `source-map-support`, which maps every frame of every such stack: a resource with twenty
 * properties pays eighty mapped stacks in the user's program, by far the largest part of its cost
 * there (docs/fleet.md). While the constructor hands the resource to the SDK, V8 is told to record
 * no frames, unless `PULUMI_DEBUG_PROMISE_LEAKS` is set; the limit the program had is restored
 * right after. The resource's recorded source position and stack trace are not affected: the SDK
 * captures those with a limit of its own.
 *
 * @internal
 */

/** The variable that makes the SDK print the recorded traces (@pulumi/pulumi runtime/debuggable). */
export const PROMISE_LEAKS_VARIABLE = "PULUMI_DEBUG_PROMISE_LEAKS";

/**
 * Lowers V8's stack trace limit to 0 for the registration, unless the promise-leak report is on.
 *
 * @returns what to pass to {@link restorePromiseTraces} afterwards.
 * @internal
 */
export function quietPromiseTraces(): number | undefined {
  if (process.env[PROMISE_LEAKS_VARIABLE]) return undefined;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return limit;
}

/**
 * Restores the limit {@link quietPromiseTraces} lowered.
 *
 * @internal
 */
export function restorePromiseTraces(limit: number | undefined): void {
  if (limit !== undefined) Error.stackTraceLimit = limit;
}

/**
 * The engine's Cancel as the step under way sees it: the plugin's server runs every request with
 * its one cancellation signal, aborted when the engine calls Cancel (the first Ctrl-C of
 * `pulumi up`), and a wait in which nothing has been sent hands it to the client's wait as its
 * plain `signal` option. Pulumi's dynamic-provider host ignores Cancel and sets none: there a wait
 * runs to its time limit.
 *
 * @internal
 */
import { AsyncLocalStorage } from "node:async_hooks";

const cancellation = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `step` with `signal` as its cancellation: the plugin's server runs every request so.
 *
 * @internal
 */
export function runCancellable<T>(signal: AbortSignal, step: () => T): T {
  return cancellation.run(signal, step);
}

/**
 * The cancellation of the step under way, or undefined where nothing can cancel it (the
 * dynamic-provider host, direct calls).
 *
 * @internal
 */
export function cancelSignal(): AbortSignal | undefined {
  return cancellation.getStore();
}

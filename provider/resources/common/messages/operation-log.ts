/**
 * The logger of the operation under way, which `log.ts` writes to. Whoever runs a lifecycle step
 * sets it for that step (the plugin's server per request, with the request's URN; the
 * dynamic-provider host's steps in `implementation.ts`), so that the resources say what happened
 * without knowing where it goes. AsyncLocalStorage carries it through awaits and timers, so a
 * progress line of a wait reaches the step that started the wait, whatever else runs meanwhile.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The severities a resource writes with. */
export type LogSeverity = "info" | "warning";

/** Where the messages of one operation go. */
export interface OperationLogger {
  log(severity: LogSeverity, message: string): void;
}

const current = new AsyncLocalStorage<OperationLogger>();

/** Runs `step` with `logger` as the logger of everything it writes, until it settles. */
export function withOperationLogger<T>(logger: OperationLogger, step: () => T): T {
  return current.run(logger, step);
}

/** The logger of the operation under way; undefined outside one (the program, direct calls). */
export function operationLogger(): OperationLogger | undefined {
  return current.getStore();
}

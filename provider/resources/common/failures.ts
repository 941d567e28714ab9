/**
 * What a failed step tells the user: the message of a failed operation, and a step whose failure is
 * thrown again as one error worded for the resource, the failure kept as its cause.
 */
import { isArcGISRequestError } from "../../client";

/**
 * The message for a failed operation: a client error already says which operation failed where,
 * anything else gets that prefix.
 */
export function failureMessage(operation: string, target: string, error: unknown): string {
  if (isArcGISRequestError(error)) return error.message;
  return `${operation} on ${target} failed: ${messageOf(error)}`;
}

/** Reads a message from anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a step; when it fails, throws an `Error` with the message `explain` words from the failure
 * (what failed, what it means for the resource, what to do), the failure as its `cause`.
 *
 * @example
 * ```ts
 * const current = await explained(
 *   () => readSettings(session),
 *   (error) => `${failureMessage("logs/settings", adminUrl, error)} Nothing was changed.`,
 * );
 * ```
 */
export async function explained<T>(
  step: () => Promise<T>,
  explain: (error: unknown) => string,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new Error(explain(error), { cause: error });
  }
}

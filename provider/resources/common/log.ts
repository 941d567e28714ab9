/**
 * Writing through Pulumi's log, and the messages of failed operations.
 */
import * as pulumi from "@pulumi/pulumi";
import { isArcGISRequestError } from "../../client";

/**
 * Writes a progress or status line through Pulumi's log. In the provider host there is no engine
 * connection and Pulumi prints to the console, which the engine shows the user.
 */
export function logInfo(message: string): void {
  void pulumi.log.info(message);
}

/** Writes a warning through Pulumi's log. */
export function logWarn(message: string): void {
  void pulumi.log.warn(message);
}

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

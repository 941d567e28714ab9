/**
 * Writing through Pulumi's log. In the provider host there is no engine connection and Pulumi
 * prints to the console, which the engine shows the user.
 */
import * as pulumi from "@pulumi/pulumi";

/** Writes a progress or status line through Pulumi's log. */
export function logInfo(message: string): void {
  void pulumi.log.info(message);
}

/** Writes a warning through Pulumi's log. */
export function logWarn(message: string): void {
  void pulumi.log.warn(message);
}

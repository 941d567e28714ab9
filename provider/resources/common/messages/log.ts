/**
 * What a resource writes for the user: to the logger of the operation under way
 * (`operation-log.ts`: the engine's log, under the resource's URN when it is known), else through
 * Pulumi's log, which reaches the engine in the program process and prints to the console anywhere
 * else.
 */
import * as pulumi from "@pulumi/pulumi";
import { type LogSeverity, operationLogger } from "./operation-log";

/** Writes a progress or status line. */
export function logInfo(message: string): void {
  write("info", message);
}

/** Writes a warning. */
export function logWarn(message: string): void {
  write("warning", message);
}

function write(severity: LogSeverity, message: string): void {
  const logger = operationLogger();
  if (logger !== undefined) logger.log(severity, message);
  else pulumiLog(severity, message);
}

/** Writes through Pulumi's log (the way when no operation's logger can take a message). */
export function pulumiLog(severity: LogSeverity, message: string): void {
  void (severity === "warning" ? pulumi.log.warn(message) : pulumi.log.info(message));
}

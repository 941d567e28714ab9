/**
 * The `LogSettings` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `log-settings.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection/resolve";
import { lazyProvider } from "../common/pulumi/lazy-provider";
import { registration } from "../common/pulumi/registration";
import {
  LOG_SETTINGS_KEYS,
  type LogSettingsArgs,
  type LogSettingsInputs,
  type LogSettingsOutputProperties,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";

export { LOG_SETTINGS_LEVELS, type LogSettingsLevel } from "./values";

/**
 * The serialized provider of `LogSettings`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/log-settings.js` when the engine calls it.
 */
export const logSettingsProvider = lazyProvider("log-settings");

/**
 * The settings a LogSettings can manage; a field left out is the server's business.
 *
 * @internal
 */
export const MANAGED_LOG_FIELDS = [
  "logLevel",
  "logDir",
  "maxErrorReportsCount",
  "maxLogFileAge",
  "usageMeteringEnabled",
] as const;

/**
 * What a LogSettings registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const LOG_SETTINGS = serverResourceFrame(
  "LogSettings",
  logSettingsProvider,
  LOG_SETTINGS_KEYS,
);

export type { LogSettingsArgs } from "./generated";

/**
 * A site's log settings, kept as declared with `POST {admin_root}/logs/settings/edit`. Only the
 * fields given are managed; a change is an update in place.
 *
 * @example
 * ```ts
 * new LogSettings("logs", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   logLevel: "WARNING",
 *   restoreOnDestroy: true,
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class LogSettings extends ServerResource<LogSettingsInputs["timeouts"]> {
  /**
   * @param name - the resource's name in the stack.
   * @param args - which server and which settings; see {@link LogSettingsArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: LogSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("LogSettings", name, args);
    // Replaced by deleting first: with restoreOnDestroy, the old resource's delete writes the
    // pre-stack values back, and a new resource created before it would see them undone.
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(...registration(LOG_SETTINGS, name, args, connection, options));
  }
}

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface LogSettings extends LogSettingsOutputProperties {}

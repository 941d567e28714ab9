/**
 * The `LogSettings` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `log-settings.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection";
import { lazyProvider } from "../common/lazy-provider";
import { type LOG_SETTINGS_LEVELS, type ReportedLogSettings } from "./inputs";
import { registration } from "../common/registration";
import { ServerResource, serverResourceFrame } from "../common/server-resource";
import type { ServerResourceArgs } from "../common/server-resource";

/**
 * The serialized provider of `LogSettings`: about 3 KB that load `implementation` from the released
 * module path `dist/provider/resources/log-settings.js` when the engine calls it.
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
export const LOG_SETTINGS = serverResourceFrame("LogSettings", logSettingsProvider, {
  fromArguments: [...MANAGED_LOG_FIELDS, "restoreOnDestroy"],
  outputOnly: ["previousSettings", "serverLogSettings"],
});

/** Arguments of a {@link LogSettings}. Every field accepts a `pulumi.Input`. */
export interface LogSettingsArgs extends ServerResourceArgs {
  /** Log level: OFF, SEVERE, WARNING, INFO, FINE, VERBOSE or DEBUG. */
  logLevel?: pulumi.Input<(typeof LOG_SETTINGS_LEVELS)[number]>;
  /** Directory of the logs, as the server sees it. */
  logDir?: pulumi.Input<string>;
  /** Maximum number of error reports. */
  maxErrorReportsCount?: pulumi.Input<number>;
  /** Maximum age of log files (the unit is not documented). */
  maxLogFileAge?: pulumi.Input<number>;
  /** Usage metering (Mission, Notebook and Video Server only). */
  usageMeteringEnabled?: pulumi.Input<boolean>;
  /** On destroy, write back the settings the server had before this stack changed them. */
  restoreOnDestroy?: pulumi.Input<boolean>;
  /** How long a change may take, including waiting while an export or import holds the site. */
  timeouts?: pulumi.Input<{ changeMs?: pulumi.Input<number> }>;
}

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
export class LogSettings extends ServerResource<{ changeMs: number }> {
  /** The server's settings before this stack first changed them. */
  declare public readonly previousSettings: pulumi.Output<ReportedLogSettings>;
  /** The server's settings as last read. */
  declare public readonly serverLogSettings: pulumi.Output<ReportedLogSettings>;
  /** The managed log level (after a refresh: the server's). */
  declare public readonly logLevel: pulumi.Output<(typeof LOG_SETTINGS_LEVELS)[number] | undefined>;
  /** The managed log directory (after a refresh: the server's). */
  declare public readonly logDir: pulumi.Output<string | undefined>;
  /** The managed maximum number of error reports. */
  declare public readonly maxErrorReportsCount: pulumi.Output<number | undefined>;
  /** The managed maximum age of log files. */
  declare public readonly maxLogFileAge: pulumi.Output<number | undefined>;
  /** The managed usage metering switch. */
  declare public readonly usageMeteringEnabled: pulumi.Output<boolean | undefined>;
  /** Whether destroy writes back `previousSettings`. */
  declare public readonly restoreOnDestroy: pulumi.Output<boolean>;

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

/**
 * Every input and output of a `LogSettings`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/log-settings.md's
 * table are derived from it.
 */
import { z } from "zod";
import {
  adminTlsInput,
  CHANGE_LIMIT,
  inPlaceAdminInputs,
  timeoutsInput,
} from "../common/inputs/admin";
import { type CheckFailure, defineResource, named } from "../common/inputs/definition";
import { nonEmpty } from "../common/inputs/schemas";
import { LOG_SETTINGS_LEVELS, MANAGED_LOG_FIELDS } from "./values";
import { resourceFrame } from "../common/pulumi/frame";
import type { LogSettingsInputs } from "./generated";

/** A count the server keeps: an integer, never negative. */
function count() {
  return z.number().int().min(0, { message: "must not be negative" });
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
 *
 * @internal
 */
export const LOG_SETTINGS_DEFINITION = defineResource({
  type: "LogSettings",
  folder: "log-settings",
  doc: "The log settings of a server's site (logs/settings/edit), restored on destroy if asked.",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link LogSettings}: the server's connection ({@link ServerResourceArgs}) " +
    "and the settings to keep; at least one of them. Every field accepts a `pulumi.Input`.",
  imports: ['import type { ReportedLogSettings } from "./values";'],
  inputs: {
    ...inPlaceAdminInputs(),
    logLevel: {
      schema: () =>
        named(
          z.enum(LOG_SETTINGS_LEVELS, {
            message: `must be one of ${LOG_SETTINGS_LEVELS.join(", ")}`,
          }),
          { name: "LogSettingsLevel", from: "./values" },
        ).optional(),
      doc:
        "Log level: OFF, SEVERE, WARNING, INFO, FINE, VERBOSE or DEBUG. Only the settings given " +
        "are managed; the others stay the server's.",
      outputDoc: "The managed log level (after a refresh: the server's).",
    },
    logDir: {
      schema: () => nonEmpty().optional(),
      doc: "Directory of the logs, as the server sees it.",
      outputDoc: "The managed log directory (after a refresh: the server's).",
    },
    maxErrorReportsCount: {
      schema: () => count().optional(),
      doc: "Maximum number of error reports.",
      outputDoc: "The managed maximum number of error reports.",
    },
    maxLogFileAge: {
      schema: () => count().optional(),
      doc: "Maximum age of log files (the unit is not documented).",
      outputDoc: "The managed maximum age of log files.",
    },
    usageMeteringEnabled: {
      schema: () => z.boolean().optional(),
      doc: "Usage metering (Mission, Notebook and Video Server only).",
      outputDoc: "The managed usage metering switch.",
    },
    restoreOnDestroy: {
      schema: () => z.boolean().default(false),
      doc:
        "On destroy, write back the settings the server had before this stack changed them " +
        "(`previousSettings`).",
      outputDoc: "Whether destroy writes back `previousSettings`.",
      stateOnly: true,
    },
    tls: adminTlsInput(),
    timeouts: timeoutsInput(
      {
        changeMs: CHANGE_LIMIT,
      },
      "How long a change may take, including waiting while an export or import holds the site.",
    ),
  },
  outputs: {
    previousSettings: {
      type: "ReportedLogSettings",
      doc:
        "The server's settings when the stack took them on, each managed one as it was before " +
        "this stack first wrote it: what `restoreOnDestroy` writes back.",
    },
    writtenSettings: {
      type: "ReportedLogSettings",
      doc:
        "The last value this stack wrote to each managed setting (a refresh never changes it): " +
        "`restoreOnDestroy` restores a setting only while the server still holds this value.",
      optional: true,
    },
    serverLogSettings: {
      type: "ReportedLogSettings",
      doc: "The server's settings as last read (after create, update or refresh).",
    },
  },
  operation: "`POST {admin_root}/logs/settings/edit`",
  summary: "Keeps a site's log settings as declared (updated in place).",
  connection: "server",
  importable: true,
  deleteBeforeReplace: true,
  crossChecks: logSettingsCrossChecks,
});

/**
 * Rules across fields, reported together with the per-field problems.
 *
 * @internal
 */
export function logSettingsCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (MANAGED_LOG_FIELDS.every((field) => values[field] === undefined)) {
    failures.push({
      property: "logLevel",
      reason: `declare at least one of ${MANAGED_LOG_FIELDS.join(", ")}: a LogSettings with none would manage nothing`,
    });
  }
  if (values.serverType === "arcgis-server" && values.usageMeteringEnabled !== undefined) {
    failures.push({
      property: "usageMeteringEnabled",
      reason:
        "ArcGIS Server's logs/settings does not report usageMeteringEnabled (only Mission, " +
        "Notebook and Video Server do); remove it",
    });
  }
  return failures;
}

/**
 * The frame of a `LogSettings`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const LOG_SETTINGS = resourceFrame<LogSettingsInputs>()(LOG_SETTINGS_DEFINITION);

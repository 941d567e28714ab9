/**
 * The inputs of a `LogSettings`: their types, the zod schema that checks them, the rules across
 * fields, and which inputs replace the resource and which only update state.
 */
import { z } from "zod";
import type { ServerType } from "../../client";
import { ACCESS_INPUTS, adminInputsSchema } from "../common/admin-inputs";
import { type CheckFailure } from "../common/input-check";
import { nonEmpty } from "../common/input-schemas";
import { inputReader, type InputRules } from "../common/implementation";
import type { Assert, ParsesTo } from "../common/schema-match";
import { LOG_SETTINGS, MANAGED_LOG_FIELDS } from "./resource";

/** Log levels of every product (ArcGIS Server's list; DSC sends the same names to the others). */
export const LOG_SETTINGS_LEVELS = [
  "OFF",
  "SEVERE",
  "WARNING",
  "INFO",
  "FINE",
  "VERBOSE",
  "DEBUG",
] as const;

/**
 * One of {@link MANAGED_LOG_FIELDS} (the settings a LogSettings can manage, listed with its
 * outputs in resource.ts).
 *
 * @internal
 */
export type ManagedField = (typeof MANAGED_LOG_FIELDS)[number];

/**
 * Default bound on a change, including waiting while an export or import holds the site.
 *
 * @internal
 */
export const DEFAULT_CHANGE_MS = 10 * 60_000;

/** Log settings as the server reports them (plain scalars only: outputs must be plain JSON). */
export type ReportedLogSettings = Record<string, string | number | boolean>;

/** Inputs of a `LogSettings` whose values are known. */
export interface LogSettingsInputs {
  serverType: ServerType;
  adminUrl: string;
  username: string;
  password: string;
  logLevel?: (typeof LOG_SETTINGS_LEVELS)[number];
  logDir?: string;
  maxErrorReportsCount?: number;
  maxLogFileAge?: number;
  usageMeteringEnabled?: boolean;
  restoreOnDestroy: boolean;
  tls?: { caCert?: string; insecureSkipVerify?: boolean };
  timeouts: { changeMs: number };
}

/** Outputs of a `LogSettings` as stored in state. */
export interface LogSettingsOutputs extends LogSettingsInputs {
  /** The server's settings before the first change: what `restoreOnDestroy` writes back. */
  previousSettings: ReportedLogSettings;
  /** The server's settings as last read (after create, update or refresh). */
  serverLogSettings: ReportedLogSettings;
}

/**
 * The zod schema of the LogSettings inputs.
 *
 * @internal
 */
export function logSettingsInputsSchema() {
  const count = z.number().int().min(0, { message: "must not be negative" });
  return adminInputsSchema(
    {
      logLevel: z
        .enum(LOG_SETTINGS_LEVELS, { message: `must be one of ${LOG_SETTINGS_LEVELS.join(", ")}` })
        .optional(),
      logDir: nonEmpty().optional(),
      maxErrorReportsCount: count.optional(),
      maxLogFileAge: count.optional(),
      usageMeteringEnabled: z.boolean().optional(),
      restoreOnDestroy: z.boolean().default(false),
    },
    { changeMs: DEFAULT_CHANGE_MS },
  );
}

/**
 * The hand-written {@link LogSettingsInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type LogSettingsInputsMatch = Assert<
  ParsesTo<ReturnType<typeof logSettingsInputsSchema>, LogSettingsInputs>
>;

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
 * The LogSettings' input rules.
 *
 * @internal
 */
export const LOG_SETTINGS_INPUTS: InputRules = {
  frame: LOG_SETTINGS,
  schema: logSettingsInputsSchema,
  crossChecks: logSettingsCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseLogSettingsInputs = inputReader<LogSettingsInputs>(LOG_SETTINGS_INPUTS);

/**
 * Inputs whose change means another server (a replacement), when the URL reaches another place:
 * another spelling of the same URL only updates state.
 *
 * @internal
 */
export const REPLACING_INPUTS = ["adminUrl"] as const;

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = [
  ...ACCESS_INPUTS,
  "adminUrl",
  "serverType",
  "restoreOnDestroy",
] as const;

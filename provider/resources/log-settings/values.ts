/**
 * The value types LogSettings' generated types name: the log levels, and the settings as the
 * server reports them, and the settings it can manage. A leaf module (it imports nothing), so that the generated types, the class
 * and the inputs share them without an import circle.
 */

export const LOG_SETTINGS_LEVELS = [
  "OFF",
  "SEVERE",
  "WARNING",
  "INFO",
  "FINE",
  "VERBOSE",
  "DEBUG",
] as const;

/** One of {@link LOG_SETTINGS_LEVELS}. */
export type LogSettingsLevel = (typeof LOG_SETTINGS_LEVELS)[number];

/** Log settings as the server reports them (plain scalars only: outputs must be plain JSON). */
export type ReportedLogSettings = Record<string, string | number | boolean>;

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
 * One of {@link MANAGED_LOG_FIELDS} (the settings a LogSettings can manage).
 *
 * @internal
 */
export type ManagedField = (typeof MANAGED_LOG_FIELDS)[number];

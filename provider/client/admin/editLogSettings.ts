import type { AdminSession } from "../session";
import type { LogSettings } from "./createNewSite";

/**
 * Changes the site's log settings with flat form fields, as DSC `Update-LogSettings` does on
 * Mission Server. Never retried: a change.
 *
 * @param session - an admin session.
 * @param settings - the settings to write (`logLevel`, `logDir`, `maxErrorReportsCount`,
 *   `maxLogFileAge`, and on Mission, Notebook and Video Server `usageMeteringEnabled`).
 * @returns the server's answer, e.g. `{ status: "success" }`.
 * @example
 * ```ts
 * await editLogSettings(session, { logLevel: "DEBUG", logDir, maxErrorReportsCount: 10, maxLogFileAge: 90 });
 * ```
 * Maps to: `POST {admin_root}/logs/settings/edit`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/editlogsettings
 */
export async function editLogSettings(
  session: AdminSession,
  settings: LogSettings,
): Promise<Record<string, unknown>> {
  return session.call(
    "logs/settings/edit",
    {
      logDir: settings.logDir,
      logLevel: settings.logLevel,
      maxLogFileAge: settings.maxLogFileAge,
      maxErrorReportsCount: settings.maxErrorReportsCount,
      usageMeteringEnabled: settings.usageMeteringEnabled,
    },
    { operation: "logs/settings/edit" },
  );
}

import type { AdminSession } from "../session";
import type { LogSettings } from "./createNewSite";

/**
 * Reads the site's log settings: flat fields on Mission, Notebook and Video Server (DSC
 * `ArcGIS_MissionServer` reads `$logSettings.logLevel`), under `settings` on ArcGIS Server (DSC
 * `ArcGIS_Server` reads `$logSettings.settings.logLevel`). Retried on transient failures: a read.
 *
 * @param session - an admin session.
 * @returns the settings, whichever form the server answered.
 * @example
 * ```ts
 * const { logLevel } = await getLogSettings(session);
 * ```
 * Maps to: `GET {admin_root}/logs/settings?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/logssettings.htm
 */
export async function getLogSettings(
  session: AdminSession,
): Promise<LogSettings & Record<string, unknown>> {
  const body = await session.call(
    "logs/settings",
    {},
    { method: "GET", idempotent: true, operation: "logs/settings" },
  );
  const settings = body["settings"];
  return typeof settings === "object" && settings !== null && !Array.isArray(settings)
    ? (settings as Record<string, unknown>)
    : body;
}

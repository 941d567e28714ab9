import type { AdminSession } from "../session";
import type { LogSettings } from "./createNewSite";

/**
 * Reads the site's log settings.
 *
 * @param session - an admin session.
 * @returns the settings (the `settings` member of the answer, or the answer itself).
 * @example
 * ```ts
 * const { logLevel } = await getLogSettings(session);
 * ```
 * Maps to: `GET {admin_root}/logs/settings?f=json`.
 */
export async function getLogSettings(
  session: AdminSession,
): Promise<LogSettings & Record<string, unknown>> {
  const body = await session.call("logs/settings", {}, { method: "GET", idempotent: true });
  const settings = body["settings"];
  return typeof settings === "object" && settings !== null && !Array.isArray(settings)
    ? (settings as Record<string, unknown>)
    : body;
}

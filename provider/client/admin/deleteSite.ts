import type { AdminSession } from "../session";

/**
 * Deletes the site: the machine returns to "no site". Never retried by the client.
 *
 * @param session - an admin session.
 * @returns the server's answer, e.g. `{ status: "success" }`.
 * @example
 * ```ts
 * await deleteSite(session);
 * ```
 * Maps to: `POST {admin_root}/deleteSite`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/deletesite
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/delete-site).
 */
export async function deleteSite(session: AdminSession): Promise<Record<string, unknown>> {
  return session.call("deleteSite");
}

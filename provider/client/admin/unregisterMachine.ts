import { requestError } from "../response";
import type { AdminSession } from "../session";

/**
 * Removes a machine from the site. Never retried by the client. ArcGIS Server answers
 * `{"status":"success"}`; Mission and Notebook Server document `"success": "true"`; both are
 * success, `success: false` is an error.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/unregistermachine
 *
 * @param session - an admin session on a machine of the site.
 * @param machineName - the machine's name as the site lists it (`machines`).
 * @example
 * ```ts
 * await unregisterMachine(session, "MACHINE2.EXAMPLE.COM");
 * ```
 * Maps to: `POST {admin_root}/machines/<machineName>/unregister`.
 */
export async function unregisterMachine(session: AdminSession, machineName: string): Promise<void> {
  const operation = `machines/${encodeURIComponent(machineName)}/unregister`;
  const body = await session.call(operation, {}, { operation: "unregister machine" });
  const success = body["success"];
  if (success === false || success === "false") {
    throw requestError(
      { operation: "unregister machine", url: session.url(operation) },
      "SERVER",
      `the server answered success: false for machine '${machineName}'`,
    );
  }
}

import type { PortalSession } from "../session";
import { requestError } from "../response";
import { collaborationPath } from "./paths";

/**
 * POSTs a collaboration operation (never retried) and requires `success: true` in the answer:
 * `success: false` is SERVER, a missing flag BAD_RESPONSE.
 *
 * @param session - a portal session.
 * @param portalId - the portal's id.
 * @param collaborationId - the collaboration's id.
 * @param action - `delete` or `removeParticipation`.
 * @param operation - name for error messages.
 * @returns the answer.
 * @example
 * ```ts
 * await postConfirmed(portal, portalId, id, "delete", "deleteCollaboration");
 * ```
 * Maps to: `POST {sharing}/portals/<portal_id>/collaborations/<id>/<action>`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/delete-collaboration and
 * https://developers.arcgis.com/rest/users-groups-and-items/remove-collaboration-participation.
 *
 * @internal
 */
export async function postConfirmed(
  session: PortalSession,
  portalId: string,
  collaborationId: string,
  action: string,
  operation: string,
): Promise<Record<string, unknown>> {
  const path = `${collaborationPath(portalId, collaborationId)}/${action}`;
  const body = await session.call(path, {}, { method: "POST", operation });
  if (body["success"] === true) return body;
  const ctx = { operation, url: session.url(path), secrets: session.secrets() };
  if (body["success"] === false) {
    throw requestError(
      ctx,
      "SERVER",
      "the portal answered success: false without an error message.",
    );
  }
  throw requestError(
    ctx,
    "BAD_RESPONSE",
    "the answer does not confirm success (no success: true).",
  );
}

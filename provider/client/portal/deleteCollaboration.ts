import type { PortalSession } from "../session";
import { postConfirmed } from "./confirm";

/**
 * Deletes a collaboration on its host portal (host administrators only; guests use
 * {@link removeParticipation}). Requires `success: true`; never retried.
 *
 * @param session - a portal session with administrator rights on the host.
 * @param portalId - the host portal's id.
 * @param collaborationId - the collaboration's id.
 * @returns the answer, `{ success: true }`.
 * @example
 * ```ts
 * await deleteCollaboration(portal, portalId, id);
 * ```
 * Maps to: `POST {sharing}/portals/<portal_id>/collaborations/<id>/delete`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/delete-collaboration
 */
export async function deleteCollaboration(
  session: PortalSession,
  portalId: string,
  collaborationId: string,
): Promise<Record<string, unknown>> {
  return postConfirmed(session, portalId, collaborationId, "delete", "deleteCollaboration");
}

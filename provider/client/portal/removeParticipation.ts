import type { PortalSession } from "../session";
import { postConfirmed } from "./confirm";

/**
 * Makes a guest portal leave a collaboration. Requires `success: true`; never retried.
 *
 * @param session - a portal session with administrator rights on the guest.
 * @param portalId - the guest portal's id.
 * @param collaborationId - the collaboration's id.
 * @returns the answer, `{ success: true }`.
 * @example
 * ```ts
 * await removeParticipation(portal, portalId, id);
 * ```
 * Maps to: `POST {sharing}/portals/<portal_id>/collaborations/<id>/removeParticipation`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/remove-collaboration-participation
 */
export async function removeParticipation(
  session: PortalSession,
  portalId: string,
  collaborationId: string,
): Promise<Record<string, unknown>> {
  return postConfirmed(
    session,
    portalId,
    collaborationId,
    "removeParticipation",
    "removeParticipation",
  );
}

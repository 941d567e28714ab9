import { z } from "zod";
import type { PortalSession } from "../session";
import { validateAnswer } from "../response";
import { collaborationPath } from "./paths";

const CollaborationAnswer = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().optional(),
  collaborationHostPortalId: z.string(),
});

/** A distributed collaboration as the portal describes it (unknown fields kept). */
export interface CollaborationInfo {
  /** The collaboration's id. */
  id: string;
  /** Its name. */
  name: string;
  /** Its description. */
  description?: string | undefined;
  /** The id of the portal that hosts it. */
  collaborationHostPortalId: string;
  [member: string]: unknown;
}

/**
 * Reads a collaboration. A missing one fails with an error that {@link isNotFoundError}
 * recognises.
 *
 * @param session - a portal session.
 * @param portalId - the portal's id (see {@link portalSelf}).
 * @param collaborationId - the collaboration's id.
 * @returns id, name, description, host portal id and the other fields.
 * @example
 * ```ts
 * const c = await getCollaboration(portal, portalId, id);
 * const isHost = c.collaborationHostPortalId === portalId;
 * ```
 * Maps to: `GET {sharing}/portals/<portal_id>/collaborations/<id>?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/collaboration.htm
 */
export async function getCollaboration(
  session: PortalSession,
  portalId: string,
  collaborationId: string,
): Promise<CollaborationInfo> {
  const path = collaborationPath(portalId, collaborationId);
  const raw = await session.call(
    path,
    {},
    {
      method: "GET",
      idempotent: true,
      operation: "getCollaboration",
    },
  );
  return validateAnswer(CollaborationAnswer, raw, {
    operation: "getCollaboration",
    url: session.url(path),
  });
}

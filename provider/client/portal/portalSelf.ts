import { z } from "zod";
import type { PortalSession } from "../session";
import { validateAnswer } from "../response";

const PortalSelfAnswer = z.looseObject({ id: z.string().min(1), name: z.string().optional() });

/** What {@link portalSelf} returns. */
export interface PortalSelf {
  /** The portal's own id (the `<portal_id>` of collaboration paths). */
  id: string;
  /** Display name. */
  name?: string;
  /** The whole answer. */
  raw: Record<string, unknown>;
}

/**
 * Reads the portal's description, chiefly its id.
 *
 * @param session - a portal session.
 * @returns id, name and the raw answer.
 * @example
 * ```ts
 * const { id } = await portalSelf(portal);
 * ```
 * Maps to: `GET {sharing}/portals/self?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/portal-self.htm
 */
export async function portalSelf(session: PortalSession): Promise<PortalSelf> {
  const path = "portals/self";
  const raw = await session.call(path, {}, { method: "GET", idempotent: true });
  const answer = validateAnswer(PortalSelfAnswer, raw, {
    operation: path,
    url: session.url(path),
  });
  return { id: answer.id, ...(answer.name === undefined ? {} : { name: answer.name }), raw };
}

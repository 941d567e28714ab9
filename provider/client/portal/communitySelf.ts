import { z } from "zod";
import type { PortalSession } from "../session";
import { validateAnswer } from "../response";

const CommunitySelfAnswer = z.looseObject({
  username: z.string().min(1),
  role: z.string().optional(),
  privileges: z.array(z.string()).optional(),
});

/**
 * What {@link communitySelf} returns: the signed-in user as `community/self` reports it (other
 * members the portal sends are kept).
 */
export interface CommunitySelf {
  /** The user's name. */
  username: string;
  /** The user's role, e.g. `org_admin`. */
  role?: string | undefined;
  /** The user's privileges, e.g. `portal:admin:updateItems`. */
  privileges?: string[] | undefined;
  [member: string]: unknown;
}

/**
 * Reads the signed-in user: name, role and privileges (e.g. to check for administrator rights
 * before deleting a collaboration).
 *
 * @param session - a portal session.
 * @returns username, role and privileges.
 * @example
 * ```ts
 * const { role } = await communitySelf(portal); // "org_admin"
 * ```
 * Maps to: `GET {sharing}/community/self?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/self
 */
export async function communitySelf(session: PortalSession): Promise<CommunitySelf> {
  const path = "community/self";
  const raw = await session.call(path, {}, { method: "GET", idempotent: true });
  return validateAnswer(CommunitySelfAnswer, raw, { operation: path, url: session.url(path) });
}

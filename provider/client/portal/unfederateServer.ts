import type { PortalSession } from "../session";
import { federatedServerAction } from "./federatedServerAction";

/**
 * Unfederates a server from the portal (Chef's `unfederate_server`, with `forceUnfederate`).
 * Never retried.
 *
 * @param session - a portal session with administrator rights.
 * @param serverId - the portal's id of the server.
 * @param force - unfederate even when the server cannot be reached; Chef's default true.
 * @example
 * ```ts
 * await unfederateServer(portal, id, true);
 * ```
 * Maps to: `POST {portaladmin}/federation/servers/<id>/unfederate`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/unfederate-server.htm
 */
export async function unfederateServer(
  session: PortalSession,
  serverId: string,
  force: boolean,
): Promise<void> {
  await federatedServerAction(
    session,
    serverId,
    "unfederate",
    { forceUnfederate: force },
    { operation: "unfederate" },
  );
}

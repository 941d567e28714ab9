import type { PortalSession } from "../session";
import { federatedServerAction } from "./federatedServerAction";

/**
 * Sets a federated server's role and function (Chef's `update_server`, sent by its
 * `enable_server_function` action). Idempotent: the same values may be sent again.
 *
 * @param session - a portal session with administrator rights.
 * @param serverId - the portal's id of the server.
 * @param role - `FEDERATED_SERVER`, `FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING` or `HOSTING_SERVER`.
 * @param serverFunction - e.g. `MissionServer`; comma-separated, or empty for none.
 * @example
 * ```ts
 * await updateFederatedServer(portal, id, "FEDERATED_SERVER", "MissionServer");
 * ```
 * Maps to: `POST {portaladmin}/federation/servers/<id>/update`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/update-server.htm
 */
export async function updateFederatedServer(
  session: PortalSession,
  serverId: string,
  role: string,
  serverFunction: string,
): Promise<void> {
  await federatedServerAction(
    session,
    serverId,
    "update",
    { serverRole: role, serverFunction },
    { operation: "update (federated server)", idempotent: true },
  );
}

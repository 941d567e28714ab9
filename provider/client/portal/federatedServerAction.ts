import type { PortalSession, SessionCallOptions } from "../session";

/**
 * POSTs an action on one federated server, whose answer says nothing beyond success: the frame
 * of {@link updateFederatedServer} and {@link unfederateServer}.
 *
 * @param session - a portal session with administrator rights.
 * @param serverId - the portal's id of the server (URL-encoded here).
 * @param action - the last part of the path, e.g. `unfederate`.
 * @param params - form parameters.
 * @param options - the name for messages, and whether it may be repeated.
 * @example
 * ```ts
 * await federatedServerAction(portal, id, "unfederate", { forceUnfederate: true }, { operation: "unfederate" });
 * ```
 * Maps to: `POST {portaladmin}/federation/servers/<id>/<action>`.
 *
 * @internal
 */
export async function federatedServerAction(
  session: PortalSession,
  serverId: string,
  action: string,
  params: Record<string, unknown>,
  options: Pick<SessionCallOptions, "operation" | "idempotent">,
): Promise<void> {
  await session.adminCall(`federation/servers/${encodeURIComponent(serverId)}/${action}`, params, {
    method: "POST",
    ...options,
  });
}

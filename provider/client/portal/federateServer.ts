import { z } from "zod";
import type { PortalSession } from "../session";
import { validateAnswer } from "../response";

const FederateAnswer = z.looseObject({ serverId: z.string().min(1) });

/** What {@link federateServer} sends. */
export interface FederateServerParams {
  /** The services URL users reach, e.g. `https://gis.example.com/mission`. */
  url: string;
  /** The URL the portal administers the server by, e.g. `https://gis.example.com:20443/arcgis`. */
  adminUrl: string;
  /** The server's primary site administrator. */
  username: string;
  /** Its password; a secret (sent in the POST body only). */
  password: string;
}

/**
 * Federates an ArcGIS server with the portal. Never retried: a lost answer is resolved by
 * looking for the server in {@link federatedServers}, never by federating again.
 *
 * @param session - a portal session with administrator rights.
 * @param params - the server's URLs and primary administrator.
 * @returns the portal's id of the server.
 * @example
 * ```ts
 * const { serverId } = await federateServer(portal, { url, adminUrl, username, password });
 * ```
 * Maps to: `POST {portaladmin}/federation/servers/federate`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/federate-servers.htm
 */
export async function federateServer(
  session: PortalSession,
  params: FederateServerParams,
): Promise<{ serverId: string }> {
  const path = "federation/servers/federate";
  const raw = await session.adminCall(
    path,
    { ...params },
    { method: "POST", operation: "federate", secrets: [params.password] },
  );
  const answer = validateAnswer(FederateAnswer, raw, {
    operation: "federate",
    url: `${session.portalAdminUrl}/${path}`,
  });
  return { serverId: answer.serverId };
}

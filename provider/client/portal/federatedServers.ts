import { z } from "zod";
import type { PortalSession } from "../session";
import { validateAnswer } from "../response";

const FederatedServerAnswer = z.looseObject({
  id: z.string().min(1),
  url: z.string(),
  adminUrl: z.string().optional(),
  adminURL: z.string().optional(),
  name: z.string().optional(),
  serverRole: z.string().optional(),
  serverFunction: z.string().optional(),
  serverType: z.string().optional(),
  isHosted: z.boolean().optional(),
});
const FederatedServersAnswer = z.looseObject({ servers: z.array(FederatedServerAnswer) });

/** One server federated with a portal, as the portal lists it. */
export interface FederatedServer {
  /** The portal's id of the server (the `<id>` of update, unfederate, validate). */
  id: string;
  /** The services URL users reach (federate's `url`). */
  url: string;
  /** The administrative URL the portal uses (federate's `adminUrl`; `adminURL` on some versions). */
  adminUrl?: string | undefined;
  /** The server's name (host and port). */
  name?: string | undefined;
  /** `FEDERATED_SERVER`, `FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING` or `HOSTING_SERVER`. */
  serverRole?: string | undefined;
  /** E.g. `MissionServer`, `NotebookServer`, `VideoServer`; comma-separated, or empty. */
  serverFunction?: string | undefined;
  /** E.g. `ARCGIS_MISSION_SERVER`, `ArcGIS`. */
  serverType?: string | undefined;
}

/**
 * Lists the servers federated with the portal (Chef's `servers`, which finds a server by its `url`).
 *
 * @param session - a portal session with administrator rights.
 * @returns the servers.
 * @example
 * ```ts
 * const mine = (await federatedServers(portal)).find((s) => s.url === serverUrl);
 * ```
 * Maps to: `GET {sharing}/portals/self/servers?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/servers
 */
export async function federatedServers(session: PortalSession): Promise<FederatedServer[]> {
  const path = "portals/self/servers";
  const raw = await session.call(path, {}, { method: "GET", idempotent: true });
  const answer = validateAnswer(FederatedServersAnswer, raw, {
    operation: path,
    url: session.url(path),
  });
  return answer.servers.map((s) => ({
    id: s.id,
    url: s.url,
    adminUrl: s.adminUrl ?? s.adminURL,
    name: s.name,
    serverRole: s.serverRole,
    serverFunction: s.serverFunction,
    serverType: s.serverType,
  }));
}

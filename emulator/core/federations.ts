/**
 * Which portal of this process has federated a site: the portals' lists of federated servers are
 * the one record of a federation, read by the server (its tokens and security configuration,
 * admin/federated.ts) and by the portal (a second portal's federate is refused,
 * portal/federation.ts).
 */
import { machineAt, machinesOfProcess } from "./registry";
import type { Runtime } from "./runtime";
import type { FederatedServer, SiteRecord } from "./state";

/** The portal's URL as a federated server names it (the root path of portal/sharing-api.ts). */
export function portalUrlOf(portal: Runtime): string {
  return `${portal.publicOrigin}/portal`;
}

/** A site's federation: the portal that federated it, and the portal's record of it. */
export interface Federation {
  readonly portal: Runtime;
  readonly server: FederatedServer;
}

/** The portal of this process that has federated `site`, if any. */
export function federationOf(site: SiteRecord): Federation | null {
  for (const machine of machinesOfProcess()) {
    for (const server of machine.rt.store.current.portal.servers) {
      if (machineAt(server.adminUrl)?.rt.store.current.site?.id === site.id) {
        return { portal: machine.rt, server };
      }
    }
  }
  return null;
}

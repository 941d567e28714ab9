/**
 * One service of the site as its own resource (`services/<folder>/<name>.<type>`), its `status`,
 * and the `start` and `stop` operations: what Chef's ArcGIS Server recipes call on the services a
 * new site deploys (`service_exists?('System/PublishingTools.GPServer')`, then start).
 *
 * Evidence:
 * - Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb`: `service_exists?` (POST
 *   `services/<folder>/<name>.<type>` with token and f; exists when the answer is no error),
 *   `configured_service_state` and `service_started?` (POST `.../status`, reading
 *   `configuredState` and `realTimeState`), `start_service` and `stop_service` (POST
 *   `.../start`, `.../stop`; any error fails), called from `providers/gis_service.rb`.
 * - https://developers.arcgis.com/rest/enterprise-administration/server/service-status
 *   (`{"configuredState":"STARTED","realTimeState":"STARTED"}`).
 * Assumptions (docs/emulator.md): the service resource answers only the fields below (a real one
 * answers its whole configuration); start and stop answer `{"status":"success"}` and take effect
 * at once, so the real-time state is the configured one; an unknown service is code 404.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import { federationOf } from "../core/federations";
import type { Runtime } from "../core/runtime";
import type { ServiceRecord, SiteRecord } from "../core/state";
import { notFoundError } from "./not-found";
import { refuseDuringExport, siteUnavailableError } from "./site";

/** `<name>.<type>`, split at the last dot; null when it is not of that form. */
function serviceId(segment: string): { serviceName: string; type: string } | null {
  const dot = segment.lastIndexOf(".");
  if (dot <= 0 || dot === segment.length - 1) return null;
  return { serviceName: segment.slice(0, dot), type: segment.slice(dot + 1) };
}

/** The site's service a path names (folder `/` for the root folder), or a 404. */
export function findService(site: SiteRecord, folder: string, segment: string): ServiceRecord {
  const id = serviceId(segment);
  const found =
    id === null
      ? undefined
      : site.services.find(
          (s) =>
            s.folderName.toLowerCase() === folder.toLowerCase() &&
            s.serviceName.toLowerCase() === id.serviceName.toLowerCase() &&
            s.type.toLowerCase() === id.type.toLowerCase(),
        );
  if (found === undefined) throw notFoundError(segment);
  return found;
}

/** `services/<folder>/<name>.<type>`. */
export function service(found: ServiceRecord): Reply {
  return json({
    serviceName: found.serviceName,
    type: found.type,
    folderName: found.folderName,
    description: "",
  });
}

/** `.../status`: configured and real-time state, the same since start and stop act at once. */
export function serviceStatus(found: ServiceRecord): Reply {
  return json({ configuredState: found.configuredState, realTimeState: found.configuredState });
}

/** `.../start` and `.../stop`: sets the configured state. */
export async function setServiceState(
  rt: Runtime,
  found: ServiceRecord,
  state: "STARTED" | "STOPPED",
): Promise<Reply> {
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    const record = draft.site.services.find(
      (s) =>
        s.folderName === found.folderName &&
        s.serviceName === found.serviceName &&
        s.type === found.type,
    );
    if (record === undefined) throw notFoundError(`${found.serviceName}.${found.type}`);
    record.configuredState = state;
  });
  return json({ status: "success" });
}

/**
 * `.../delete` (ArcGIS Server): removes the service from the site. Chef's `delete_service` (the
 * same Chef file; `providers/gis_service.rb` action `:delete`, after `service_exists?`) POSTs it
 * with token and f=json and fails on an error;
 * https://developers.arcgis.com/rest/enterprise-administration/server/delete.htm documents POST
 * `f` and `{"status": "success"}`. An unknown service is code 404, as its resource is.
 */
export async function deleteService(rt: Runtime, found: ServiceRecord): Promise<Reply> {
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    const index = draft.site.services.findIndex(
      (s) =>
        s.folderName === found.folderName &&
        s.serviceName === found.serviceName &&
        s.type === found.type,
    );
    if (index < 0) throw notFoundError(`${found.serviceName}.${found.type}`);
    draft.site.services.splice(index, 1);
  });
  return json({ status: "success" });
}

/**
 * `services/federate` (ArcGIS Server): imports the site's services as items of the portal that
 * federated it. Chef's `federate` (the same Chef file, after `security/config/update`) POSTs it
 * with the portal's token and f=json and fails on an error;
 * https://developers.arcgis.com/rest/enterprise-administration/server/federate documents POST `f`
 * and `{"status": "success"}`, to be run once the server is federated. The emulated portal keeps
 * no items, so nothing changes there (docs/emulator.md); a site no portal of this process has
 * federated is refused with code 400 (this project's text).
 */
export function federateServices(_rt: Runtime, _req: ApiRequest, site: SiteRecord): Reply {
  if (federationOf(site) === null) {
    throw new AdminError(400, [
      "The server is not federated with a portal. Federate it with the portal first, then import its services.",
    ]);
  }
  return json({ status: "success" });
}

/**
 * `system/webadaptors`: the Web Adaptors registered with the site, `register` (what a Web
 * Adaptor's configure step, and the ArcGIS API for Python, post) and `<id>/unregister` (what Chef's
 * `unregister_web_adaptors` calls for each one listed before unregistering a machine).
 *
 * Evidence:
 * - Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb` (`web_adaptors`: POST
 *   `system/webadaptors`, reads `webAdaptors`; `unregister_web_adaptor`: POST
 *   `system/webadaptors/<id>/unregister`) and `cookbooks/arcgis-mission/…` (the same for Mission,
 *   Notebook and Video Server's cookbooks).
 * - The ArcGIS API for Python 2.4.4, `arcgis/gis/mission/_system.py`: `WebAdaptorManager.list`
 *   (GET, `webAdaptors[].id`), `register` (POST `machineName`, `machineIP`, `webAdaptorURL`,
 *   `description`, `httpPort`, `httpsPort`; reads `status`), `WebAdaptor.unregister` (reads
 *   `status`).
 * - https://developers.arcgis.com/rest/enterprise-administration/server/webadaptors.htm and
 *   https://developers.arcgis.com/rest/enterprise-administration/notebook/web-adaptors-notebook-server
 *   (each entry: `id`, `webAdaptorURL`, `machineName`, `machineIP`, `description`, `httpPort`,
 *   `httpsPort`, `isAdminEnabled`).
 * Assumptions (docs/emulator.md): the texts of the refusals; a second registration of the same
 * `webAdaptorURL` replaces the first (as reconfiguring a Web Adaptor does); `isAdminEnabled`
 * defaults to false.
 */
import { randomUUID } from "node:crypto";
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { SiteRecord, WebAdaptorRecord } from "../core/state";
import { notFoundError } from "./not-found";
import { refuseDuringExport, siteUnavailableError } from "./site";

/** `system/webadaptors`. */
export function listWebAdaptors(site: SiteRecord): Reply {
  return json({ webAdaptors: site.webAdaptors });
}

/** `system/webadaptors/<id>`. */
export function webAdaptor(site: SiteRecord, id: string): Reply {
  const found = site.webAdaptors.find((w) => w.id === id);
  if (found === undefined) throw notFoundError(id);
  return json(found);
}

function port(req: ApiRequest, name: string): number {
  const text = req.params.get(name)?.trim() ?? "";
  const value = Number(text);
  if (text === "" || !Number.isInteger(value) || value < -1 || value > 65535) {
    throw new AdminError(400, [`The parameter '${name}' must be a port number.`]);
  }
  return value;
}

/**
 * The entry a `register` request describes, on a site or a portal (portal/web-adaptors.ts):
 * what the ArcGIS API for Python's `register` sends, refused naming a missing or bad parameter.
 */
export function webAdaptorEntry(req: ApiRequest): WebAdaptorRecord {
  const required = (name: string): string => {
    const value = req.params.get(name)?.trim() ?? "";
    if (value === "") throw new AdminError(400, [`The parameter '${name}' is required.`]);
    return value;
  };
  return {
    id: randomUUID(),
    machineName: required("machineName"),
    machineIP: required("machineIP"),
    webAdaptorURL: required("webAdaptorURL"),
    description: req.params.get("description") ?? "",
    httpPort: port(req, "httpPort"),
    httpsPort: port(req, "httpsPort"),
    isAdminEnabled: req.params.get("isAdminEnabled")?.trim().toLowerCase() === "true",
  };
}

/** The list with `entry` registered: a second registration of its URL replaces the first. */
export function withWebAdaptor(
  list: readonly WebAdaptorRecord[],
  entry: WebAdaptorRecord,
): WebAdaptorRecord[] {
  return [...list.filter((w) => w.webAdaptorURL !== entry.webAdaptorURL), entry];
}

/** `system/webadaptors/register`. */
export async function registerWebAdaptor(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const entry = webAdaptorEntry(req);
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    draft.site.webAdaptors = withWebAdaptor(draft.site.webAdaptors, entry);
  });
  return json({ status: "success" });
}

/** `system/webadaptors/<id>/unregister`. */
export async function unregisterWebAdaptor(rt: Runtime, id: string): Promise<Reply> {
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    if (!draft.site.webAdaptors.some((w) => w.id === id)) throw notFoundError(id);
    draft.site.webAdaptors = draft.site.webAdaptors.filter((w) => w.id !== id);
  });
  return json({ status: "success" });
}

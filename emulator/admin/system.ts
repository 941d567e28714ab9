/**
 * The system resources Esri's automation reads and writes after creating a site: the server
 * properties and their update, the licenses, and ArcGIS Server's services directory settings.
 *
 * Evidence:
 * - `system/properties` (read) and `system/properties/update` (`properties`, a JSON object; the
 *   answer `{"status":"success"}`): Esri/arcgis-cookbook at
 *   6b807249eec03146b913a2ad8661425472d53780, `cookbooks/arcgis-mission/libraries/server_admin_client.rb`
 *   (`system_properties` POSTs with token and f, `update_system_properties` POSTs the read
 *   properties merged with the wanted ones), the same in `cookbooks/arcgis-notebooks/…`,
 *   `cookbooks/arcgis-video/…` and `cookbooks/arcgis-enterprise/…`; the ArcGIS API for Python
 *   2.4.4 `arcgis/gis/mission/_system.py` (`SystemManager.properties`, GET; its setter posts
 *   `properties` and requires `status` in the answer);
 *   https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-properties-update-properties
 *   and https://developers.arcgis.com/rest/enterprise-administration/server/updateserverproperties
 *   ("The update operation overwrites all existing properties", `{"status": "success"}`).
 * - `system/licenses`: https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-licenses
 *   (`{"features":[{name, displayName, coreCount, version, canExpire, expiration}]}`); the Python
 *   library's `SystemManager.licenses` GETs it.
 * - `system/handlers/rest/servicesdirectory` and its `edit` (ArcGIS Server): the Chef file of
 *   `arcgis-enterprise` (`services_directory_properties`, `update_services_directory_properties`:
 *   `servicesDirEnabled` and the other properties sent back as read) and
 *   https://developers.arcgis.com/rest/enterprise-administration/server/handlersrestservicesdirectory
 *   (the property names).
 * Assumptions (docs/emulator.md): a new site has no properties (`{}`); the values of the licenses
 * and of the services directory's defaults; the texts of the refusals.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { SiteRecord } from "../core/state";
import { refuseDuringExport, siteUnavailableError } from "./site";

/** `system/properties`: the properties as the last update gave them, keys as given. */
export function systemProperties(site: SiteRecord): Reply {
  return json(site.properties);
}

/** Reads a form parameter that must hold a JSON object; code 400 naming it otherwise. */
function jsonObjectParam(req: ApiRequest, name: string): Record<string, unknown> {
  const text = req.params.get(name);
  if (text === undefined || text.trim() === "") {
    throw new AdminError(400, [`The parameter '${name}' is required: a JSON object.`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AdminError(400, [
      `Unable to parse the parameter '${name}': ${error instanceof Error ? error.message : String(error)}`,
    ]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AdminError(400, [`The parameter '${name}' must be a JSON object.`]);
  }
  return value as Record<string, unknown>;
}

/**
 * `system/properties/update`: replaces every property with the given object (Esri's docs: the
 * update overwrites all existing properties), like any configuration change refused while an
 * export or import holds the site.
 */
export async function updateSystemProperties(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const properties = jsonObjectParam(req, "properties");
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    draft.site.properties = properties;
  });
  return json({ status: "success" });
}

/** The licensed role each product reports (an assumption: only the shape is documented). */
const LICENSED_ROLE: Record<string, { name: string; displayName: string }> = {
  "mission-server": { name: "missionserver", displayName: "ArcGIS Mission Server" },
  "arcgis-server": { name: "esriServerStandard", displayName: "ArcGIS Server Standard" },
  "notebook-server": { name: "notebookserver", displayName: "ArcGIS Notebook Server" },
  "video-server": { name: "videoserver", displayName: "ArcGIS Video Server" },
};

/** A year, in milliseconds: how long the emulated license lasts from the site's creation. */
const LICENSE_TERM_MS = 365 * 24 * 60 * 60 * 1000;

/** `system/licenses`: the documented shape, one feature for the emulated product. */
export function licenses(rt: Runtime, site: SiteRecord): Reply {
  const role = LICENSED_ROLE[rt.product.type]!;
  return json({
    features: [
      {
        ...role,
        coreCount: 4,
        version: rt.options.serverVersion.full,
        canExpire: true,
        expiration: site.requestedAt + LICENSE_TERM_MS,
      },
    ],
  });
}

/**
 * The services directory's settings on a new site: the documented property names; the URLs are
 * those of the docs' example (an assumption: a real server's depend on its release).
 */
const SERVICES_DIRECTORY_DEFAULTS: Record<string, unknown> = {
  "jsapi.arcgis.css": "https://js.arcgis.com/4.23/esri/css/main.css",
  "jsapi.arcgis.css2": "",
  "arcgis.com.map.text": "ArcGIS Online Map Viewer",
  allowedOrigins: "*",
  "arcgis.com.map": "https://www.arcgis.com/home/webmap/viewer.html",
  "jsapi.arcgis": "https://js.arcgis.com/4.23/",
  callbackFunctionsEnabled: false,
  consoleLogging: false,
  "jsapi.arcgis.sdk": "https://developers.arcgis.com/javascript/",
  enabled: true,
};

/** `system/handlers/rest/servicesdirectory` (ArcGIS Server). */
export function servicesDirectory(site: SiteRecord): Reply {
  return json({ ...SERVICES_DIRECTORY_DEFAULTS, ...site.servicesDirectory });
}

/** The edit's form fields that are booleans (sent as `true` / `false`, any letter case). */
const BOOLEAN_FIELDS = new Set(["callbackFunctionsEnabled", "consoleLogging"]);

/**
 * `system/handlers/rest/servicesdirectory/edit`: `servicesDirEnabled` (required, Chef always
 * sends it) sets `enabled`; every other documented property sent replaces its value; a field the
 * resource does not have is ignored.
 */
export async function editServicesDirectory(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const enabled = req.params.get("servicesDirEnabled")?.trim().toLowerCase();
  if (enabled !== "true" && enabled !== "false") {
    throw new AdminError(400, ["The parameter 'servicesDirEnabled' must be 'true' or 'false'."]);
  }
  const edited: Record<string, unknown> = { enabled: enabled === "true" };
  for (const key of Object.keys(SERVICES_DIRECTORY_DEFAULTS)) {
    const value = req.params.get(key);
    if (key === "enabled" || value === undefined) continue;
    edited[key] = BOOLEAN_FIELDS.has(key) ? value.trim().toLowerCase() === "true" : value;
  }
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    draft.site.servicesDirectory = { ...draft.site.servicesDirectory, ...edited };
  });
  return json({ status: "success" });
}

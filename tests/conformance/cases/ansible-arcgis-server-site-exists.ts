import type { ConformanceCase } from "../corpus";

/** "Is the machine in a site?" on ArcGIS Server: a top-level code 499, HTTP 200. */
export const ansibleArcgisServerSiteExists: ConformanceCase = {
  name: "ansible-arcgis-server-site-exists",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/server/plugins/module_utils/server_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol: "ServerAdminClient.site_exists (response.code 200, json_response['code'] == 499)",
    },
  ],
  given: "site",
  request: { method: "GET", path: "/admin/", params: { f: "json" } },
  answer: { httpStatus: 200, body: { status: "error", code: 499 } },
  client: { operation: "siteStatus", expect: "in-site" },
};

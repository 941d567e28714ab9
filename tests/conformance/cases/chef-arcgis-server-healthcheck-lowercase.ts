import type { ConformanceCase } from "../corpus";

/** Chef's portal `federate_server` action waits for the server's health check, spelled `healthcheck`. */
export const chefArcgisServerHealthcheckLowercase: ConformanceCase = {
  name: "chef-arcgis-server-healthcheck-lowercase",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/providers/portal.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "action :federate_server: Utils.wait_until_url_available(server_url + '/rest/info/healthcheck?f=json') (line 580; available: an HTTP status below 400, libraries/utils.rb url_available?)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "waits for /arcgis/rest/info/healthcheck after a certificate change, whatever ServerType",
    },
    {
      url: "https://developers.arcgis.com/rest/services-reference/enterprise/health-check.htm",
      states:
        'GET <root>/rest/info/healthCheck; {"success": true} with HTTP 200 when the site can serve requests',
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/rest/info/healthcheck",
    params: {
      f: "json",
    },
  },
  answer: {
    httpStatus: 200,
    body: {
      success: true,
    },
  },
  assumptions: [
    "ArcGIS Server answers the health check in either letter case (Chef's and DSC's lower-case path is used against real servers).",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

import type { ConformanceCase } from "../corpus";

/** ArcGIS Server's health check: `{root}/rest/info/healthCheck`, HTTP 200 and success true. */
export const docsArcgisServerHealthcheckHealthy: ConformanceCase = {
  name: "docs-arcgis-server-healthcheck-healthy",
  serverType: "arcgis-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/services-reference/enterprise/health-check.htm",
      states:
        'A healthy (available) site will return an HTTP 200 response code along with a message indicating "success": true.',
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server/ArcGIS_Server.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Wait-ForUrl https://<fqdn>:6443/arcgis/rest/info/healthCheck?f=json",
    },
  ],
  given: "site",
  request: { method: "GET", path: "/rest/info/healthCheck", params: { f: "json" } },
  answer: { httpStatus: 200, body: { success: true } },
  client: { operation: "healthCheck", expect: "healthy" },
};

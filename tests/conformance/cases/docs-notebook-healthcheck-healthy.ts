import type { ConformanceCase } from "../corpus";

/** Notebook Server's health check: `{root}/rest/info/healthcheck`, success (a string in the example). */
export const docsNotebookHealthcheckHealthy: ConformanceCase = {
  name: "docs-notebook-healthcheck-healthy",
  serverType: "notebook-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/notebook/health-check",
      states:
        'https://notebookserver.example.com:11443/arcgis/rest/info/healthcheck, f=json; JSON response syntax {"success": "true|false"}, example {"success": "true"}; false when the site has not been created; introduced at 10.9; no token listed among its parameters',
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_NotebookServerSettings/ArcGIS_NotebookServerSettings.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Set-TargetResource (Wait-ForUrl $ServerUrl/arcgis/rest/info/healthcheck/?f=json, no token)",
    },
  ],
  given: "site",
  request: { method: "GET", path: "/rest/info/healthcheck", params: { f: "json" } },
  answer: { httpStatus: 200, body: { success: { $anyOf: [true, "true"] } } },
  client: { operation: "healthCheck", expect: "healthy" },
  assumptions: [
    'The example answer is the string "true" while the property list says true | false: the emulator answers the string, as the example shows.',
  ],
};

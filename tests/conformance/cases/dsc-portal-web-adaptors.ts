import type { ConformanceCase } from "../corpus";

/** DSC reads a portal's Web Adaptors (GET, token in the form) to find the one to unregister. */
export const dscPortalWebAdaptors: ConformanceCase = {
  name: "dsc-portal-web-adaptors",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_WebAdaptor/ArcGIS_WebAdaptor.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Unregister-WebAdaptor (GET {portal}:7443/arcgis/portaladmin/system/webadaptors with token and f=json; matches webAdaptors[].webAdaptorURL, then POSTs <id>/unregister) (line 615)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/web-adaptors.htm",
      states: 'GET <root>/system/webadaptors; JSON response syntax {"webAdaptors": [Web Adaptor]}',
    },
  ],
  given: "site",
  request: {
    method: "GET",
    root: "portal",
    path: "/portaladmin/system/webadaptors",
    params: { f: "json" },
    token: "portal",
  },
  answer: { httpStatus: 200, body: { webAdaptors: [] } },
  client: {
    operation: "none",
    why: "The provider performs no such exchange yet; the case is evidence for the emulator only.",
  },
};

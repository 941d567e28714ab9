import type { ConformanceCase } from "../corpus";
import { chefPortalWebAdaptors } from "./chef-portal-web-adaptors";

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
  // Chef's exchange, read with GET and the token in the form.
  given: chefPortalWebAdaptors.given,
  request: { ...chefPortalWebAdaptors.request, method: "GET" },
  answer: chefPortalWebAdaptors.answer,
  client: chefPortalWebAdaptors.client,
};

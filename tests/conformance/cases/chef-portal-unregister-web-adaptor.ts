import type { ConformanceCase } from "../corpus";
import { chefPortalWebAdaptors } from "./chef-portal-web-adaptors";

/** Chef unregisters each Web Adaptor a portal lists (with a token); the list is then empty. */
export const chefPortalUnregisterWebAdaptor: ConformanceCase = {
  name: "chef-portal-unregister-web-adaptor",
  serverType: chefPortalWebAdaptors.serverType,
  sources: [
    {
      // The same Chef file at the same commit as the list's case.
      ...chefPortalWebAdaptors.sources[0]!,
      symbol:
        "PortalAdminClient#unregister_web_adaptor (POST portaladmin/system/webadaptors/<id>/unregister with token and f=json, Referer 'referer'; validate_response) (line 699), for each webAdaptors[].id of #web_adaptors (line 714) in providers/portal.rb (line 446)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_WebAdaptor/ArcGIS_WebAdaptor.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Unregister-WebAdaptor (POST <id>/unregister with f=json and token) (line 621)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/web-adaptor.htm",
      states: "The Web Adaptor resource (id, webAdaptorURL, ports) and its Unregister operation",
    },
  ],
  given: "site-with-web-adaptor",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/system/webadaptors/{portalWebAdaptorId}/unregister",
    params: { f: "json" },
    token: "portal",
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  // The list is then empty, read as Chef reads it.
  followUp: { request: chefPortalWebAdaptors.request, answer: chefPortalWebAdaptors.answer },
  client: chefPortalWebAdaptors.client,
  assumptions: ['The answer {"status":"success"}, as the server\'s unregister page shows it.'],
};

import type { ConformanceCase } from "../corpus";

/** Chef unregisters each Web Adaptor a portal lists (with a token); the list is then empty. */
export const chefPortalUnregisterWebAdaptor: ConformanceCase = {
  name: "chef-portal-unregister-web-adaptor",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
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
  followUp: {
    request: {
      method: "POST",
      root: "portal",
      path: "/portaladmin/system/webadaptors",
      params: { f: "json" },
      token: "portal",
    },
    answer: { httpStatus: 200, body: { webAdaptors: [] } },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange yet; the case is evidence for the emulator only.",
  },
  assumptions: ['The answer {"status":"success"}, as the server\'s unregister page shows it.'],
};

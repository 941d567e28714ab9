import type { ConformanceCase } from "../corpus";

/** Chef and DSC wait for a portal's health check (through its Web Adaptor) after configuring it. */
export const chefPortalHealthCheck: ConformanceCase = {
  name: "chef-portal-health-check",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/providers/webadaptor.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "action :configure_with_portal (line 229): Utils.wait_until_url_available and Utils.url_available? on {portal_wa_url}/portaladmin/healthCheck (GET, no token, Accept-Language en-US; available when the status is below 400: libraries/utils.rb line 33)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_WebAdaptor/ArcGIS_WebAdaptor.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Set-TargetResource: Wait-ForUrl https://{host}/{context}/portaladmin/healthCheck -HttpMethod GET (line 186)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/health-check-portal.htm",
      states:
        'An available portal machine returns HTTP 200; JSON response example {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "GET",
    root: "portal",
    path: "/portaladmin/healthCheck",
    params: { f: "json" },
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "none",
    why: "The provider performs no such exchange yet; the case is evidence for the emulator only.",
  },
};

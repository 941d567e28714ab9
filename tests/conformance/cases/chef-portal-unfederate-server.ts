import type { ConformanceCase } from "../corpus";

/** Chef's portal `unfederate_server` action unfederates the server it found in the list. */
export const chefPortalUnfederateServer: ConformanceCase = {
  name: "chef-portal-unfederate-server",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#unfederate_server (POST portaladmin/federation/servers/<id>/unfederate: token, forceUnfederate=true, f=json; validate_response) (line 571), from providers/portal.rb action :unfederate_server (line 612)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Invoke-UnFederateServer (f, token)",
    },
  ],
  given: "federated-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/federation/servers/{serverId}/unfederate",
    params: {
      forceUnfederate: "true",
      f: "json",
    },
    token: "portal",
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
    },
  },
  followUp: {
    request: {
      method: "GET",
      root: "portal",
      path: "/portaladmin/federation/servers/",
      params: {
        f: "json",
      },
      token: "portal",
    },
    answer: {
      httpStatus: 200,
      body: {
        servers: [],
      },
    },
  },
  assumptions: [
    'unfederate answers {"status": "success"} (Chef reads only that there is no error).',
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

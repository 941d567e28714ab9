import type { ConformanceCase } from "../corpus";

/** Chef completes an ArcGIS Server 11.3 site's upgrade synchronously (no token); afterwards `upgrade` is gone. */
export const chefArcgisServerCompleteUpgrade: ConformanceCase = {
  name: "chef-arcgis-server-complete-upgrade",
  serverType: "arcgis-server",
  version: "11.3",
  upgradeFrom: "11.1",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#complete_upgrade (POST admin/upgrade with f=json, no token; validate_response fails on status 'error'), chosen by providers/server.rb :create_site for versions 10.9.1 to 11.3 (line 159)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/upgrade",
      states:
        'POST runAsync (default false), enableDebug, f; synchronous JSON response example {"status": "success"}; not available after a successful upgrade',
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_ServerUpgrade/ArcGIS_ServerUpgrade.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Test-TargetResource: after an upgrade, GET admin/upgrade answers code 404 with status 'error' (then rest/info's currentVersion is checked)",
    },
  ],
  given: "upgrade-required",
  request: {
    method: "POST",
    path: "/admin/upgrade",
    params: { f: "json" },
  },
  answer: {
    httpStatus: 200,
    body: { status: "success" },
  },
  followUp: {
    request: { method: "GET", path: "/admin/upgrade", params: { f: "json" } },
    answer: {
      httpStatus: 200,
      body: {
        status: "error",
        code: 404,
        messages: ["Could not find resource or operation 'upgrade' on the system."],
      },
    },
  },
  client: { operation: "completeUpgrade" },
  assumptions: [
    "The 404's text is what a real ArcGIS Server answered when no upgrade was due (arcgis-powershell-dsc issue #323); that it answers so without a token is DSC's reading.",
  ],
};

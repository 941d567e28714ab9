import type { ConformanceCase } from "../corpus";

/** Chef joins a Mission Server machine to a site: adminURL, username, password; DSC reads status and pollAfter. */
export const chefMissionJoinSite: ConformanceCase = {
  name: "chef-mission-join-site",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "join_site (adminURL = primary_server_url + '/admin'), #validate_response",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServer/ArcGIS_MissionServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        'Join-Site ($response.status -ieq "success"; Start-Sleep $response.pollAfter when present)',
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/join-site",
      states:
        'POST <admin-url>/joinSite with adminURL, username, password, f; answers {"status": "success|failure"}; only for a machine in no site',
    },
  ],
  given: "joining-machine",
  request: {
    method: "POST",
    path: "/admin/joinSite",
    params: {
      username: "siteadmin",
      password: "Example-passw0rd",
      adminURL: "{siteAdminUrl}",
      f: "json",
    },
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "joinSite",
    input: { siteAdminUrl: "{siteAdminUrl}", username: "siteadmin", password: "Example-passw0rd" },
  },
  assumptions: [
    "pollAfter: DSC reads it when present; Mission Server's documentation shows only status (the emulator answers it, docs/emulator.md).",
  ],
};

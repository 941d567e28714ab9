import type { ConformanceCase } from "../corpus";

/** Chef joins a Video Server machine to a site: adminURL, username, password; DSC reads status and pollAfter. */
export const chefVideoJoinSite: ConformanceCase = {
  name: "chef-video-join-site",
  serverType: "video-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-video/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "join_site (adminURL = primary_server_url + '/admin'), #validate_response",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_VideoServer/ArcGIS_VideoServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        'Join-Site ($response.status -ieq "success"; Start-Sleep $response.pollAfter when present)',
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
    "pollAfter: DSC reads it when present; Video Server's documentation shows only status (the emulator answers it, docs/emulator.md).",
  ],
};

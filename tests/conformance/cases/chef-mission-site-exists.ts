import type { ConformanceCase } from "../corpus";

/** "Is the machine in a site?" on Mission Server: 499 inside an `error` object, HTTP 200. */
export const chefMissionSiteExists: ConformanceCase = {
  name: "chef-mission-site-exists",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "MissionServerAdminClient#site_exist? (HTTP 200, json['error']['code'] == 499)",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-notebooks/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "NotebookServerAdminClient#site_exist? (the same check)",
    },
  ],
  given: "site",
  request: { method: "GET", path: "/admin/", params: { f: "json" } },
  answer: { httpStatus: 200, body: { error: { code: 499 } } },
  client: { operation: "siteStatus", expect: "in-site" },
  assumptions: [
    "The message text of the 499 error on Mission Server: Chef reads only the code; the emulator uses ArcGIS Server's documented 499 text.",
  ],
};

import type { ConformanceCase } from "../corpus";

/** A machine in no site: anything but a 499 means "no site" to Esri's tools. */
export const chefMissionNoSite: ConformanceCase = {
  name: "chef-mission-no-site",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "MissionServerAdminClient#site_exist? (false unless an error with code 499)",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/resources/server.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "action :create_site (creates the site when site_exist? is false)",
    },
  ],
  given: "no-site",
  request: { method: "GET", path: "/admin/", params: { f: "json" } },
  answer: { httpStatus: 200, body: { error: { code: { $not: 499 } } } },
  client: { operation: "siteStatus", expect: "no-site" },
  assumptions: [
    "What a Mission Server in no site answers: no source shows it. The emulator answers an error in the product's format whose code is not 499 (docs/emulator.md).",
  ],
};

import type { ConformanceCase } from "../corpus";

/** The version of a server: `GET {root}/rest/info?f=json`, read by Chef with the Referer header. */
export const chefMissionRestInfo: ConformanceCase = {
  name: "chef-mission-rest-info",
  serverType: "mission-server",
  version: "11.3",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "MissionServerAdminClient#info (GET /rest/info?f=json; raises error.message)",
    },
    {
      url: "https://developers.arcgis.com/rest/services-reference/enterprise/info.htm",
      states: "currentVersion (a number such as 11.3) and fullVersion (a string)",
    },
  ],
  given: "no-site",
  request: { method: "GET", path: "/rest/info", params: { f: "json" } },
  answer: {
    httpStatus: 200,
    body: { currentVersion: { $type: "number" }, fullVersion: { $type: "string" } },
  },
  client: { operation: "serverInfo", expect: { currentVersion: 11.3 } },
  assumptions: [
    "That rest/info answers before a site exists: Chef calls it only after, but the page documents no token for it.",
    "The emulator reports the version it is told (--server-version, default per product).",
  ],
};

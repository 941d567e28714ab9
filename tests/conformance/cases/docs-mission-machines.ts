import type { ConformanceCase } from "../corpus";

/** The site's machine list, as Mission Server's documentation shows it. */
export const docsMissionMachines: ConformanceCase = {
  name: "docs-mission-machines",
  serverType: "mission-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines",
      states:
        'GET <admin-root>/machines?f=json answers {"machines": [{"machineName": ..., "adminURL": ...}, ...]}',
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "machines (JSON.parse(response.body)['machines'], with a token)",
    },
  ],
  given: "two-machine-site",
  request: { method: "GET", path: "/admin/machines", params: { f: "json" }, token: true },
  answer: {
    httpStatus: 200,
    body: {
      machines: [
        { machineName: { $type: "string" }, adminURL: { $type: "string" } },
        { machineName: { $type: "string" }, adminURL: { $type: "string" } },
      ],
    },
  },
  client: { operation: "listMachines", expect: { count: 2 } },
};

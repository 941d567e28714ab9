import type { ConformanceCase } from "../corpus";

/** Chef unregisters a machine from a Mission Server site (with a token). */
export const chefMissionUnregisterMachine: ConformanceCase = {
  name: "chef-mission-unregister-machine",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "unregister_machine (POST machines/<machine_name>/unregister, token, f=json), #validate_response",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-unregister-machine",
      states:
        '<machines-url>/<machine_name>/unregister removes the machine from the site; response property success, example "success": "true"',
    },
  ],
  given: "two-machine-site",
  request: {
    method: "POST",
    path: "/admin/machines/{joinedMachine}/unregister",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { success: { $anyOf: ["true", true] } } },
  client: { operation: "unregisterMachine", input: { machineName: "{joinedMachine}" } },
};

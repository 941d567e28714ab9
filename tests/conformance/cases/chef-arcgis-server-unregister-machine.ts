import type { ConformanceCase } from "../corpus";

/** Chef unregisters a machine from a ArcGIS Server site (with a token). */
export const chefArcgisServerUnregisterMachine: ConformanceCase = {
  name: "chef-arcgis-server-unregister-machine",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#unregister_machine (POST machines/<machine_name>/unregister, token, f=json), #validate_response",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/unregistermachine",
      states:
        'POST <root>machines/<machine>/unregister with f; JSON response example {"status": "success"}',
    },
  ],
  given: "two-machine-site",
  request: {
    method: "POST",
    path: "/admin/machines/{joinedMachine}/unregister",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: { operation: "unregisterMachine", input: { machineName: "{joinedMachine}" } },
};

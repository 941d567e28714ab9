import type { ConformanceCase } from "../corpus";

/** Chef asks an ArcGIS Server machine for its own name (`local`) before editing or unregistering it. */
export const chefArcgisServerLocal: ConformanceCase = {
  name: "chef-arcgis-server-local",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#local_machine_name (GET admin/local with token and f=json in the query; reads machineName), providers/server.rb :join_site (line 430), :unregister_machine (line 884) (line 117)",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/local",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      machineName: {
        $type: "string",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: ["The answer's adminURL (Chef reads only machineName)."],
};

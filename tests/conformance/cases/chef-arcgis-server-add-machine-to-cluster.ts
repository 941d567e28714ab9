import type { ConformanceCase } from "../corpus";

/** Chef adds a machine it joined to an ArcGIS Server site to the `default` cluster (every run). */
export const chefArcgisServerAddMachineToCluster: ConformanceCase = {
  name: "chef-arcgis-server-add-machine-to-cluster",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#add_machine_to_cluster (POST admin/clusters/<cluster>/machines/add: username, password, machineNames, token, f=json; validate_response) (line 360), from providers/server.rb :join_cluster (line 422) and recipes/server_node.rb 'Add machine to default cluster' (cluster 'default')",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/addmachines",
      states:
        'POST <cluster-url>/machines/add with machineNames (comma-separated, machines registered with the site) and f; JSON response example {"status": "success"}',
    },
  ],
  given: "two-machine-site",
  request: {
    method: "POST",
    path: "/admin/clusters/default/machines/add",
    params: {
      username: "siteadmin",
      password: "Example-passw0rd",
      machineNames: "{joinedMachine}",
      f: "json",
    },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: { method: "GET", path: "/admin/clusters/default", params: { f: "json" } },
    answer: {
      httpStatus: 200,
      body: { clusterName: "default", machineNames: { $type: "array" } },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no clusters; the case is evidence for the emulator only.",
  },
  assumptions: [
    "A new site's 'default' cluster holds the machine that created it and a joined machine is in no cluster until added; adding a machine to its own cluster again succeeds (Chef adds it on every run).",
  ],
};

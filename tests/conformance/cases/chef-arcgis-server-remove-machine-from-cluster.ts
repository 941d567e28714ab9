import type { ConformanceCase } from "../corpus";

/** Chef's `stop_machine` action takes the stopped machine out of the `default` cluster. */
export const chefArcgisServerRemoveMachineFromCluster: ConformanceCase = {
  name: "chef-arcgis-server-remove-machine-from-cluster",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#remove_machine_from_cluster (POST admin/clusters/<cluster>/machines/remove: machineNames, token, f=json; cluster 'default'; validate_response) (line 1157), from providers/server.rb action :stop_machine (line 847)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/removemachines.htm",
      states:
        'POST <machines-url>/remove with machineNames (comma-separated) and f; the machines return to the pool of registered machines; JSON response example {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/clusters/default/machines/remove",
    params: {
      machineNames: "{siteMachine}",
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
    },
  },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/clusters/default",
      params: {
        f: "json",
      },
    },
    answer: {
      httpStatus: 200,
      body: {
        clusterName: "default",
        machineNames: [],
      },
    },
  },
  assumptions: [
    "A new site's 'default' cluster holds the machine that created it; a machine the cluster does not hold is removed without error.",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

import type { ConformanceCase } from "../corpus";

/** Chef's `unregister_stopped_machines` asks each machine of the site for its status. */
export const chefArcgisServerMachineStatus: ConformanceCase = {
  name: "chef-arcgis-server-machine-status",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#machine_status (POST admin/machines/<machine_name>/status: token, f=json; reads realTimeState, any failure counts as 'STOPPED') (line 1080), from #unregister_stopped_machines (line 1116) and providers/server.rb action :unregister_stopped_machines (line 913)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/status.htm",
      states:
        'GET <root>/machines/<machine>/status; JSON response example {"configuredState":"STARTED","realTimeState":"STARTED"}',
    },
  ],
  given: "two-machine-site",
  request: {
    method: "POST",
    path: "/admin/machines/{joinedMachine}/status",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      configuredState: "STARTED",
      realTimeState: "STARTED",
    },
  },
  assumptions: [
    "A machine that was never stopped is STARTED in both states. (Chef's machine_status indexes the body text, not its JSON: it reads 'STOPPED' only when the request fails, so it unregisters only machines whose status fails.)",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

import type { ConformanceCase } from "../corpus";

/** Chef's `stop_machine` action stops the machine it runs on; its status then says STOPPED. */
export const chefArcgisServerStopMachine: ConformanceCase = {
  name: "chef-arcgis-server-stop-machine",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#stop_machine (POST admin/machines/<machine_name>/stop: token, f=json; validate_response) (line 1140), from providers/server.rb action :stop_machine (line 845; the name from local_machine_name, line 843)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/stopmachine.htm",
      states:
        'POST <machine-url>/stop with f; JSON response example {"status": "success"}; the server continues to process administrator commands',
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/status.htm",
      states:
        'GET <root>/machines/<machine>/status; JSON response example {"configuredState":"STARTED","realTimeState":"STARTED"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/stop",
    params: {
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
      method: "POST",
      path: "/admin/machines/{siteMachine}/status",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        configuredState: "STOPPED",
        realTimeState: "STOPPED",
      },
    },
  },
  assumptions: [
    "stop takes effect at once, so the real-time state is the configured one; a stopped machine keeps answering the administrative API (the docs say it does) and its services' own endpoints are not emulated.",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

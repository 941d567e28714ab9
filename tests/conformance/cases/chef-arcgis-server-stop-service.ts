import type { ConformanceCase } from "../corpus";

/** Chef stops a System service; its status then says stopped. */
export const chefArcgisServerStopService: ConformanceCase = {
  name: "chef-arcgis-server-stop-service",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#stop_service (POST .../stop, token, f=json; validate_response), providers/gis_service.rb :stop (line 195) (line 897)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/service-status",
      states:
        'GET <root>/services/<folder>/<service>.<type>/status; JSON response {"configuredState":"STARTED","realTimeState":"STARTED"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/services/System/PublishingTools.GPServer/stop",
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
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  followUp: {
    request: {
      method: "POST",
      path: "/admin/services/System/PublishingTools.GPServer/status",
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
  assumptions: ['stop answers {"status": "success"} and takes effect at once.'],
};

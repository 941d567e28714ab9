import type { ConformanceCase } from "../corpus";

/** Chef reads a System service's status on a new ArcGIS Server site: started. */
export const chefArcgisServerServiceStatus: ConformanceCase = {
  name: "chef-arcgis-server-service-status",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#service_started? (POST .../status, token, f=json; realTimeState == 'STARTED'), #configured_service_state (line 834: configuredState) (line 857)",
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
    path: "/admin/services/System/PublishingTools.GPServer/status",
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
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
};

import type { ConformanceCase } from "../corpus";

/** Chef starts a System service (already started on a new site: starting it again succeeds). */
export const chefArcgisServerStartService: ConformanceCase = {
  name: "chef-arcgis-server-start-service",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#start_service (POST .../start, token, f=json; validate_response), providers/gis_service.rb :start (line 178) (line 880)",
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
    path: "/admin/services/System/PublishingTools.GPServer/start",
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
        configuredState: "STARTED",
        realTimeState: "STARTED",
      },
    },
  },
  assumptions: ['start answers {"status": "success"}; starting a started service is no error.'],
};

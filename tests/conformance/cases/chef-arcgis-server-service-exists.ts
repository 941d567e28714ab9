import type { ConformanceCase } from "../corpus";

/** Chef's `service_exists?('System/PublishingTools.GPServer')` on a new ArcGIS Server site: the service resource answers without an error. */
export const chefArcgisServerServiceExists: ConformanceCase = {
  name: "chef-arcgis-server-service-exists",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#service_exists? (POST admin/services/<folder>/<name>.<type>, token, f=json; true unless validate_response raises), providers/gis_service.rb (line 47) (line 812)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/services/System/PublishingTools.GPServer",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      serviceName: "PublishingTools",
      type: "GPServer",
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The service resource's fields (a real one answers its whole configuration; Chef reads only that it is no error).",
  ],
};

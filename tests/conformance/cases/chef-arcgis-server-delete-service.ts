import type { ConformanceCase } from "../corpus";

/** Chef's gis_service `:delete` action deletes a service that exists; it is gone afterwards. */
export const chefArcgisServerDeleteService: ConformanceCase = {
  name: "chef-arcgis-server-delete-service",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#delete_service (POST admin/services/<folder>/<name>.<type>/delete, token, f=json; validate_response) (line 914), from providers/gis_service.rb action :delete (line 212, after service_exists?)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/delete.htm",
      states: 'POST <service-url>/delete with f; JSON response example {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/services/Utilities/Geometry.GeometryServer/delete",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "POST",
      path: "/admin/services/Utilities/Geometry.GeometryServer",
      params: { f: "json" },
      token: true,
    },
    answer: { httpStatus: 200, body: { status: "error", code: 404 } },
  },
  client: {
    operation: "none",
    why: "The provider manages no services; the case is evidence for the emulator only.",
  },
  assumptions: [
    "A deleted service's resource answers code 404, as any unknown service does (Chef's service_exists? then reads false).",
  ],
};

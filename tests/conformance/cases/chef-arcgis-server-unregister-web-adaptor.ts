import type { ConformanceCase } from "../corpus";

/** Chef unregisters each Web Adaptor an ArcGIS Server site lists (with a token); the list is then empty. */
export const chefArcgisServerUnregisterWebAdaptor: ConformanceCase = {
  name: "chef-arcgis-server-unregister-web-adaptor",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#unregister_web_adaptor (POST admin/system/webadaptors/<id>/unregister with token, f=json; validate_response) (line 1175), for each webAdaptors[].id of #web_adaptors in #unregister_web_adaptors (line 1207); providers/server.rb :unregister_web_adaptors",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/unregisterwebadaptor.htm",
      states:
        'POST <webadaptor-url>/unregister with f; JSON response example {"status": "success"}',
    },
  ],
  given: "site-with-web-adaptor",
  request: {
    method: "POST",
    path: "/admin/system/webadaptors/{webAdaptorId}/unregister",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: { method: "POST", path: "/admin/system/webadaptors", params: { f: "json" } },
    answer: { httpStatus: 200, body: { webAdaptors: [] } },
  },
  client: {
    operation: "none",
    why: "The provider manages no Web Adaptors; the case is evidence for the emulator only.",
  },
};

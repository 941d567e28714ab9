import type { ConformanceCase } from "../corpus";

/** Chef lists an ArcGIS Server site's Web Adaptors before unregistering each (none on a new site). */
export const chefArcgisServerWebAdaptors: ConformanceCase = {
  name: "chef-arcgis-server-web-adaptors",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#web_adaptors (POST admin/system/webadaptors, token, f=json; reads webAdaptors), #unregister_web_adaptors (line 1207), providers/server.rb :unregister_web_adaptors (line 991) (line 1190)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/webadaptors.htm",
      states: 'GET <system-url>/webadaptors; JSON response example {"webAdaptors": [...]}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/webadaptors",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      webAdaptors: [],
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
};

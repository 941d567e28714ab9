import type { ConformanceCase } from "../corpus";

/** Chef reads ArcGIS Server's services directory settings to send them back with its edit. */
export const chefArcgisServerServicesDirectory: ConformanceCase = {
  name: "chef-arcgis-server-services-directory",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#services_directory_properties (POST admin/system/handlers/rest/servicesdirectory, token, f=json; reads callbackFunctionsEnabled, allowedOrigins, jsapi.arcgis, jsapi.arcgis.sdk, jsapi.arcgis.css, jsapi.arcgis.css2, arcgis.com.map, arcgis.com.map.text) (line 1213)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/handlersrestservicesdirectory",
      states:
        "GET <root>/system/handlers/rest/servicesdirectory; JSON response jsapi.arcgis.css, jsapi.arcgis.css2, arcgis.com.map.text, allowedOrigins, arcgis.com.map, jsapi.arcgis, callbackFunctionsEnabled, consoleLogging, jsapi.arcgis.sdk, enabled",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/handlers/rest/servicesdirectory",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      enabled: true,
      allowedOrigins: {
        $type: "string",
      },
      callbackFunctionsEnabled: {
        $type: "boolean",
      },
      "jsapi.arcgis": {
        $type: "string",
      },
      "arcgis.com.map": {
        $type: "string",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: ["The default values (the docs' example URLs; the Services Directory enabled)."],
};

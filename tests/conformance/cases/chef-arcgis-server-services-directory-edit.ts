import type { ConformanceCase } from "../corpus";

/** Chef turns ArcGIS Server's services directory off (its default recipe's `services_dir_enabled` false), sending the other properties back as read. */
export const chefArcgisServerServicesDirectoryEdit: ConformanceCase = {
  name: "chef-arcgis-server-services-directory-edit",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#update_services_directory_properties (POST admin/system/handlers/rest/servicesdirectory/edit: servicesDirEnabled, callbackFunctionsEnabled, allowedOrigins, jsapi.arcgis, jsapi.arcgis.sdk, jsapi.arcgis.css, jsapi.arcgis.css2, arcgis.com.map, arcgis.com.map.text, token, f=json), providers/server.rb :set_system_properties (line 459) (line 1230)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/handlers/rest/servicesdirectory/edit",
    params: {
      servicesDirEnabled: "false",
      callbackFunctionsEnabled: "false",
      allowedOrigins: "*",
      "jsapi.arcgis": "https://js.arcgis.com/4.23/",
      "jsapi.arcgis.sdk": "https://developers.arcgis.com/javascript/",
      "jsapi.arcgis.css": "https://js.arcgis.com/4.23/esri/css/main.css",
      "jsapi.arcgis.css2": "",
      "arcgis.com.map": "https://www.arcgis.com/home/webmap/viewer.html",
      "arcgis.com.map.text": "ArcGIS Online Map Viewer",
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
      path: "/admin/system/handlers/rest/servicesdirectory",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        enabled: false,
        allowedOrigins: "*",
      },
    },
  },
  assumptions: ['edit answers {"status": "success"} (Chef reads only that it is no error).'],
};

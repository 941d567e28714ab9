import type { ConformanceCase } from "../corpus";

/** Chef updates an ArcGIS Server site's system properties (merged with those read); the keys are kept as given. */
export const chefArcgisServerUpdateSystemProperties: ConformanceCase = {
  name: "chef-arcgis-server-update-system-properties",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#update_system_properties (POST admin/system/properties/update: properties (JSON), token, f=json), after #system_properties (line 931); providers/server.rb :set_system_properties (line 448) (line 948)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/updateserverproperties",
      states:
        'POST <root>/system/properties/update with properties (a JSON object) and f; the update overwrites all existing properties; JSON response {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/properties/update",
    params: {
      properties: {
        WebContextURL: "https://mycompany.com/gis",
        uploadFileExtensionWhitelist: "soe,sd,sde,csv,txt,kmz,geodatabase",
        percentageMaxAllowedComputeCores: 50,
      },
      f: "json",
    },
    jsonParams: ["properties"],
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
    },
  },
  client: {
    operation: "updateSystemProperties",
    input: {
      properties: {
        WebContextURL: "https://mycompany.com/gis",
        uploadFileExtensionWhitelist: "soe,sd,sde,csv,txt,kmz,geodatabase",
        percentageMaxAllowedComputeCores: 50,
      },
    },
  },
  followUp: {
    request: {
      method: "POST",
      path: "/admin/system/properties",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        WebContextURL: "https://mycompany.com/gis",
        uploadFileExtensionWhitelist: "soe,sd,sde,csv,txt,kmz,geodatabase",
        percentageMaxAllowedComputeCores: 50,
      },
    },
  },
};

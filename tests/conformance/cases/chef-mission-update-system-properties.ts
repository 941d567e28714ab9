import type { ConformanceCase } from "../corpus";

/** Chef updates a Mission Server site's system properties: the read properties merged with the wanted ones, posted as `properties`; the keys are kept as given. */
export const chefMissionUpdateSystemProperties: ConformanceCase = {
  name: "chef-mission-update-system-properties",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "MissionServerAdminClient#update_system_properties (POST admin/system/properties/update: properties (JSON), token, f=json; validate_response) (line 245)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-properties-update-properties",
      states:
        'POST <system-url>/properties/update with properties (a JSON object) and f; overwrites all existing properties; JSON response {"status": "success"}; version introduced 10.8',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/properties/update",
    params: {
      properties: {
        WebContextURL: "https://mission.example.com/mission",
        AuthTokenTimeInSeconds: 180,
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
        WebContextURL: "https://mission.example.com/mission",
        AuthTokenTimeInSeconds: 180,
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
        WebContextURL: "https://mission.example.com/mission",
        AuthTokenTimeInSeconds: 180,
      },
    },
  },
};

import type { ConformanceCase } from "../corpus";

/** Chef updates a Video Server site's system properties; the keys are kept as given. */
export const chefVideoUpdateSystemProperties: ConformanceCase = {
  name: "chef-video-update-system-properties",
  serverType: "video-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-video/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "VideoServerAdminClient#update_system_properties (POST admin/system/properties/update: properties (JSON), token, f=json) (line 240)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/video-server/updateProperties",
      states:
        'POST <root>/system/properties/update with properties and f (token required), sample properties maxFrameCount, maxFileUploadSize, disableServicesDirectory; JSON response {"status": "success"}; version introduced 12.0',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/properties/update",
    params: {
      properties: {
        maxFrameCount: 5000,
        maxFileUploadSize: 10000,
        disableServicesDirectory: false,
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
        maxFrameCount: 5000,
        maxFileUploadSize: 10000,
        disableServicesDirectory: false,
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
        maxFrameCount: 5000,
        maxFileUploadSize: 10000,
        disableServicesDirectory: false,
      },
    },
  },
};

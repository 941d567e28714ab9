import type { ConformanceCase } from "../corpus";

/** Chef reads a Mission Server site's system properties (POST, token): a JSON object of the properties; a new site has none. */
export const chefMissionSystemProperties: ConformanceCase = {
  name: "chef-mission-system-properties",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "MissionServerAdminClient#system_properties (POST admin/system/properties with token, f=json; JSON.parse of the body), called by #update_system_properties from resources/server.rb :set_system_properties (line 228)",
    },
  ],
  given: "site",
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
    body: {},
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: [
    "A new site has no system properties: the answer is {} (no source shows a new site's properties).",
  ],
};

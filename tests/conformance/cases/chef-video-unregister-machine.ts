import type { ConformanceCase } from "../corpus";

/** Chef unregisters a machine from a Video Server site (with a token). */
export const chefVideoUnregisterMachine: ConformanceCase = {
  name: "chef-video-unregister-machine",
  serverType: "video-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-video/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "unregister_machine (POST machines/<machine_name>/unregister, token, f=json), #validate_response",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/video-server/unregistermachine",
      states:
        'POST <root>/machines/<machine>/unregister with f and token (introduced 12.0); JSON response example {"status": "success"}',
    },
  ],
  given: "two-machine-site",
  request: {
    method: "POST",
    path: "/admin/machines/{joinedMachine}/unregister",
    params: { f: "json" },
    token: true,
  },
  // Chef parses the body as JSON and fails on an `error` member; no field of it is read. The
  // body is Video Server's 12.0 page's.
  answer: { httpStatus: 200, body: { status: "success" } },
  client: { operation: "unregisterMachine", input: { machineName: "{joinedMachine}" } },
};

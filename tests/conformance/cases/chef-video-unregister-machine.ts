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
  ],
  given: "two-machine-site",
  request: {
    method: "POST",
    path: "/admin/machines/{joinedMachine}/unregister",
    params: { f: "json" },
    token: true,
  },
  // Chef parses the body as JSON and fails on an `error` member; no field of it is read.
  answer: { httpStatus: 200, body: {} },
  client: { operation: "unregisterMachine", input: { machineName: "{joinedMachine}" } },
  assumptions: [
    "The success body: Chef reads only the error member, and no Video Server page shows it; the emulator answers as Mission and Notebook Server do.",
  ],
};

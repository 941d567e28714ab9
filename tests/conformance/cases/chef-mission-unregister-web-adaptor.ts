import type { ConformanceCase } from "../corpus";

/** Chef unregisters each Web Adaptor a Mission Server site lists (with a token); the list is then empty. */
export const chefMissionUnregisterWebAdaptor: ConformanceCase = {
  name: "chef-mission-unregister-web-adaptor",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "MissionServerAdminClient#unregister_web_adaptor (POST admin/system/webadaptors/<id>/unregister with token, f=json; validate_response fails on an `error` member) (line 313), for each webAdaptors[].id of #unregister_web_adaptors (line 328); resources/server.rb :unregister_web_adaptors",
    },
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_system.py",
      symbol:
        "WebAdaptor.unregister (POST <webadaptor>/unregister, f=json; reads status) (line 496)",
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
  assumptions: [
    'Mission Server answers {"status": "success"} (the Python library reads status; no Mission page shows the answer).',
  ],
};

import type { ConformanceCase } from "../corpus";

/** Chef reads an ArcGIS Server machine's settings before editing them (it needs `ports`). */
export const chefArcgisServerMachineInfo: ConformanceCase = {
  name: "chef-arcgis-server-machine-info",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#machine_info (POST admin/machines/<machine> with token, f=json) (line 450); its callers read adminURL, webServerMaxHeapSize, webServerCertificateAlias, appServerMaxHeapSize, socMaxHeapSize and machine['ports']['OpenEJBPort'] (a missing `ports` would fail)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/machine",
      states:
        "machine resource fields: machineName, platform, adminURL, ports, ServerStartTime, webServerMaxHeapSize, appServerMaxHeapSize, socMaxHeapSize, webServerSSLEnabled, webServerCertificateAlias, configuredState, synchronize, underMaintenance; example -1, 256, 64",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}",
    params: { f: "json" },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      machineName: "{siteMachine}",
      adminURL: { $type: "string" },
      ports: { HTTPS: 6443 },
      webServerMaxHeapSize: -1,
      appServerMaxHeapSize: 256,
      socMaxHeapSize: 64,
      webServerSSLEnabled: true,
      webServerCertificateAlias: { $type: "string" },
      configuredState: "STARTED",
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no machine settings; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The values before any edit are the docs' example (ports HTTP 6080, webSocketsPort 6180, HTTPS 6443) and the alias 'SelfSignedCertificate'.",
  ],
};

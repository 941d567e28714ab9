import type { ConformanceCase } from "../corpus";

/** DSC binds an imported certificate as a Mission Server machine's web server certificate: every field of the machine sent back, the alias changed. */
export const dscMissionEditMachineCertificate: ConformanceCase = {
  name: "dsc-mission-edit-machine-certificate",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Set-TargetResource with ServerType MissionServer: Get-MachineDetails, then Update-SSLCertificate (POST admin/machines/<machine>/edit with every property of the machine's read as a form field, `ports` as PowerShell's text of the object since the URL is not :6443, webServerCertificateAlias changed, f, token; success when status is 'success'); then waits for admin/ and rest/info/healthcheck",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/Modules/ArcGIS.Common/ArcGIS.Common.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "ConvertTo-HttpBody (each value through HttpUtility.UrlEncode: booleans as True/False, an object as its text)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-edit-machine",
      states: "POST <machines-url>/<machine_name>/edit: adminURL, webServerCertificateAlias, f",
    },
  ],
  given: "site-with-certificates",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/edit",
    params: {
      machineName: "{siteMachine}",
      platform: "linux",
      adminURL: "https://{siteMachine}:20443/arcgis/admin",
      ports: "@{HTTPS=20443}",
      ServerStartTime: 1700000000000,
      webServerMaxHeapSize: -1,
      appServerMaxHeapSize: 256,
      socMaxHeapSize: 64,
      webServerSSLEnabled: "True",
      webServerCertificateAlias: "gisserver.example.com",
      configuredState: "STARTED",
      synchronize: "False",
      underMaintenance: "False",
      f: "json",
    },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: { method: "GET", path: "/admin/machines/{siteMachine}/", params: { f: "json" } },
    answer: {
      httpStatus: 200,
      body: {
        machineName: "{siteMachine}",
        webServerCertificateAlias: "gisserver.example.com",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: [
    'The answer {"status": "success"} on Mission Server (DSC reads it; the page shows none); the machine restarts after the answer (the new certificate is presented after the emulator\'s restart delay); fields the page does not list are ignored.',
  ],
};

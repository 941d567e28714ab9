import type { ConformanceCase } from "../corpus";

/** An ArcGIS Server machine's keystore lists the self-signed certificate it starts with. */
export const docsArcgisServerListCertificates: ConformanceCase = {
  name: "docs-arcgis-server-list-certificates",
  serverType: "arcgis-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/sslcertificates",
      states:
        'GET <root>/machines/<machine>/sslcertificates?f=pjson answers {"certificates": [...]}, the example listing "selfsignedcertificate"',
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Get-AllSSLCertificateForMachine (GET admin/machines/<machine>/sslCertificates/); Test-TargetResource reads $Certs.certificates on ArcGIS Server",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/machines/{siteMachine}/sslcertificates",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { certificates: ["selfsignedcertificate"] } },
  client: {
    operation: "listSslCertificates",
    input: { machineName: "{siteMachine}" },
    expect: ["selfsignedcertificate"],
  },
  assumptions: [
    "A new machine's keystore holds only its self-signed certificate (a real one also holds the certificates Esri ships, e.g. for its own services).",
  ],
};

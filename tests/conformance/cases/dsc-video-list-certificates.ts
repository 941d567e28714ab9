import type { ConformanceCase } from "../corpus";

/** A Video Server machine's keystore, listed as DSC reads it. */
export const dscVideoListCertificates: ConformanceCase = {
  name: "dsc-video-list-certificates",
  serverType: "video-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Get-AllSSLCertificateForMachine (GET admin/machines/<machine>/sslCertificates/ with f, token); Test-TargetResource reads $Certs.sslCertificates on Notebook, Mission and Video Server",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/video-server/sslcertificates",
      states:
        'GET <root>/machines/<machine>/sslcertificates answers {"sslCertificates": [...]}, the example listing "selfsignedcertificate"',
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/machines/{siteMachine}/sslCertificates",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { sslCertificates: ["selfsignedcertificate"] } },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: [
    "DSC's trailing slash is left out here (the emulator ignores it, as it does on every path).",
  ],
};

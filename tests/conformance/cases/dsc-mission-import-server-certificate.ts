import type { ConformanceCase } from "../corpus";

/** DSC imports a server certificate (PKCS #12) into a Mission Server machine's keystore, the token in a header. */
export const dscMissionImportServerCertificate: ConformanceCase = {
  name: "dsc-mission-import-server-certificate",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Import-ExistingCertificate (Invoke-UploadFile to admin/machines/<machine>/sslCertificates/importExistingServerCertificate: certFile (application/x-pkcs12), f, alias, certPassword; on Mission, Notebook and Video Server the token in X-Esri-Authorization: Bearer, no importCertificateChain; Confirm-ResponseStatus); Get-SSLCertificateForMachine (GET .../sslCertificates/<alias lower-cased>: issuer, sha1Fingerprint)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-ssl-certificates-importexistingservercert",
      states:
        'POST <sslCertificates-url>/importExistingServerCertificate: alias, certPassword, certFile (PKCS #12); {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/sslCertificates/importExistingServerCertificate",
    params: { f: "json", alias: "gisserver.example.com", certPassword: "{pfxPassword}" },
    files: { certFile: "{serverPfx}" },
    token: true,
    multipartToken: "header",
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/machines/{siteMachine}/sslCertificates/gisserver.example.com",
      params: { f: "json" },
    },
    answer: {
      httpStatus: 200,
      body: {
        aliasName: "gisserver.example.com",
        issuer: "CN=Test Organisation Root CA, O=Test Organisation",
        sha1Fingerprint: { $type: "string" },
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: [
    "Mission Server's certificate resource has the fields of ArcGIS Server's (DSC reads issuer and sha1Fingerprint; Mission's page shows keytool's older form).",
  ],
};

import type { ConformanceCase } from "../corpus";

/** Chef imports a CA-signed server certificate (PKCS #12) into an ArcGIS Server machine's keystore. */
export const chefArcgisServerImportServerCertificate: ConformanceCase = {
  name: "chef-arcgis-server-import-server-certificate",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#import_server_ssl_certificate (multipart POST admin/machines/<machine>/sslcertificates/importExistingServerCertificate: certFile (application/x-pkcs12), certPassword, alias, token, f=json) (line 399); #ssl_certificate_exist? (entryType PrivateKeyEntry) (line 378)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/importexistingservercertificate",
      states:
        'POST .../sslcertificates/importExistingServerCertificate: alias, certPassword, certFile (a PKCS #12 file); {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/sslcertificates/importExistingServerCertificate",
    params: { certPassword: "{pfxPassword}", alias: "gisserver.example.com", f: "json" },
    files: { certFile: "{serverPfx}" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "POST",
      path: "/admin/machines/{siteMachine}/sslcertificates/gisserver.example.com",
      params: { f: "json" },
    },
    answer: {
      httpStatus: 200,
      body: {
        aliasName: "gisserver.example.com",
        entryType: "PrivateKeyEntry",
        subject: "CN=gisserver.example.com, O=Test Organisation",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: ["The subject in Java's form, most specific name first."],
};

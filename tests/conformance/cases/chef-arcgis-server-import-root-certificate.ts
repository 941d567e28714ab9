import type { ConformanceCase } from "../corpus";

/** Chef imports the organisation's root CA into an ArcGIS Server machine's keystore; its existence check then finds it. */
export const chefArcgisServerImportRootCertificate: ConformanceCase = {
  name: "chef-arcgis-server-import-root-certificate",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#import_root_ssl_certificate (multipart POST admin/machines/<machine>/sslcertificates/importRootOrIntermediate: rootCACertificate (application/x-x509-ca-cert), alias, token, f=json) (line 425); #ssl_certificate_exist?(machine, alias, 'trustedCertEntry') (POST .../sslcertificates/<alias>, token, f: present when entryType is absent or the one asked) (line 378); providers/server.rb :configure_https",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/importrootcertificate",
      states:
        'POST <root>/machines/<machine>/sslcertificates/importRootOrIntermediate with alias and the multipart rootCACertificate; {"status": "success"}',
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/certificate",
      states:
        "GET <root>/machines/<machine>/sslcertificates/<certificate>: aliasName, entryType, issuer, subject, validity, fingerprints",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/sslcertificates/importRootOrIntermediate",
    params: { alias: "rootca", f: "json" },
    files: { rootCACertificate: "{rootCertificate}" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "POST",
      path: "/admin/machines/{siteMachine}/sslcertificates/rootca",
      params: { f: "json" },
    },
    answer: {
      httpStatus: 200,
      body: { aliasName: "rootca", entryType: "trustedCertEntry", issuer: { $type: "string" } },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: [
    "The certificate resource's entryType of a root is trustedCertEntry (what Chef asks for; the docs' syntax shows PrivateKeyEntry for a server certificate).",
  ],
};

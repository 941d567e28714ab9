import type { ConformanceCase } from "../corpus";

/** Chef's portal `:import_root_cert` imports a root certificate into the portal's keystore. */
export const chefPortalImportRootCertificate: ConformanceCase = {
  name: "chef-portal-import-root-certificate",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#add_root_cert (multipart POST <ssl_certificates_url>/importRootOrIntermediate: file, alias, norestart, token, f=json; an error object fails) (line 784); ssl_certificates_url falls back to portaladmin/security/sslCertificates (line 347)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/import-root-or-intermediate-certificate",
      states: 'POST importRootOrIntermediate with alias, file, norestart; {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/security/sslCertificates/importRootOrIntermediate",
    params: { alias: "rootca", norestart: "true", f: "json" },
    files: { file: "{rootCertificate}" },
    token: "portal",
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "GET",
      root: "portal",
      path: "/portaladmin/security/sslCertificates/rootca",
      params: { f: "json" },
      token: "portal",
    },
    answer: { httpStatus: 200, body: { aliasName: "rootca", entryType: "trustedCertEntry" } },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
  assumptions: ["The portal does not restart; norestart is accepted and ignored."],
};

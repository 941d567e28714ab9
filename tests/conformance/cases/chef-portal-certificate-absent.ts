import type { ConformanceCase } from "../corpus";

/**
 * Chef's portal `:import_root_cert` imports a root certificate only when the keystore does not
 * have its alias: an alias the portal does not hold is an error, which Chef reads as "absent".
 */
export const chefPortalCertificateAbsent: ConformanceCase = {
  name: "chef-portal-certificate-absent",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#ssl_certificate_exist? (GET <ssl_certificates_url>/<alias>, token and f=json set as a form body of the GET; validate_response; present when entryType is PrivateKeyEntry or trustedCertEntry; any error: false) (line 383), from providers/portal.rb :import_root_cert (line 509)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/ssl-certificate",
      states:
        "GET <sslCertificates-url>/<alias> with f answers the certificate (aliasName, entryType, issuer, subject, validity, fingerprints)",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    root: "portal",
    path: "/portaladmin/security/sslCertificates/rootca",
    params: { f: "json" },
    token: "portal",
  },
  answer: { httpStatus: 200, body: { error: { code: 404 } } },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
  assumptions: [
    "An alias the keystore does not hold is code 404 (this project's text); the replay sends f and the token in the query, as the page shows, where Chef sets them as a body of its GET.",
  ],
};

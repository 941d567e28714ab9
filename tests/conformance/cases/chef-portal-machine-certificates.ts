import type { ConformanceCase } from "../corpus";

/**
 * Chef's portal client looks for the machine's own keystore (listing the portal's machines first)
 * and, on any error, uses the portal's `security/sslCertificates`: the emulator serves only that.
 */
export const chefPortalMachineCertificates: ConformanceCase = {
  name: "chef-portal-machine-certificates",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#ssl_certificates_url (line 347: local_machine_name, then GET portaladmin/machines/<machine>/sslCertificates; any error: portaladmin/security/sslCertificates), #local_machine_name (line 330) and #machines (GET portaladmin/machines with token and f=json in the query; validate_response raises on an error object) (line 310)",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    root: "portal",
    path: "/portaladmin/machines",
    params: { f: "json" },
    token: "portal",
  },
  answer: { httpStatus: 200, body: { error: { code: 404 } } },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
  assumptions: [
    "Only the portal's security/sslCertificates keystore is served; the portal's machines resource (and each machine's keystore) answers code 404, which Chef's fallback takes.",
  ],
};

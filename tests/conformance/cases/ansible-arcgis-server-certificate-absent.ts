import type { ConformanceCase } from "../corpus";

/** Ansible asks for a certificate the machine's keystore does not hold: code 404, which it reads as "absent". */
export const ansibleArcgisServerCertificateAbsent: ConformanceCase = {
  name: "ansible-arcgis-server-certificate-absent",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/server/plugins/module_utils/server_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol:
        "ServerAdminClient.ssl_certificate_exists (GET /admin/machines/<machine>/sslcertificates/<alias>?f=json with Authorization: Bearer; a RestServiceError of code 404 is False); used by plugins/modules/configure_https.py",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "ServerAdminClient#ssl_certificate_exist? (any error answer means absent) (line 378)",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/machines/{siteMachine}/sslcertificates/no-such-certificate",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "error", code: 404 } },
  client: {
    operation: "none",
    why: "The provider manages no certificates yet (issue 41); the case is evidence for the emulator only.",
  },
  assumptions: ["The message's text is this project's; Ansible reads only the code."],
};

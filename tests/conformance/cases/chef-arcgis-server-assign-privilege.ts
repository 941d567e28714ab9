import type { ConformanceCase } from "../corpus";

/**
 * Chef's server_security recipe gives each listed role its privilege; the emulator's built-in
 * role store holds no role, so the role is refused (Chef lists none by default).
 */
export const chefArcgisServerAssignPrivilege: ConformanceCase = {
  name: "chef-arcgis-server-assign-privilege",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#assign_privileges (POST admin/security/roles/assignPrivilege: rolename, privilege, token, f=json; validate_response) (line 1005), from providers/server.rb action :assign_privileges (line 771; one call per role of attributes/server.rb line 108, empty lists by default)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/assignprivilege.htm",
      states:
        "POST assignPrivilege with rolename (a role of the role store), privilege (ADMINISTER | PUBLISH | ACCESS) and f",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/roles/assignPrivilege",
    params: { rolename: "gis_publishers", privilege: "PUBLISH", f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "error", code: 400 } },
  client: {
    operation: "none",
    why: "The provider manages no roles; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The emulator's built-in role store holds no role (no operation of Esri's automation adds one), so every role is unknown: code 400 with this project's text.",
  ],
};

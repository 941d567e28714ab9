import type { ConformanceCase } from "../corpus";

/** Chef's server_security recipe sets the identity store: the built-in stores by default. */
export const chefArcgisServerUpdateIdentityStore: ConformanceCase = {
  name: "chef-arcgis-server-update-identity-store",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#set_identity_store (POST admin/security/config/updateIdentityStore: userStoreConfig and roleStoreConfig as JSON text, token, f=json; validate_response) (line 988), from providers/server.rb action :set_identity_store (line 749), recipes/server_security.rb with attributes/server.rb (line 106: BUILTIN stores)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/updateidentitystore.htm",
      states:
        "POST updateIdentityStore with userStoreConfig and roleStoreConfig (JSON objects: type, properties) and f",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/config/updateIdentityStore",
    params: {
      userStoreConfig: { type: "BUILTIN", properties: {} },
      roleStoreConfig: { type: "BUILTIN", properties: {} },
      f: "json",
    },
    jsonParams: ["userStoreConfig", "roleStoreConfig"],
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: { method: "GET", path: "/admin/security/config", params: { f: "json" }, token: true },
    answer: {
      httpStatus: 200,
      body: { userStoreConfig: { type: "BUILTIN" }, roleStoreConfig: { type: "BUILTIN" } },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no identity store; the case is evidence for the emulator only.",
  },
  assumptions: [
    'The answer {"status":"success"}; only BUILTIN stores are emulated (another type is refused with code 400).',
  ],
};

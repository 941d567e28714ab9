import type { ConformanceCase } from "../corpus";

/**
 * The JSON form of security/config/update, as Chef's server-side `federate` sends it, here with
 * the values a server that is not federated shows (the emulator federates through the portal).
 */
export const chefArcgisServerSecurityJson: ConformanceCase = {
  name: "chef-arcgis-server-security-json",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#federate (POST admin/security/config/update: token, securityConfig = JSON of securityEnabled, authenticationMode, authenticationTier, userStoreConfig, sslEnabled, httpEnabled, virtualDirsSecurityEnabled, portalProperties, allowDirectAccess; f=json) (line 569)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/updatesecurityconfig.htm",
      states:
        "securityConfig is the JSON object representing the security configuration; userStoreConfig and roleStoreConfig are not required for this operation",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/config/update",
    params: {
      securityConfig: {
        securityEnabled: true,
        authenticationMode: "ARCGIS_TOKEN",
        authenticationTier: "GIS_SERVER",
        userStoreConfig: { type: "BUILTIN" },
        sslEnabled: true,
        httpEnabled: true,
        virtualDirsSecurityEnabled: true,
        allowDirectAccess: true,
      },
      f: "json",
    },
    jsonParams: ["securityConfig"],
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  followUp: {
    request: {
      method: "POST",
      path: "/admin/security/config",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        sslEnabled: true,
        httpEnabled: true,
        virtualDirsSecurityEnabled: true,
        allowDirectAccess: true,
        authenticationTier: "GIS_SERVER",
      },
    },
  },
  assumptions: [
    "The JSON form's sslEnabled and httpEnabled set the protocol (both: HTTP_AND_HTTPS).",
    "Federation's own fields (authenticationMode, authenticationTier, portalProperties) are taken only with the values the configuration shows.",
  ],
};

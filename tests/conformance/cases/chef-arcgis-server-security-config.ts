import type { ConformanceCase } from "../corpus";

/** Chef reads ArcGIS Server's security configuration before deciding whether to update it (`configure_security_protocol`). */
export const chefArcgisServerSecurityConfig: ConformanceCase = {
  name: "chef-arcgis-server-security-config",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#security_configuration (POST admin/security/config: token, f=json) (line 621), read by #update_security_configuration (line 639): httpsProtocols, cipherSuites, httpEnabled, sslEnabled, authenticationMode, authenticationTier, HSTSEnabled, virtualDirsSecurityEnabled, allowDirectAccess, allowedAdminAccessIPs, portalProperties",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/updatesecurityconfig.htm",
      states:
        "httpsProtocols and cipherSuites are comma-separated lists; TLSv1.2 is enabled by default; by default every listed cipher suite is enabled",
    },
  ],
  given: "site",
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
      // A new site over HTTPS: Chef's default run (protocol HTTPS, HSTS off, direct access on,
      // virtual directories unsecured) finds nothing to update.
      sslEnabled: true,
      httpEnabled: false,
      HSTSEnabled: false,
      virtualDirsSecurityEnabled: false,
      allowDirectAccess: true,
      allowedAdminAccessIPs: "",
      authenticationMode: "ARCGIS_TOKEN",
      authenticationTier: "GIS_SERVER",
      httpsProtocols: "TLSv1.2",
      cipherSuites: { $type: "string" },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The defaults of HSTSEnabled (false), allowedAdminAccessIPs (empty) and authenticationMode (ARCGIS_TOKEN).",
  ],
};

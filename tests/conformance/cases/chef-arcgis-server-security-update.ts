import type { ConformanceCase } from "../corpus";

/** Chef's `configure_security_protocol` with HSTS wanted: the flat form of security/config/update, then read back. */
export const chefArcgisServerSecurityUpdate: ConformanceCase = {
  name: "chef-arcgis-server-security-update",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#update_security_configuration (POST admin/security/config/update: token, httpsProtocols, cipherSuites, Protocol, authenticationMode, authenticationTier, HSTSEnabled, virtualDirsSecurityEnabled, allowDirectAccess, allowedAdminAccessIPs, portalProperties ('' when none), f=json; the empty attributes take the values read), providers/server.rb :configure_security_protocol (line 519) (line 639)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/updatesecurityconfig.htm",
      states:
        "update takes httpsProtocols (e.g. TLSv1,TLSv1.1,TLSv1.2) and cipherSuites as comma-separated values with the security configuration",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/config/update",
    params: {
      httpsProtocols: "TLSv1.2,TLSv1.3",
      cipherSuites: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_128_GCM_SHA256",
      Protocol: "HTTPS",
      authenticationMode: "ARCGIS_TOKEN",
      authenticationTier: "GIS_SERVER",
      HSTSEnabled: "true",
      virtualDirsSecurityEnabled: "false",
      allowDirectAccess: "true",
      allowedAdminAccessIPs: "",
      portalProperties: "",
      f: "json",
    },
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
        HSTSEnabled: true,
        sslEnabled: true,
        httpEnabled: false,
        httpsProtocols: "TLSv1.2,TLSv1.3",
        cipherSuites: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_RSA_WITH_AES_128_GCM_SHA256",
        authenticationTier: "GIS_SERVER",
      },
    },
  },
  assumptions: ['update answers {"status": "success"} (Chef reads only that it is no error).'],
};

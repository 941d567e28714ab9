import type { ConformanceCase } from "../corpus";

/**
 * The ArcGIS API for Python's `security.configuration` setter on a Mission Server: every field it
 * read, flat, with the one it changes; then read back.
 */
export const pythonMissionSecurityUpdate: ConformanceCase = {
  name: "python-mission-security-update",
  serverType: "mission-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_security.py",
      symbol:
        "the configuration setter (POST <security>/config/update: f=json, each key of the configuration read, a changed one replaced) (line 155)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/security-security-config-update-security-config",
      states:
        "POST <securityconfig-url>/update updates the security configuration, including TLS protocols (httpsProtocols) and cipher suites (cipherSuites), comma separated",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/config/update",
    params: {
      f: "json",
      allowedAdminAccessIPs: "127.0.0.1",
      securityEnabled: "True",
      sslEnabled: "True",
      httpEnabled: "False",
      virtualDirsSecurityEnabled: "False",
      allowDirectAccess: "True",
      authenticationMode: "ARCGIS_TOKEN",
      authenticationTier: "GIS_SERVER",
      HSTSEnabled: "False",
      httpsProtocols: "TLSv1.2",
      cipherSuites: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
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
      method: "GET",
      path: "/admin/security/config",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        allowedAdminAccessIPs: "127.0.0.1",
        cipherSuites: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        sslEnabled: true,
        httpEnabled: false,
      },
    },
  },
  assumptions: [
    'update answers {"status": "success"}.',
    "allowedAdminAccessIPs is kept and shown, never enforced.",
  ],
};

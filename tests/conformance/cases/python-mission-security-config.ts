import type { ConformanceCase } from "../corpus";

/** The ArcGIS API for Python reads a Mission Server's security configuration (`MissionServer.security.configuration`). */
export const pythonMissionSecurityConfig: ConformanceCase = {
  name: "python-mission-security-config",
  serverType: "mission-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_security.py",
      symbol:
        "SecurityManager.configuration (GET <security>/config, f=json; the docstring's keys: allowedAdminAccessIPs, allowDirectAccess, authenticationMode, authenticationTier, HSTSEnabled, httpEnabled, roleStoreConfig, securityEnabled, sslEnabled, userStoreConfig, virtualDirsSecurityEnabled, portalProperties) (line 74)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/security-security-config-update-security-config",
      states:
        "the Mission Server security configuration takes httpsProtocols (TLSv1.2 enabled by default) and cipherSuites (all listed suites enabled by default), comma separated",
    },
  ],
  given: "site",
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
      securityEnabled: true,
      sslEnabled: true,
      httpEnabled: false,
      HSTSEnabled: false,
      virtualDirsSecurityEnabled: false,
      allowDirectAccess: true,
      allowedAdminAccessIPs: "",
      authenticationTier: "GIS_SERVER",
      userStoreConfig: { type: { $type: "string" } },
      roleStoreConfig: { type: { $type: "string" } },
      httpsProtocols: "TLSv1.2",
      cipherSuites: { $type: "string" },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: ["The defaults of HSTSEnabled (false) and allowedAdminAccessIPs (empty)."],
};

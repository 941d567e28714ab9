import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_Server_TLS turns on HTTPS only with HSTS, sending back what it read. */
export const dscArcgisServerTlsSecurity: ConformanceCase = {
  name: "dsc-arcgis-server-tls-security",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_TLS/ArcGIS_Server_TLS.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Update-SecurityConfig (POST arcgis/admin/security/config/update: f, token, httpsProtocols, cipherSuites, Protocol HTTPS when EnableHTTPSOnly, authenticationTier, HSTSEnabled as '$EnableHSTS' (True/False), portalProperties (ConvertTo-Json of the read value), allowedAdminAccessIPs, allowDirectAccess, allowInternetCORSEnabled, virtualDirsSecurityEnabled); Set-TargetResource reads sslEnabled, httpEnabled and HSTSEnabled through Get-SecurityConfig",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/config/update",
    params: {
      f: "json",
      httpsProtocols: "TLSv1.2",
      cipherSuites: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      Protocol: "HTTPS",
      authenticationTier: "GIS_SERVER",
      HSTSEnabled: "True",
      portalProperties: "null",
      allowedAdminAccessIPs: "",
      allowDirectAccess: "True",
      allowInternetCORSEnabled: "",
      virtualDirsSecurityEnabled: "False",
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
      path: "/admin/security/config/",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        sslEnabled: true,
        httpEnabled: false,
        HSTSEnabled: true,
      },
    },
  },
  assumptions: [
    'update answers {"status": "success"}.',
    "A field the emulator does not keep (allowInternetCORSEnabled) is ignored.",
  ],
};

import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_Federation after unfederating: the JSON form with only the authentication tier. */
export const dscArcgisServerResetTier: ConformanceCase = {
  name: "dsc-arcgis-server-reset-tier",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        'Update-SecurityConfigForServer (POST <server>/admin/security/config/update: securityConfig = {"authenticationTier":"GIS_SERVER"}, token, f=json), called when Get-SecurityConfig still shows ARCGIS_PORTAL after unfederating',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/config/update",
    params: {
      securityConfig: { authenticationTier: "GIS_SERVER" },
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
        authenticationTier: "GIS_SERVER",
        authenticationMode: "ARCGIS_TOKEN",
      },
    },
  },
  assumptions: ["An unfederated server already shows GIS_SERVER, so the update changes nothing."],
};

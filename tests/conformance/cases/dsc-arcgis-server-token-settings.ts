import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_ServerSettings reads the token manager's shared key before setting its own. */
export const dscArcgisServerTokenSettings: ConformanceCase = {
  name: "dsc-arcgis-server-token-settings",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_ServerSettings/ArcGIS_ServerSettings.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Get-AdminSettings (GET arcgis/admin/security/tokens with f=json, token; Confirm-ResponseStatus) (line 519), from Set-TargetResource (line 278) and Test-TargetResource (line 398): properties.sharedKey",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/tokens.htm",
      states:
        'GET <security-url>/tokens answers the token manager configuration {"type": "BUILTIN", "properties": {"sharedKey", "longTimeout": "2880", "shortTimeout": "120"}}',
    },
  ],
  given: "site",
  request: { method: "GET", path: "/admin/security/tokens", params: { f: "json" }, token: true },
  answer: {
    httpStatus: 200,
    body: {
      type: "BUILTIN",
      properties: {
        sharedKey: { $type: "string" },
        longTimeout: { $type: "string" },
        shortTimeout: { $type: "string" },
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no token settings; the case is evidence for the emulator only.",
  },
  assumptions: [
    "A new site's shared key is the emulator's own (stable, never the secret that signs its tokens); the timeouts default to 1440 and 60 minutes.",
  ],
};

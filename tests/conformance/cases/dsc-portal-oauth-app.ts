import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_Federation reads the portal's `arcgisonline` app's redirect URIs. */
export const dscPortalOauthApp: ConformanceCase = {
  name: "dsc-portal-oauth-app",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Get-OAuthApplication (GET sharing/oauth2/apps/<AppId>, AppId 'arcgisonline', f=json, token) (line 722), read in Test-TargetResource (line 180) and Set-TargetResource (lines 415, 552): redirect_uris",
    },
  ],
  given: "federated-site",
  request: {
    method: "GET",
    root: "portal",
    path: "/sharing/oauth2/apps/arcgisonline",
    params: { f: "json" },
    token: "portal",
  },
  answer: {
    httpStatus: 200,
    body: { client_id: "arcgisonline", redirect_uris: { $type: "array" } },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The built-in app arcgisonline starts with no redirect URI; the answer has client_id and redirect_uris only.",
  ],
};

import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_Federation adds a federated server's origin to the `arcgisonline` app's redirect URIs. */
export const dscPortalOauthAppUpdate: ConformanceCase = {
  name: "dsc-portal-oauth-app-update",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Update-OAuthApplication (POST sharing/oauth2/apps/<AppId>/update: f=json, token, redirect_uris as JSON text) (line 750), from Set-TargetResource (line 422: adds https://<ServerFQDN> for a server that is not the hosting server)",
    },
    {
      url: "https://developers.arcgis.com/rest/users-groups-and-items/update-app",
      states:
        "POST update with redirect_uris, a JSON string array; the response is the registered app",
    },
  ],
  given: "federated-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/sharing/oauth2/apps/arcgisonline/update",
    params: { f: "json", redirect_uris: ["https://mission.example.com"] },
    jsonParams: ["redirect_uris"],
    token: "portal",
  },
  answer: {
    httpStatus: 200,
    body: { client_id: "arcgisonline", redirect_uris: ["https://mission.example.com"] },
  },
  followUp: {
    request: {
      method: "GET",
      root: "portal",
      path: "/sharing/oauth2/apps/arcgisonline",
      params: { f: "json" },
      token: "portal",
    },
    answer: { httpStatus: 200, body: { redirect_uris: ["https://mission.example.com"] } },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
  assumptions: ["The update answers the app with client_id and redirect_uris only."],
};

import type { ConformanceCase } from "../corpus";

/** DSC decides "site exists" by whether generateToken with the site's credentials succeeds. */
export const dscMissionSiteExistsByToken: ConformanceCase = {
  name: "dsc-mission-site-exists-by-token",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServer/ArcGIS_MissionServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Set-TargetResource ($siteExists = ($null -ne $token.token))",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/Modules/ArcGIS.Common/ArcGIS.Common.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Get-ServerToken (POST {root}/admin/generateToken, client referer)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/generateToken",
    params: {
      username: "siteadmin",
      password: "Example-passw0rd",
      client: "referer",
      referer: "http://localhost",
      expiration: 1000,
      f: "json",
    },
  },
  answer: { httpStatus: 200, body: { token: { $type: "string" }, expires: { $type: "number" } } },
  client: {
    operation: "generateToken",
    input: { username: "siteadmin", password: "Example-passw0rd" },
  },
  clientMayDiffer: {
    referer: "the client presents its own referer (sent as the Referer header too)",
    expiration: "the client asks for its own token lifetime (minutes)",
  },
};

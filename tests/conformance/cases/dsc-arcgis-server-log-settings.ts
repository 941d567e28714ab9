import type { ConformanceCase } from "../corpus";

/** ArcGIS Server's log settings read: the fields sit under `settings`. */
export const dscArcgisServerLogSettings: ConformanceCase = {
  name: "dsc-arcgis-server-log-settings",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server/ArcGIS_Server.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Set-TargetResource ($logSettings.settings.logLevel), Get-LogSettings",
    },
  ],
  given: "site",
  request: { method: "GET", path: "/admin/logs/settings", params: { f: "json" }, token: true },
  answer: {
    httpStatus: 200,
    body: { settings: { logLevel: { $type: "string" }, logDir: { $type: "string" } } },
  },
  client: { operation: "getLogSettings", expect: { logLevel: "WARNING" } },
  assumptions: ["The emulator's site in this case was created with logLevel WARNING."],
};

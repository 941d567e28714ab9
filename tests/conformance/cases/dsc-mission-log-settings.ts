import type { ConformanceCase } from "../corpus";

/** Mission Server's log settings read: flat fields (ArcGIS Server nests them under `settings`). */
export const dscMissionLogSettings: ConformanceCase = {
  name: "dsc-mission-log-settings",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServer/ArcGIS_MissionServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Get-LogSettings, Set-TargetResource ($logSettings.logLevel, $logSettings.logDir)",
    },
  ],
  given: "site",
  request: { method: "GET", path: "/admin/logs/settings", params: { f: "json" }, token: true },
  answer: {
    httpStatus: 200,
    body: {
      logLevel: { $type: "string" },
      logDir: { $type: "string" },
      maxLogFileAge: { $type: "number" },
      maxErrorReportsCount: { $type: "number" },
    },
  },
  client: { operation: "getLogSettings", expect: { logLevel: "WARNING" } },
  assumptions: ["The emulator's site in this case was created with logLevel WARNING."],
};

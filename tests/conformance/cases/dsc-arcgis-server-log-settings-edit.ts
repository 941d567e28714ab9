import type { ConformanceCase } from "../corpus";

/** DSC writes ArcGIS Server's log settings with flat form fields (usage metering as a checkbox). */
export const dscArcgisServerLogSettingsEdit: ConformanceCase = {
  name: "dsc-arcgis-server-log-settings-edit",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server/ArcGIS_Server.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Update-LogSettings (POST logs/settings/edit, f=json, usageMeteringEnabled on/off; Confirm-ResponseStatus)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/logs/settings/edit",
    params: {
      f: "json",
      logDir: "C:\\arcgisserver\\logs\\",
      logLevel: "FINE",
      maxLogFileAge: 90,
      maxErrorReportsCount: 10,
      usageMeteringEnabled: "off",
    },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "editLogSettings",
    input: {
      logDir: "C:\\arcgisserver\\logs\\",
      logLevel: "FINE",
      maxLogFileAge: 90,
      maxErrorReportsCount: 10,
    },
  },
  clientMayDiffer: {
    usageMeteringEnabled:
      "DSC always sends the checkbox value on/off ('API uses a checkbox'); the client sends usageMeteringEnabled only when the user sets it, which Site and LogSettings allow only on Mission, Notebook and Video Server",
  },
};

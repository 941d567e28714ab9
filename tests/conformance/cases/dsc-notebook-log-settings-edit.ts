import type { ConformanceCase } from "../corpus";

/** DSC writes Notebook Server's log settings with flat form fields, as on Mission Server. */
export const dscNotebookLogSettingsEdit: ConformanceCase = {
  name: "dsc-notebook-log-settings-edit",
  serverType: "notebook-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_NotebookServer/ArcGIS_NotebookServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Update-LogSettings (POST logs/settings/edit, f=pjson; reads status 'success', else error.code/message)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/logs/settings/edit",
    params: {
      f: "pjson",
      logDir: "/arcgis/notebookserver/usr/logs",
      logLevel: "DEBUG",
      maxLogFileAge: 90,
      maxErrorReportsCount: 10,
      usageMeteringEnabled: false,
    },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "editLogSettings",
    input: {
      logDir: "/arcgis/notebookserver/usr/logs",
      logLevel: "DEBUG",
      maxLogFileAge: 90,
      maxErrorReportsCount: 10,
      usageMeteringEnabled: false,
    },
  },
  clientMayDiffer: { f: "DSC asks for pjson (indented JSON); the client asks for json" },
};

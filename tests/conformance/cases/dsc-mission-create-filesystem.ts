import type { ConformanceCase } from "../corpus";

/** DSC creates a Mission Server (11.x) site on a file-system config store, synchronously. */
export const dscMissionCreateFilesystem: ConformanceCase = {
  name: "dsc-mission-create-filesystem",
  serverType: "mission-server",
  version: "11.3",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServer/ArcGIS_MissionServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Invoke-CreateSite (CloudProvider None, Version other than 10.8)",
    },
  ],
  given: "no-site",
  request: {
    method: "POST",
    path: "/admin/createNewSite",
    params: {
      username: "siteadmin",
      password: "Example-passw0rd",
      configStoreConnection: {
        configPersistenceType: "FILESYSTEM",
        connectionString: "C:\\arcgismissionserver\\config-store",
        className: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
      },
      directories: [
        {
          name: "arcgisoutput",
          path: "C:\\arcgismissionserver\\directories\\arcgisoutput",
          type: "OUTPUT",
        },
        {
          name: "arcgissystem",
          path: "C:\\arcgismissionserver\\directories\\arcgissystem",
          type: "SYSTEM",
        },
        {
          name: "arcgisjobs",
          path: "C:\\arcgismissionserver\\directories\\arcgisjobs",
          type: "JOBS",
        },
      ],
      logsSettings: {
        logLevel: "WARNING",
        logDir: "C:\\arcgismissionserver\\logs",
        maxErrorReportsCount: 10,
        maxLogFileAge: 90,
        usageMeteringEnabled: false,
      },
      async: "false",
      f: "pjson",
    },
    jsonParams: ["configStoreConnection", "directories", "logsSettings"],
  },
  // DSC: `if($response.status -ieq "success")`, else it throws with error.code and error.message.
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "createNewSite",
    input: {
      username: "siteadmin",
      password: "Example-passw0rd",
      configStoreConnection: {
        type: "FILESYSTEM",
        connectionString: "C:\\arcgismissionserver\\config-store",
      },
      directories: [
        {
          name: "arcgisoutput",
          physicalPath: "C:\\arcgismissionserver\\directories\\arcgisoutput",
          directoryType: "OUTPUT",
        },
        {
          name: "arcgissystem",
          physicalPath: "C:\\arcgismissionserver\\directories\\arcgissystem",
          directoryType: "SYSTEM",
        },
        {
          name: "arcgisjobs",
          physicalPath: "C:\\arcgismissionserver\\directories\\arcgisjobs",
          directoryType: "JOBS",
        },
      ],
      logSettings: {
        logLevel: "WARNING",
        logDir: "C:\\arcgismissionserver\\logs",
        maxErrorReportsCount: 10,
        maxLogFileAge: 90,
        usageMeteringEnabled: false,
      },
      runAsync: false,
    },
  },
  clientMayDiffer: {
    f: "DSC asks for pjson (indented JSON); the client asks for json",
  },
};

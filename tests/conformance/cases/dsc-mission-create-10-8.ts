import type { ConformanceCase } from "../corpus";

/** DSC creates a Mission Server 10.8 site: 10.8 also takes a WORKSPACE directory, listed first. */
export const dscMissionCreate108: ConformanceCase = {
  name: "dsc-mission-create-10-8",
  serverType: "mission-server",
  version: "10.8",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServer/ArcGIS_MissionServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: 'Invoke-CreateSite ($Version -eq "10.8": arcgisworkspace of type WORKSPACE)',
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
        connectionString: "D:\\missionserver\\config-store",
        className: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
      },
      directories: [
        {
          name: "arcgisworkspace",
          path: "D:\\missionserver\\directories\\arcgisworkspace",
          type: "WORKSPACE",
        },
        {
          name: "arcgisoutput",
          path: "D:\\missionserver\\directories\\arcgisoutput",
          type: "OUTPUT",
        },
        {
          name: "arcgissystem",
          path: "D:\\missionserver\\directories\\arcgissystem",
          type: "SYSTEM",
        },
        { name: "arcgisjobs", path: "D:\\missionserver\\directories\\arcgisjobs", type: "JOBS" },
      ],
      async: "false",
      f: "pjson",
    },
    jsonParams: ["configStoreConnection", "directories"],
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "createNewSite",
    input: {
      username: "siteadmin",
      password: "Example-passw0rd",
      configStoreConnection: {
        type: "FILESYSTEM",
        connectionString: "D:\\missionserver\\config-store",
      },
      directories: [
        {
          name: "arcgisworkspace",
          physicalPath: "D:\\missionserver\\directories\\arcgisworkspace",
          directoryType: "WORKSPACE",
        },
        {
          name: "arcgisoutput",
          physicalPath: "D:\\missionserver\\directories\\arcgisoutput",
          directoryType: "OUTPUT",
        },
        {
          name: "arcgissystem",
          physicalPath: "D:\\missionserver\\directories\\arcgissystem",
          directoryType: "SYSTEM",
        },
        {
          name: "arcgisjobs",
          physicalPath: "D:\\missionserver\\directories\\arcgisjobs",
          directoryType: "JOBS",
        },
      ],
      runAsync: false,
    },
  },
  clientMayDiffer: {
    f: "DSC asks for pjson (indented JSON); the client asks for json",
  },
  assumptions: [
    "DSC sends no logsSettings when no logs location is set (the case omits it, as DSC then does).",
  ],
};

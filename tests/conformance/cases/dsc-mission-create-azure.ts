import type { ConformanceCase } from "../corpus";

/** DSC creates a Mission Server site on an Azure config store: the secret travels as `password`. */
export const dscMissionCreateAzure: ConformanceCase = {
  name: "dsc-mission-create-azure",
  serverType: "mission-server",
  version: "11.3",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServer/ArcGIS_MissionServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        'Invoke-CreateSite (CloudProvider "Azure", AzureCloudAuthenticationType AccessKey; timeout doubled for cloud stores)',
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
        configPersistenceType: "AZURE",
        connectionString: "NAMESPACE=missionsite;DefaultEndpointsProtocol=https;",
        username: "examplestorageaccount",
        password: "Example-storage-account-key==",
        className: "com.esri.arcgis.carbon.persistence.impl.azure.AzureConfigPersistence",
      },
      directories: [
        { name: "arcgisoutput", path: "\\\\fileserver\\mission\\arcgisoutput", type: "OUTPUT" },
        { name: "arcgissystem", path: "\\\\fileserver\\mission\\arcgissystem", type: "SYSTEM" },
        { name: "arcgisjobs", path: "\\\\fileserver\\mission\\arcgisjobs", type: "JOBS" },
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
        type: "AZURE",
        connectionString: "NAMESPACE=missionsite;DefaultEndpointsProtocol=https;",
        username: "examplestorageaccount",
        connectionSecret: "Example-storage-account-key==",
      },
      directories: [
        {
          name: "arcgisoutput",
          physicalPath: "\\\\fileserver\\mission\\arcgisoutput",
          directoryType: "OUTPUT",
        },
        {
          name: "arcgissystem",
          physicalPath: "\\\\fileserver\\mission\\arcgissystem",
          directoryType: "SYSTEM",
        },
        {
          name: "arcgisjobs",
          physicalPath: "\\\\fileserver\\mission\\arcgisjobs",
          directoryType: "JOBS",
        },
      ],
      runAsync: false,
    },
  },
  clientMayDiffer: {
    f: "DSC asks for pjson (indented JSON); the client asks for json",
  },
};

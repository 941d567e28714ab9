import type { ConformanceCase } from "../corpus";

/** Chef creates a Video Server site: its directory types are UPLOADS and DATA. */
export const chefVideoCreateSite: ConformanceCase = {
  name: "chef-video-create-site",
  serverType: "video-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-video/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "VideoServerAdminClient#create_site",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_VideoServer/ArcGIS_VideoServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Invoke-CreateSite (the same UPLOADS and DATA directories)",
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
        connectionString: "/gisdata/videoserver/config-store",
        className: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
      },
      directories: [
        {
          path: "/gisdata/videoserver/directories/arcgisvideouploads",
          name: "arcgisvideouploads",
          id: "2b3c4d5e-0000-4000-8000-000000000001",
          type: "UPLOADS",
        },
        {
          path: "/gisdata/videoserver/directories/arcgisvideoservices",
          name: "arcgisvideoservices",
          id: "2b3c4d5e-0000-4000-8000-000000000002",
          type: "DATA",
        },
      ],
      logsSettings: {
        logLevel: "WARNING",
        logDir: "/opt/arcgis/videoserver/usr/logs",
        maxErrorReportsCount: 10,
        maxLogFileAge: 90,
      },
      f: "json",
    },
    jsonParams: ["configStoreConnection", "directories", "logsSettings"],
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "createNewSite",
    input: {
      username: "siteadmin",
      password: "Example-passw0rd",
      configStoreConnection: {
        type: "FILESYSTEM",
        connectionString: "/gisdata/videoserver/config-store",
      },
      directories: [
        {
          name: "arcgisvideouploads",
          physicalPath: "/gisdata/videoserver/directories/arcgisvideouploads",
          directoryType: "UPLOADS",
        },
        {
          name: "arcgisvideoservices",
          physicalPath: "/gisdata/videoserver/directories/arcgisvideoservices",
          directoryType: "DATA",
        },
      ],
      logSettings: {
        logLevel: "WARNING",
        logDir: "/opt/arcgis/videoserver/usr/logs",
        maxErrorReportsCount: 10,
        maxLogFileAge: 90,
      },
      runAsync: false,
    },
  },
  clientMayDiffer: {
    "directories[].id": "a random UUID that Chef adds to each directory; DSC sends none",
    async: "the client sends async=false as DSC does; Chef sends no flag (synchronous)",
  },
};

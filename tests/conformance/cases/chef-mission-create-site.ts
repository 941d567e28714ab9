import type { ConformanceCase } from "../corpus";

/** Chef creates a Mission Server site: Carbon config store, bare directory array, logsSettings. */
export const chefMissionCreateSite: ConformanceCase = {
  name: "chef-mission-create-site",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "MissionServerAdminClient#create_site, #validate_response",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/attributes/default.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "config_store_class_name, log_level WARNING, max_log_file_age 90",
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
        connectionString: "/opt/arcgis/mission/usr/config-store",
        className: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
      },
      directories: [
        {
          path: "/opt/arcgis/mission/usr/directories/arcgisoutput",
          name: "arcgisoutput",
          id: "0b6f3c1e-6f0a-4c55-9a61-3c1f2f4f7a01",
          type: "OUTPUT",
        },
        {
          path: "/opt/arcgis/mission/usr/directories/arcgissystem",
          name: "arcgissystem",
          id: "7d3b9a52-1e8c-4a7b-8a34-0e2a5c9d6b02",
          type: "SYSTEM",
        },
        {
          path: "/opt/arcgis/mission/usr/directories/arcgisjobs",
          name: "arcgisjobs",
          id: "c2a4e6f8-3b5d-4c7e-9f10-2a4c6e8f0b03",
          type: "JOBS",
        },
      ],
      logsSettings: {
        logLevel: "WARNING",
        logDir: "/opt/arcgis/mission/usr/logs",
        maxErrorReportsCount: 10,
        maxLogFileAge: 90,
      },
      f: "json",
    },
    jsonParams: ["configStoreConnection", "directories", "logsSettings"],
  },
  // Chef fails on a status above 300 or an `error` member; it reads nothing else.
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "createNewSite",
    input: {
      username: "siteadmin",
      password: "Example-passw0rd",
      configStoreConnection: {
        type: "FILESYSTEM",
        connectionString: "/opt/arcgis/mission/usr/config-store",
      },
      directories: [
        {
          name: "arcgisoutput",
          physicalPath: "/opt/arcgis/mission/usr/directories/arcgisoutput",
          directoryType: "OUTPUT",
        },
        {
          name: "arcgissystem",
          physicalPath: "/opt/arcgis/mission/usr/directories/arcgissystem",
          directoryType: "SYSTEM",
        },
        {
          name: "arcgisjobs",
          physicalPath: "/opt/arcgis/mission/usr/directories/arcgisjobs",
          directoryType: "JOBS",
        },
      ],
      logSettings: {
        logLevel: "WARNING",
        logDir: "/opt/arcgis/mission/usr/logs",
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
  assumptions: [
    "The success body: Chef reads no field of it; DSC (dsc-mission-create-filesystem) reads status 'success'.",
  ],
};

import type { ConformanceCase } from "../corpus";

/** Chef creates a Notebook Server site: as Mission Server, plus a WORKSPACE directory. */
export const chefNotebookCreateSite: ConformanceCase = {
  name: "chef-notebook-create-site",
  serverType: "notebook-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-notebooks/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "NotebookServerAdminClient#create_site",
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
        connectionString: "/gisdata/notebookserver/config-store",
        className: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
      },
      directories: [
        {
          path: "/gisdata/notebookserver/directories/arcgisoutput",
          name: "arcgisoutput",
          id: "1a2b3c4d-0000-4000-8000-000000000001",
          type: "OUTPUT",
        },
        {
          path: "/gisdata/notebookserver/directories/arcgisworkspace",
          name: "arcgisworkspace",
          id: "1a2b3c4d-0000-4000-8000-000000000002",
          type: "WORKSPACE",
        },
        {
          path: "/gisdata/notebookserver/directories/arcgissystem",
          name: "arcgissystem",
          id: "1a2b3c4d-0000-4000-8000-000000000003",
          type: "SYSTEM",
        },
        {
          path: "/gisdata/notebookserver/directories/arcgisjobs",
          name: "arcgisjobs",
          id: "1a2b3c4d-0000-4000-8000-000000000004",
          type: "JOBS",
        },
      ],
      logsSettings: {
        logLevel: "WARNING",
        logDir: "/opt/arcgis/notebookserver/usr/logs",
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
        connectionString: "/gisdata/notebookserver/config-store",
      },
      directories: [
        {
          name: "arcgisoutput",
          physicalPath: "/gisdata/notebookserver/directories/arcgisoutput",
          directoryType: "OUTPUT",
        },
        {
          name: "arcgisworkspace",
          physicalPath: "/gisdata/notebookserver/directories/arcgisworkspace",
          directoryType: "WORKSPACE",
        },
        {
          name: "arcgissystem",
          physicalPath: "/gisdata/notebookserver/directories/arcgissystem",
          directoryType: "SYSTEM",
        },
        {
          name: "arcgisjobs",
          physicalPath: "/gisdata/notebookserver/directories/arcgisjobs",
          directoryType: "JOBS",
        },
      ],
      logSettings: {
        logLevel: "WARNING",
        logDir: "/opt/arcgis/notebookserver/usr/logs",
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
    "The success body: Chef reads no field of it; status 'success' is what DSC reads from Mission, Notebook and Video Server.",
  ],
};

import type { ConformanceCase } from "../corpus";

/** Chef's default `set_system_properties` on a Notebook Server site: nothing wanted, so it posts the properties it read (none) back. */
export const chefNotebookUpdateSystemProperties: ConformanceCase = {
  name: "chef-notebook-update-system-properties",
  serverType: "notebook-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-notebooks/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "NotebookServerAdminClient#update_system_properties (system_properties.merge({}) posted as properties, token, f=json), resources/server.rb :set_system_properties (line 251)",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/properties/update",
    params: {
      properties: {},
      f: "json",
    },
    jsonParams: ["properties"],
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
    },
  },
  client: { operation: "updateSystemProperties", input: { properties: {} } },
  followUp: {
    request: {
      method: "POST",
      path: "/admin/system/properties",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {},
    },
  },
  assumptions: [
    'The answer on Notebook Server is Mission Server\'s documented {"status": "success"} (Chef reads only that it is no error).',
  ],
};

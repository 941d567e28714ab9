import type { ConformanceCase } from "../corpus";

/**
 * Chef's gis_service `:publish` reads `serviceconfiguration.json` from the service definition it
 * uploaded; the emulator publishes no services and unpacks no item, so a file of an item is
 * refused as an unknown resource.
 */
export const chefArcgisServerExtractItemFile: ConformanceCase = {
  name: "chef-arcgis-server-extract-item-file",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#extract_item_file (GET admin/uploads/<itemID>/<file> with token and f=json in the query; returns the body unchecked) (line 797), from providers/gis_service.rb (line 51, after upload_item of the .sd file)",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/uploads/{uploadId}/serviceconfiguration.json",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "error", code: 404 } },
  client: {
    operation: "none",
    why: "The provider publishes no services; the case is evidence for the emulator only.",
  },
  assumptions: [
    "A file inside an uploaded item is not served (the emulator does not unpack service definitions nor publish services): code 404, as any unknown resource.",
  ],
};

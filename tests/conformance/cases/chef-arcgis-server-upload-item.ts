import type { ConformanceCase } from "../corpus";

/** Chef uploads a file to ArcGIS Server as an item (multipart) and reads the item's id. */
export const chefArcgisServerUploadItem: ConformanceCase = {
  name: "chef-arcgis-server-upload-item",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "upload_item (Net::HTTP::Post::Multipart to /admin/uploads/upload with itemFile, description, token, f=json; validate_response; JSON['item']['itemID'])",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/uploaditem.htm",
      states:
        "POST {uploads}/upload (from 10.1), multipart: itemFile (the file), description (optional), f; answers status success and the item",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/uploads/upload",
    params: { description: "site archive", f: "json" },
    files: { itemFile: "{archive}" },
    token: true,
  },
  answer: { httpStatus: 200, body: { item: { itemID: { $type: "string" } } } },
  client: { operation: "uploadItem", input: { file: "{archive}", description: "site archive" } },
  assumptions: [
    "{archive} is a site archive the replay exports first (Chef uploads other files; the operation takes any item, an .agssite among them).",
  ],
};

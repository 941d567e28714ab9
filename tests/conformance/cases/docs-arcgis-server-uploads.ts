import type { ConformanceCase } from "../corpus";

/** The uploads resource lists the uploaded items. */
export const docsArcgisServerUploads: ConformanceCase = {
  name: "docs-arcgis-server-uploads",
  serverType: "arcgis-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/uploads.htm",
      states:
        "GET {root}/uploads (from 10.1) with f=json answers items, each with itemID, itemName, description, pathOnServer, date, committed",
    },
  ],
  given: "site",
  request: { method: "GET", path: "/admin/uploads", params: { f: "json" }, token: true },
  answer: { httpStatus: 200, body: { items: { $type: "array" } } },
  client: { operation: "listUploadedItems" },
};

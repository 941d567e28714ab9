import type { ConformanceCase } from "../corpus";

/** exportSite into a folder: the answer names the written file. */
export const docsExportSiteLocation: ConformanceCase = {
  name: "docs-export-site-location",
  serverType: "mission-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/exportsite",
      states:
        "POST {root}/exportSite with location (a folder the server can reach) and f; answers status success and the location of the written .agssite file",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/exportSite",
    params: { location: "{exportFolder}", f: "json" },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: { status: "success", location: { $type: "string" } },
  },
  client: { operation: "exportSite", input: { location: "{exportFolder}" } },
  assumptions: [
    "The page is ArcGIS Server's (from 10.2); Mission Server's exportSite (from 10.8, the spec) is taken to answer the same. {exportFolder} is a folder the replay creates.",
  ],
};

import type { ConformanceCase } from "../corpus";

/** Video Server's importsite (its page spells the path in lower case) with an archive's path. */
export const docsVideoImportSite: ConformanceCase = {
  name: "docs-video-import-site",
  serverType: "video-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/video-server/importsite",
      states:
        "POST https://<root>/importsite (from 12.0) with location (the folder path to an exported configuration, or an ID referencing the stored configuration on the server), validate, f and a token; replaces the site configuration and returns a report",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/importsite",
    params: { location: "{archive}", f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: { operation: "importSite", input: { location: "{archive}" } },
  assumptions: [
    "The answer's status 'success' (as Notebook Server's, which Esri's restore script reads; the page does not name the report's fields).",
    "{archive} is an archive the replay exports first into a folder the emulator may read.",
  ],
};

import type { ConformanceCase } from "../corpus";

/** importSite with the id of an item stored on the server (the docs' sample request). */
export const docsArcgisServerImportSite: ConformanceCase = {
  name: "docs-arcgis-server-import-site",
  serverType: "arcgis-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/importsite",
      states:
        "POST {root}/importSite (from 10.2) with location (a file path to an exported configuration or an ID referencing the stored configuration on the server, sample location=i5fad5582-...) and f=json; replaces the site configuration and returns a report",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/importSite",
    params: { location: "{uploadId}", f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: { operation: "importSite", input: { location: "{uploadId}" } },
  assumptions: [
    "The answer's status 'success' (Esri's Notebook Server restore script reads it; the page shows a report without naming its fields).",
    "{uploadId} is the id of an archive stored on the server: the replay exports without location and takes the id from the download URL (the emulator's ids are 32 hex digits; the docs' sample is 'i' and a UUID).",
  ],
};

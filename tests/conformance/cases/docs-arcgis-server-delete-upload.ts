import type { ConformanceCase } from "../corpus";

/** Deleting an uploaded item (here an exported site archive) removes it. */
export const docsArcgisServerDeleteUpload: ConformanceCase = {
  name: "docs-arcgis-server-delete-upload",
  serverType: "arcgis-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/deleteitem.htm",
      states:
        'POST <item-url>/delete (from 10.1) with f; JSON response example {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/uploads/{uploadId}/delete",
    params: { f: "json" },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/uploads/{uploadId}",
      params: { f: "json" },
      token: true,
    },
    answer: { httpStatus: 200, body: { status: "error", code: 404 } },
  },
  client: {
    operation: "none",
    why: "The provider deletes the items it uploads through its own code path; the case is evidence for the emulator only.",
  },
  assumptions: ["A deleted item's resource answers code 404, as any unknown item does."],
};

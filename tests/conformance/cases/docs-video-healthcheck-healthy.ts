import type { ConformanceCase } from "../corpus";

/** Video Server 12.0's health check: `{root}/rest/info/healthcheck`, with a token; success as a string. */
export const docsVideoHealthcheckHealthy: ConformanceCase = {
  name: "docs-video-healthcheck-healthy",
  serverType: "video-server",
  version: "12.0",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/video-server/healthcheck",
      states:
        'https://organization.example.com:21443/arcgis/rest/info/healthcheck?f=pjson; token required; response example {"success": "true"}; introduced at 12.0',
    },
  ],
  given: "site",
  request: { method: "GET", path: "/rest/info/healthcheck", params: { f: "pjson" }, token: true },
  answer: { httpStatus: 200, body: { success: { $anyOf: [true, "true"] } } },
  client: { operation: "healthCheck", expect: "healthy" },
  clientMayDiffer: { f: "the page asks for pjson; the client asks for json" },
};

import type { ConformanceCase } from "../corpus";

/** Mission Server's health check: `{root}/rest/healthcheck` answers success true once the site exists. */
export const docsMissionHealthcheckHealthy: ConformanceCase = {
  name: "docs-mission-healthcheck-healthy",
  serverType: "mission-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/services-reference/mission/site-health-check",
      states:
        'GET https://missionserver.example.com:20443/arcgis/rest/healthcheck?f=json answers {"success": true}; introduced at 10.8',
    },
  ],
  given: "site",
  request: { method: "GET", path: "/rest/healthcheck", params: { f: "json" } },
  answer: { httpStatus: 200, body: { success: true } },
  client: { operation: "healthCheck", expect: "healthy" },
};

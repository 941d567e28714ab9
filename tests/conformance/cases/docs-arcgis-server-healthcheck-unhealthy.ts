import type { ConformanceCase } from "../corpus";

/** ArcGIS Server's health check while the site is being created: a status other than 200. */
export const docsArcgisServerHealthcheckUnhealthy: ConformanceCase = {
  name: "docs-arcgis-server-healthcheck-unhealthy",
  serverType: "arcgis-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/services-reference/enterprise/health-check.htm",
      states:
        "during site creation, this URL reports the site is unhealthy; an unhealthy (unavailable) site will return messaging other than HTTP 200.",
    },
  ],
  given: "site-being-created",
  request: { method: "GET", path: "/rest/info/healthCheck", params: { f: "json" } },
  answer: { httpStatus: { not: 200 } },
  client: { operation: "healthCheck", expect: "unhealthy" },
  assumptions: [
    'Which status and body: not stated. The emulator answers HTTP 503 with {"success": false}.',
  ],
};

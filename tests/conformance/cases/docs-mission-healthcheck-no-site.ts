import type { ConformanceCase } from "../corpus";

/** Mission Server's health check before a site exists: success false. */
export const docsMissionHealthcheckNoSite: ConformanceCase = {
  name: "docs-mission-healthcheck-no-site",
  serverType: "mission-server",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/services-reference/mission/site-health-check",
      states: 'success: "If the value is false the site has not been created."',
    },
  ],
  given: "no-site",
  request: { method: "GET", path: "/rest/healthcheck", params: { f: "json" } },
  answer: { httpStatus: 200, body: { success: false } },
  client: { operation: "healthCheck", expect: "unhealthy" },
  assumptions: [
    "The HTTP status of a false health check on Mission Server is not stated; the emulator answers 200 with success false.",
  ],
};

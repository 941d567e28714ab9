import type { ConformanceCase } from "../corpus";

/** The ArcGIS API for Python reads a Mission Server's system properties with GET (`MissionServer.system.properties`). */
export const pythonMissionSystemProperties: ConformanceCase = {
  name: "python-mission-system-properties",
  serverType: "mission-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_system.py",
      symbol:
        "SystemManager._init (GET <system>/properties, f=json), the properties getter (line 57) (line 37)",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/system/properties",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {},
  },
  client: { operation: "getSystemProperties" },
  assumptions: ["A new site has no system properties: the answer is {}."],
};

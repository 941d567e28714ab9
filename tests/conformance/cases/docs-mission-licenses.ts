import type { ConformanceCase } from "../corpus";

/** A Mission Server's licenses resource (the ArcGIS API for Python's `MissionServer.system.licenses`). */
export const docsMissionLicenses: ConformanceCase = {
  name: "docs-mission-licenses",
  serverType: "mission-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_system.py",
      symbol: "SystemManager.licenses (GET <system>/licenses, f=json) (line 99)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-licenses",
      states:
        'GET <system-url>/licenses; JSON response {"features": [{name, displayName, coreCount, version, canExpire, expiration}]}',
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/system/licenses",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      features: {
        $type: "array",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: ["The one feature listed and its values (the docs show only the shape)."],
};

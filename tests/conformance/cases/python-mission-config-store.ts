import type { ConformanceCase } from "../corpus";

/** The ArcGIS API for Python reads a Mission Server's config store at `system/configStore` (the docs spell it `configstore`). */
export const pythonMissionConfigStore: ConformanceCase = {
  name: "python-mission-config-store",
  serverType: "mission-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_system.py",
      symbol: "SystemManager.config_store (GET <system>/configStore, f=json) (line 141)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/video-server/system",
      states:
        "the system resource lists the child resources properties, directories, configstore, licenses",
    },
  ],
  given: "site",
  request: {
    method: "GET",
    path: "/admin/system/configStore",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      connectionString: {
        $type: "string",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: ["The config store answers in the form createNewSite took it (docs/emulator.md)."],
};

import type { ConformanceCase } from "../corpus";

/** A Web Adaptor registered with a Mission Server site as the ArcGIS API for Python's `WebAdaptorManager.register` posts it; the list then shows it. */
export const pythonMissionRegisterWebAdaptor: ConformanceCase = {
  name: "python-mission-register-web-adaptor",
  serverType: "mission-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_system.py",
      symbol:
        "WebAdaptorManager.register (POST <system>/webadaptors/register: machineName, machineIP, webAdaptorURL, description, httpPort, httpsPort, f; reads status) (line 326)",
    },
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/mission/_system.py",
      symbol:
        "WebAdaptorManager.list (GET <system>/webadaptors; reads webAdaptors[].id) (line 415)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-web-adaptors",
      states:
        'GET <systems-url>/webadaptors; JSON {"webAdaptors": [{webAdaptorURL, id, description, httpPort, httpsPort, isAdminEnabled}]}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/webadaptors/register",
    params: {
      f: "json",
      machineName: "webadaptor.example.com",
      machineIP: "10.0.0.5",
      webAdaptorURL: "https://gis.example.com/mission",
      description: "",
      httpPort: 80,
      httpsPort: 443,
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/system/webadaptors",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        webAdaptors: [
          {
            webAdaptorURL: "https://gis.example.com/mission",
            machineName: "webadaptor.example.com",
            machineIP: "10.0.0.5",
            httpPort: 80,
            httpsPort: 443,
            id: {
              $type: "string",
            },
          },
        ],
      },
    },
  },
  assumptions: [
    'register answers {"status": "success"} (the library reads status; no page shows the answer).',
  ],
};

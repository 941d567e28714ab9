import type { ConformanceCase } from "../corpus";

/** The ArcGIS API for Python's server `Machine.start()` starts a machine; its `status` (GET) then says STARTED. */
export const pythonArcgisServerStartMachine: ConformanceCase = {
  name: "python-arcgis-server-start-machine",
  serverType: "arcgis-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/server/admin/_machines.py",
      symbol:
        "Machine.start (POST <machine>/start, f=json; reads status == 'success') (line 329); Machine.status (GET <machine>/status, f=json) (line 318)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/machine.htm",
      states:
        "The machine resource's operations: Edit, Start, Stop, Unregister, Synchronize With Site",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/machines/{siteMachine}/start",
    params: {
      f: "json",
    },
    token: true,
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
    },
  },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/machines/{siteMachine}/status",
      params: {
        f: "json",
      },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        configuredState: "STARTED",
        realTimeState: "STARTED",
      },
    },
  },
  assumptions: [
    'start answers {"status": "success"} as stop does (its page is not in the sources read), and starting a started machine is no error.',
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

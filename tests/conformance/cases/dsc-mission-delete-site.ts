import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_MissionServer with Ensure Absent deletes the site (ArcGIS_NotebookServer, ArcGIS_VideoServer and ArcGIS_Server send the same). */
export const dscMissionDeleteSite: ConformanceCase = {
  name: "dsc-mission-delete-site",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServer/ArcGIS_MissionServer.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Invoke-DeleteSite (POST /arcgis/admin/deleteSite: f=json, token; Referer; the answer is only logged) (line 845), from Set-TargetResource when Ensure is Absent (line 355)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/deletesite.htm",
      states: 'POST <root>/deleteSite with f; JSON response example {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/deleteSite",
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
      path: "/admin/",
      params: {
        f: "json",
      },
    },
    answer: {
      httpStatus: 200,
      body: {
        error: {
          code: 500,
        },
      },
    },
  },
  assumptions: [
    "Mission Server answers deleteSite as ArcGIS Server's page shows; afterwards the machine is in no site (code 500 at the admin root, as before a site was created).",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

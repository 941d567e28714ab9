import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_Server_RegisterDirectories registers a directory the site does not list yet. */
export const dscArcgisServerRegisterDirectory: ConformanceCase = {
  name: "dsc-arcgis-server-register-directory",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Server_RegisterDirectories/ArcGIS_Server_RegisterDirectories.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Set-RegisteredDirectory (POST arcgis/admin/system/directories/register with f=pjson, token, name, physicalPath, directoryType) (line 194), from Set-TargetResource (line 92) for each name Get-RegisteredDirectories (GET system/directories, line 171) does not list",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/registerdirectory.htm",
      states:
        'POST <directories-url>/register with name, physicalPath, directoryType, cleanupMode (NONE by default), maxFileAge, description, f; {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/system/directories/register",
    params: {
      f: "pjson",
      name: "arcgisoutput2",
      physicalPath: "\\\\fileserver\\arcgis\\arcgisoutput2",
      directoryType: "OUTPUT",
    },
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/system/directories/arcgisoutput2",
      params: { f: "pjson" },
      token: true,
    },
    answer: {
      httpStatus: 200,
      body: {
        name: "arcgisoutput2",
        physicalPath: "\\\\fileserver\\arcgis\\arcgisoutput2",
        directoryType: "OUTPUT",
        cleanupMode: "NONE",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider registers no directories after creation; the case is evidence for the emulator only.",
  },
  assumptions: ["The path is recorded, never created."],
};

import type { ConformanceCase } from "../corpus";

/** DSC creates a portal's site with a file content store and no license file. */
export const dscPortalCreateSite: ConformanceCase = {
  name: "dsc-portal-create-site",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Portal/ArcGIS_Portal.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Invoke-CreatePortalSite (POST portaladmin/createNewSite: username, password, fullname, email, description, securityQuestionIdx, securityQuestionAns, contentStore as JSON {type fileStore, provider FileSystem, connectionString}, f=json; throws on error.message; sleeps twice recheckAfterSeconds when present; then asks for a token) (lines 236-294)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/create-site",
      states:
        "createNewSite creates the initial administrator account; username, password, fullname, email, description, securityQuestionIdx, securityQuestionAns, contentStore",
    },
  ],
  given: "portal-no-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/createNewSite",
    params: {
      username: "portaladmin",
      password: "conf-Portal-Pass-1",
      fullname: "Portal Administrator",
      email: "portaladmin@example.com",
      description: "Initial administrator",
      securityQuestionIdx: "1",
      securityQuestionAns: "mascot",
      contentStore: {
        type: "fileStore",
        provider: "FileSystem",
        connectionString: "C:\\arcgisportal\\content",
      },
      f: "json",
    },
    jsonParams: ["contentStore"],
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  assumptions: [
    "The answer's body: no source shows it; DSC reads error.message and recheckAfterSeconds, Chef only the absence of error, the ArcGIS API for Python names 'success'. The emulator answers {\"status\":\"success\"}, without recheckAfterSeconds, once the site is ready (docs/emulator.md, The portal's site).",
  ],
  client: {
    operation: "createPortalSite",
    input: {
      username: "portaladmin",
      password: "conf-Portal-Pass-1",
      fullName: "Portal Administrator",
      email: "portaladmin@example.com",
      description: "Initial administrator",
      securityQuestionIdx: 1,
      securityAnswer: "mascot",
      contentStore: {
        type: "fileStore",
        provider: "FileSystem",
        connectionString: "C:\\arcgisportal\\content",
      },
    },
  },
};

import type { ConformanceCase } from "../corpus";

/** createNewSite without a required parameter (the email) is refused; DSC throws error.message. */
export const dscPortalCreateSiteMissingEmail: ConformanceCase = {
  name: "dsc-portal-create-site-missing-email",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Portal/ArcGIS_Portal.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Invoke-CreatePortalSite (throws $Response.error.message when the answer has one) (lines 278-280)",
    },
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/admin/_site.py",
      symbol:
        "Site.create (username, password, full_name, email, content_store required; description, question and license optional)",
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
      description: "",
      securityQuestionIdx: "1",
      securityQuestionAns: "mascot",
      contentStore: { type: "fileStore", provider: "FileSystem", connectionString: "/content" },
      f: "json",
    },
    jsonParams: ["contentStore"],
  },
  answer: { httpStatus: 200, body: { error: { code: 400, message: { $type: "string" } } } },
  assumptions: [
    "The refusal's code and message (which names the parameter): no source shows them (docs/emulator.md, The portal's site).",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange yet; the case is evidence for the emulator only.",
  },
};

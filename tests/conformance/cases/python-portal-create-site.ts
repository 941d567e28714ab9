import type { ConformanceCase } from "../corpus";

/** The ArcGIS API for Python's Site.create spells the full name `fullName`. */
export const pythonPortalCreateSite: ConformanceCase = {
  name: "python-portal-create-site",
  serverType: "mission-server",
  sources: [
    {
      package: "arcgis",
      registry: "PyPI",
      version: "2.4.4",
      file: "arcgis/gis/admin/_site.py",
      symbol:
        "Site.create (POST <portaladmin>/createNewSite: f, username, password, fullName, email, description, contentStore, securityQuestionIdx and securityQuestionAns together, userLicenseTypeId; returns the answer, 'a dictionary indicating success or error')",
    },
  ],
  given: "portal-no-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/createNewSite",
    params: {
      f: "json",
      username: "pyadmin",
      password: "conf-Py-Portal-3",
      fullName: "Python Administrator",
      email: "pyadmin@example.com",
      description: "",
      contentStore: { type: "fileStore", provider: "FileSystem", connectionString: "/content" },
      securityQuestionIdx: "3",
      securityQuestionAns: "bicycle",
    },
    jsonParams: ["contentStore"],
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  assumptions: [
    "'success' is a status member, as the portal's other administrative operations answer (docs/emulator.md, The portal's site).",
  ],
  client: {
    operation: "none",
    why: "PortalSite sends DSC's form (dsc-portal-create-site), with `fullname` where the ArcGIS API for Python sends `fullName`; the case is evidence for the emulator only.",
  },
};

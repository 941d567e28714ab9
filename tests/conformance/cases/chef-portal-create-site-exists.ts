import type { ConformanceCase } from "../corpus";

/**
 * createNewSite on a portal that has its site (the emulator's portal has one unless started in
 * no site) is refused with an error, which Chef's validate_response raises.
 */
export const chefPortalCreateSiteExists: ConformanceCase = {
  name: "chef-portal-create-site-exists",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#create_site (line 262) then validate_response (raises error.message of an HTTP 200 answer) (line 958)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/create-site",
      states: "createNewSite must be the first operation invoked after installation",
    },
  ],
  given: "no-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/createNewSite",
    params: {
      username: "admin",
      password: "conf-Chef-Portal-2",
      email: "admin@example.com",
      fullname: "Administrator",
      description: "",
      securityQuestion: "1",
      securityQuestionAns: "Springfield",
      contentStore: { type: "fileStore", provider: "FileSystem", connectionString: "/content" },
      f: "json",
    },
    jsonParams: ["contentStore"],
  },
  answer: { httpStatus: 200, body: { error: { code: 400, message: { $type: "string" } } } },
  assumptions: [
    "That a portal with a site refuses createNewSite, and how: no source shows it (Chef never sends it when site_exist? is true). The emulator answers the portal's error document, code 400 (docs/emulator.md, The portal's site).",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange yet; the case is evidence for the emulator only.",
  },
};

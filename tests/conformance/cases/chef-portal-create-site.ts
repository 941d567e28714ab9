import type { ConformanceCase } from "../corpus";

/** Chef's portal :create_site: a multipart createNewSite with the portal's license file. */
export const chefPortalCreateSite: ConformanceCase = {
  name: "chef-portal-create-site",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#create_site (multipart POST portaladmin/createNewSite: username, password, email, fullname, description, securityQuestion, securityQuestionAns, contentStore, userLicenseTypeId, file, enableDebug, f=json; validate_response fails on an error member) (line 262)",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/providers/portal.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "action :create_site (unless site_exist?: content store JSON of type, provider, connectionString, objectStore; after create_site, sleeps then waits until portaladmin answers) (lines 323-358)",
    },
  ],
  given: "portal-no-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/createNewSite",
    params: {
      username: "admin",
      password: "conf-Chef-Portal-2",
      email: "admin@example.com",
      fullname: "Administrator",
      description: "Initial account administrator",
      securityQuestion: "1",
      securityQuestionAns: "Springfield",
      contentStore: {
        type: "fileStore",
        provider: "FileSystem",
        connectionString: "/arcgis/portal/usr/arcgisportal/content",
        objectStore: null,
      },
      userLicenseTypeId: "creatorUT",
      enableDebug: "false",
      f: "json",
    },
    jsonParams: ["contentStore"],
    files: { file: "{portalLicense}" },
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  assumptions: [
    'The answer\'s body beyond the absence of error (Chef\'s only check): the emulator answers {"status":"success"} (docs/emulator.md, The portal\'s site).',
    "The license file is accepted and not checked.",
  ],
  client: {
    operation: "none",
    why: "PortalSite sends DSC's form (dsc-portal-create-site), not Chef's multipart one: it takes no license file and names the question securityQuestionIdx; the case is evidence for the emulator only.",
  },
};

import type { ConformanceCase } from "../corpus";

/** A portal in no site: DSC looks for this message before it creates the portal's site. */
export const dscPortalNoSite: ConformanceCase = {
  name: "dsc-portal-no-site",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Portal/ArcGIS_Portal.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Test-TargetResource and Set-TargetResource (GET portaladmin with referer and f=json; a site when error.code is 499 with 'Token Required.'; otherwise, with status 'error', creates the site when messages holds 'The portal site has not been initialized. Please create a new site and try again.') (lines 618-630, 877-895)",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#site_exist? (GET portaladmin/?f=json: no site unless HTTP 200 with error.code 499) (line 47), from providers/portal.rb action :create_site (line 325)",
    },
  ],
  given: "portal-no-site",
  request: {
    method: "GET",
    root: "portal",
    path: "/portaladmin",
    params: { referer: "http://localhost", f: "json" },
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "error",
      messages: [
        "The portal site has not been initialized. Please create a new site and try again.",
      ],
    },
  },
  assumptions: [
    "The HTTP status (200) and that the document has no other members: DSC reads only status and messages (docs/emulator.md, The portal's site).",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange yet; the case is evidence for the emulator only.",
  },
};

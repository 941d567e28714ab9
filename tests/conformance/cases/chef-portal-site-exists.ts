import type { ConformanceCase } from "../corpus";

/** Chef's portal client decides that the portal has a site from code 499 at the unauthenticated `portaladmin/`. */
export const chefPortalSiteExists: ConformanceCase = {
  name: "chef-portal-site-exists",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#site_exist? (GET portaladmin/?f=json without a token; true on HTTP 200 with error.code 499) (line 47), from providers/portal.rb action :enable_server_function (line 627); #wait_until_available GETs portaladmin (an HTTP status below 400) (line 43)",
    },
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/portal/plugins/module_utils/org_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol: "OrgAdminClient.wait_until_available (GET portaladmin/?f=json) (line 42)",
    },
  ],
  given: "no-site",
  request: {
    method: "GET",
    root: "portal",
    path: "/portaladmin/",
    params: {
      f: "json",
    },
  },
  answer: {
    httpStatus: 200,
    body: {
      error: {
        code: 499,
      },
    },
  },
  assumptions: [
    "The emulated portal has its site unless started in no site (portalNoSite), so an unauthenticated request here is code 499 (token required).",
  ],
  client: { operation: "portalSiteStatus", expect: "in-site" },
};

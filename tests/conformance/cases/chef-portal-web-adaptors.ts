import type { ConformanceCase } from "../corpus";

/** Chef lists a portal's Web Adaptors before unregistering each (none on a new portal). */
export const chefPortalWebAdaptors: ConformanceCase = {
  name: "chef-portal-web-adaptors",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#web_adaptors (POST portaladmin/system/webadaptors with token and f=json, Referer 'referer'; validate_response; reads webAdaptors) (line 714), from providers/portal.rb (line 442: each one listed is unregistered with #unregister_web_adaptor, line 699)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/web-adaptors.htm",
      states: 'GET <root>/system/webadaptors; JSON response syntax {"webAdaptors": [Web Adaptor]}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/system/webadaptors",
    params: { f: "json" },
    token: "portal",
  },
  answer: { httpStatus: 200, body: { webAdaptors: [] } },
  client: {
    operation: "none",
    why: "The provider performs no such exchange yet; the case is evidence for the emulator only.",
  },
};

import type { ConformanceCase } from "../corpus";

/** Chef's portal `federate_server` action federates a Mission Server site with the portal. */
export const chefPortalFederateServer: ConformanceCase = {
  name: "chef-portal-federate-server",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#federate_server (POST portaladmin/federation/servers/federate: token, url, adminUrl, username, password, f=json; validate_response; reads serverId) (line 550), from providers/portal.rb action :federate_server (line 587), recipes arcgis-mission/federation.rb 'Federate Mission Server'",
    },
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/portal/plugins/module_utils/org_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol: "OrgAdminClient.federate_server (line 65)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Invoke-FederateServer (f, url, adminUrl, username, password, token)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/federate-servers.htm",
      states:
        "POST federation/servers/federate with url, adminUrl, username, password, f; the answer carries status and serverId",
    },
  ],
  given: "site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/federation/servers/federate",
    params: {
      url: "{siteRoot}",
      adminUrl: "{siteRoot}",
      username: "siteadmin",
      password: "Example-passw0rd",
      f: "json",
    },
    token: "portal",
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
      serverId: {
        $type: "string",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

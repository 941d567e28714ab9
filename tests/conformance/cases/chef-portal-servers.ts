import type { ConformanceCase } from "../corpus";

/** Chef's portal actions find a federated server in the sharing API's list, by its `url`. */
export const chefPortalServers: ConformanceCase = {
  name: "chef-portal-servers",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#servers (GET sharing/rest/portals/self/servers/ with token and f=json in the query, Referer 'referer'; validate_response; reads servers) (line 510), from providers/portal.rb actions :federate_server (line 582), :unfederate_server (line 605), :enable_server_function (line 631; each server's url and id)",
    },
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/portal/plugins/module_utils/org_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol:
        "OrgAdminClient.get_servers (GET sharing/rest/portals/self/servers/?f=json) (line 56)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "reads /sharing/rest/portals/self/servers/",
    },
  ],
  given: "federated-site",
  request: {
    method: "GET",
    root: "portal",
    path: "/sharing/rest/portals/self/servers/",
    params: {
      f: "json",
    },
    token: "portal",
  },
  answer: {
    httpStatus: 200,
    body: {
      servers: [
        {
          id: "{serverId}",
          url: "{siteRoot}",
        },
      ],
    },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

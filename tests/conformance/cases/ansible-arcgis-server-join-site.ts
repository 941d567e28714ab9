import type { ConformanceCase } from "../corpus";

/** Ansible joins an ArcGIS Server machine to a site, with pullLicense as Python's False. */
export const ansibleArcgisServerJoinSite: ConformanceCase = {
  name: "ansible-arcgis-server-join-site",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/server/plugins/module_utils/server_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol: "ServerAdminClient.join_site (adminURL, username, password, pullLicense, f)",
    },
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/server/plugins/modules/join_site.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol: "run_module (join_site(primary_server_url + '/admin', False) unless site_exists())",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol: "ServerAdminClient#join_site (pullLicense)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/joinsite",
      states:
        'POST <root>/joinSite with adminURL, username, password, f; JSON response {"status": "success|failure", "pollAfter": <seconds>}',
    },
  ],
  given: "joining-machine",
  request: {
    method: "POST",
    path: "/admin/joinSite",
    params: {
      adminURL: "{siteAdminUrl}",
      username: "siteadmin",
      password: "Example-passw0rd",
      pullLicense: "False",
      f: "json",
    },
  },
  answer: { httpStatus: 200, body: { status: "success", pollAfter: { $type: "number" } } },
  client: {
    operation: "joinSite",
    input: { siteAdminUrl: "{siteAdminUrl}", username: "siteadmin", password: "Example-passw0rd" },
  },
  clientMayDiffer: {
    pullLicense: "the client sends false as Chef's Ruby does; Ansible's Python sends False",
  },
};

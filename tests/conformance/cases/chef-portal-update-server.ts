import type { ConformanceCase } from "../corpus";

/** Chef's portal `enable_server_function` action sets the federated server's role and function. */
export const chefPortalUpdateServer: ConformanceCase = {
  name: "chef-portal-update-server",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#update_server (POST portaladmin/federation/servers/<id>/update: token, serverRole, serverFunction, f=json; reads serverId) (line 587), from providers/portal.rb action :enable_server_function (line 639), recipes arcgis-mission/federation.rb 'Enable MissionServer server function'",
    },
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/portal/plugins/module_utils/org_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol: "OrgAdminClient.update_server (line 82)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Update-FederatedServer (f, token, serverRole, serverFunction)",
    },
  ],
  given: "federated-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/portaladmin/federation/servers/{serverId}/update",
    params: {
      serverRole: "FEDERATED_SERVER",
      serverFunction: "MissionServer",
      f: "json",
    },
    token: "portal",
  },
  answer: {
    httpStatus: 200,
    body: {
      status: "success",
      serverId: "{serverId}",
    },
  },
  followUp: {
    request: {
      method: "GET",
      root: "portal",
      path: "/portaladmin/federation/servers/",
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
            serverRole: "FEDERATED_SERVER",
            serverFunction: "MissionServer",
          },
        ],
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

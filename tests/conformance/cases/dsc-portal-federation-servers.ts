import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_Federation lists the portal's federated servers at `portaladmin/federation/servers/`. */
export const dscPortalFederationServers: ConformanceCase = {
  name: "dsc-portal-federation-servers",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Get-FederatedServers (GET portaladmin/federation/servers/ with f and token; finds the server by url and adminUrl)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/servers.htm",
      states:
        "GET federation/servers: servers, each with id, url, adminUrl, serverRole, serverFunction",
    },
  ],
  given: "federated-site",
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
          url: "{siteRoot}",
          adminUrl: "{siteRoot}",
        },
      ],
    },
  },
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

import type { ConformanceCase } from "../corpus";

/**
 * Chef's portal `federate_server` sent to a portal while another portal has federated the server:
 * a server names one portal, so the federate is refused, in the sharing API's error form that
 * Chef's `validate_response` fails on.
 */
export const chefPortalFederateServerFederatedElsewhere: ConformanceCase = {
  name: "chef-portal-federate-server-federated-elsewhere",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#federate_server (POST portaladmin/federation/servers/federate: token, url, adminUrl, username, password, f=json) (line 550); validate_response raises on an `error` member of the answer",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#federate writes one portalProperties into the server's security configuration: a server is federated with one portal",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/portal/federate-servers.htm",
      states:
        "POST federation/servers/federate with url, adminUrl, username, password, f; the answer carries status and serverId",
    },
  ],
  given: "federated-with-another-portal",
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
  answer: { httpStatus: 200, body: { error: { code: 400, message: { $type: "string" } } } },
  followUp: {
    request: {
      method: "GET",
      root: "portal",
      path: "/portaladmin/federation/servers",
      params: { f: "json" },
      token: "portal",
    },
    answer: { httpStatus: 200, body: { servers: [] } },
  },
  client: {
    operation: "none",
    why: "The Federation resource reads the portal's list before federating and reports the portal's refusal; the exchange itself is evidence for the emulator.",
  },
  assumptions: [
    "The real portal's refusal of a server another portal federated is not documented: its code 400 and wording are this project's (docs/emulator.md, Federation).",
  ],
};

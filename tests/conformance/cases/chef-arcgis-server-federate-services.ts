import type { ConformanceCase } from "../corpus";

/** After federating an ArcGIS Server site, Chef imports its services into the portal with the portal's token. */
export const chefArcgisServerFederateServices: ConformanceCase = {
  name: "chef-arcgis-server-federate-services",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#federate: after security/config/update, POST admin/services/federate with token = the portal's token and f=json, Referer 'referer'; validate_response (line 611)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/federate",
      states:
        'POST <root>/services/federate with f imports the site\'s services as items of the organization it is federated with; JSON response example {"status": "success"}',
    },
  ],
  given: "federated-site",
  request: {
    method: "POST",
    path: "/admin/services/federate",
    params: { f: "json" },
    token: "portal",
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  client: {
    operation: "none",
    why: "The provider does not federate; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The emulated portal keeps no items, so nothing is imported; a site no portal federated is refused with code 400 (this project's text).",
  ],
};

import type { ConformanceCase } from "../corpus";

/** Chef's server `federate` action asks the portal for a token at `sharing/generateToken`, without `/rest`. */
export const chefPortalGenerateTokenWithoutRest: ConformanceCase = {
  name: "chef-portal-generate-token-without-rest",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/providers/server.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "action :federate (portal_admin_client.generate_token(portal_url + '/sharing/generateToken')) (line 598)",
    },
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#generate_token (POST username, password, client=referer, referer=referer, expiration=600, f=json; reads token) (line 731)",
    },
  ],
  given: "no-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/sharing/generateToken",
    params: {
      username: "portaladmin",
      password: "emulator-Admin-1",
      client: "referer",
      referer: "referer",
      expiration: "600",
      f: "json",
    },
  },
  answer: {
    httpStatus: 200,
    body: {
      token: {
        $type: "string",
      },
      expires: {
        $type: "number",
      },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no such setting; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The emulator's default portal administrator's credentials stand for the portal's.",
  ],
};

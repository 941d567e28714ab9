import type { ConformanceCase } from "../corpus";

/** Chef's portal client signs in at the sharing API's `generateToken` before every portal call. */
export const chefPortalGenerateToken: ConformanceCase = {
  name: "chef-portal-generate-token",
  serverType: "mission-server",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "PortalAdminClient#generate_token (POST sharing/rest/generateToken: username, password, client=referer, referer=referer, expiration=600, f=json; reads token) (line 731; the URL set at line 38)",
    },
    {
      repository: "Esri/arcgis-gitops",
      path: "ansible_collections/arcgis/portal/plugins/module_utils/org_admin_client.py",
      commit: "1254036ab438965776b0792e3876e098a183d9ff",
      symbol:
        "OrgAdminClient.generate_token (POST sharing/rest/generateToken; reads token) (line 96)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/Modules/ArcGIS.Common/ArcGIS.Common.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol: "Get-PortalToken (POST /sharing/rest/generateToken: username, password, referer, f)",
    },
  ],
  given: "no-site",
  request: {
    method: "POST",
    root: "portal",
    path: "/sharing/rest/generateToken",
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
  assumptions: [
    "The emulator's default portal administrator's credentials stand for the portal's.",
  ],
  client: {
    operation: "none",
    why: "The provider performs no such exchange; the case is evidence for the emulator only.",
  },
};

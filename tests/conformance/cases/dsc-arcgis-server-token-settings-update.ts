import type { ConformanceCase } from "../corpus";

/** DSC's ArcGIS_ServerSettings posts the token manager configuration back with its shared key. */
export const dscArcgisServerTokenSettingsUpdate: ConformanceCase = {
  name: "dsc-arcgis-server-token-settings-update",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_ServerSettings/ArcGIS_ServerSettings.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Set-TokenSettings (POST arcgis/admin/security/tokens/update with f=json, token, tokenManagerConfig: the object read, properties.sharedKey replaced, as JSON text; Confirm-ResponseStatus) (line 573), from Set-TargetResource (line 283)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/updatetokenconfig.htm",
      states:
        'POST <tokens-url>/update with tokenManagerConfig {"type": "BUILTIN", "properties": {"sharedKey", "longTimeout", "shortTimeout"}} and f; {"status": "success"}',
    },
  ],
  given: "site",
  request: {
    method: "POST",
    path: "/admin/security/tokens/update",
    params: {
      f: "json",
      tokenManagerConfig: {
        type: "BUILTIN",
        properties: {
          sharedKey: "conformance.shared.key",
          longTimeout: "1440",
          shortTimeout: "60",
        },
      },
    },
    jsonParams: ["tokenManagerConfig"],
    token: true,
  },
  answer: { httpStatus: 200, body: { status: "success" } },
  followUp: {
    request: { method: "GET", path: "/admin/security/tokens", params: { f: "json" }, token: true },
    answer: {
      httpStatus: 200,
      body: { type: "BUILTIN", properties: { sharedKey: "conformance.shared.key" } },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no token settings; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The shared key is kept as given and shown, but signs none of the emulator's tokens: tokens issued before stay valid.",
  ],
};

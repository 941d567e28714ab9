import type { ConformanceCase } from "../corpus";

/** Chef asks a Mission Server machine whether its site waits for the upgrade (no token): `isUpgrade`. */
export const chefMissionUpgradeRequired: ConformanceCase = {
  name: "chef-mission-upgrade-required",
  serverType: "mission-server",
  version: "11.3",
  upgradeFrom: "11.2",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "MissionServerAdminClient#upgrade_required? (GET admin/upgrade?f=json, no token; `JSON.parse(response.body)['isUpgrade'] # Mission Server`), called first by resources/server.rb :create_site and :join_site (line 109)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServerUpgrade/ArcGIS_MissionServerUpgrade.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Test-TargetResource and Set-TargetResource (GET https://<host>:20443/arcgis/admin/upgrade with f=json; an upgrade is due when isUpgrade is true)",
    },
  ],
  given: "upgrade-required",
  request: {
    method: "GET",
    path: "/admin/upgrade",
    params: { f: "json" },
  },
  answer: {
    httpStatus: 200,
    body: { isUpgrade: true },
  },
  client: { operation: "getUpgradeStatus", expect: { state: "required", required: true } },
};

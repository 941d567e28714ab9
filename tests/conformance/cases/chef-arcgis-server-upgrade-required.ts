import type { ConformanceCase } from "../corpus";

/** Chef asks an ArcGIS Server machine whether its site waits for the upgrade (no token), before creating or joining a site. */
export const chefArcgisServerUpgradeRequired: ConformanceCase = {
  name: "chef-arcgis-server-upgrade-required",
  serverType: "arcgis-server",
  version: "11.3",
  upgradeFrom: "11.1",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#upgrade_required? (GET admin/upgrade?f=json, no token; true when upgradeStatus is UPGRADE_REQUIRED or LAST_ATTEMPT_FAILED, or isUpgrade), called first by providers/server.rb :create_site and :join_site (line 135)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_ServerUpgrade/ArcGIS_ServerUpgrade.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Test-TargetResource (GET https://<host>:6443/arcgis/admin/upgrade with f=json; an upgrade is due when upgradeStatus is UPGRADE_REQUIRED, LAST_ATTEMPT_FAILED or IN_PROGRESS)",
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
    body: { upgradeStatus: "UPGRADE_REQUIRED" },
  },
  client: { operation: "getUpgradeStatus", expect: { state: "required", required: true } },
  assumptions: [
    "The answer's upgradeFromVersion and upgradeToVersion (fields of the asynchronous status a real 12.1 server answered, arcgis-powershell-dsc issue #703); the clients read only upgradeStatus.",
  ],
};

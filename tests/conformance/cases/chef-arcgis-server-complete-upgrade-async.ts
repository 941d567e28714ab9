import type { ConformanceCase } from "../corpus";

/** Chef completes an ArcGIS Server 11.4 site's upgrade asynchronously, then polls `upgrade` (no token). */
export const chefArcgisServerCompleteUpgradeAsync: ConformanceCase = {
  name: "chef-arcgis-server-complete-upgrade-async",
  serverType: "arcgis-server",
  version: "11.4",
  upgradeFrom: "11.3",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-enterprise/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "ServerAdminClient#complete_upgrade_async (POST admin/upgrade: runAsync=true, enableDebug, f=json; loops while upgradeStatus is IN_PROGRESS or 'In Progress', polling #poll_upgrade_status: GET admin/upgrade?runAsync=true&f=json; logs stages[].name/state; succeeds on 'Success' or 'Success with warnings') (line 204); providers/server.rb :create_site: 'Async upgrades are supported starting from ArcGIS Server 11.4'",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_ServerUpgrade/ArcGIS_ServerUpgrade.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        "Set-TargetResource (POST runAsync=true, f=json; polls GET with the same parameters until upgradeStatus 'Success', 'Success with warnings' or a 404)",
    },
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/upgrade",
      states:
        "while an asynchronous upgrade is in progress it can be polled; the example shows 'In Progress' with upgradeFromVersion, upgradeToVersion and stages",
    },
  ],
  given: "upgrade-required",
  request: {
    method: "POST",
    path: "/admin/upgrade",
    params: { runAsync: true, enableDebug: false, f: "json" },
  },
  answer: {
    httpStatus: 200,
    body: {
      upgradeStatus: "In Progress",
      upgradeFromVersion: "11.3.0",
      upgradeToVersion: "11.4.0",
      stages: { $type: "array" },
      warnings: [],
    },
  },
  followUp: {
    request: {
      method: "GET",
      path: "/admin/upgrade",
      params: { runAsync: true, f: "json" },
    },
    answer: {
      httpStatus: 200,
      body: { upgradeStatus: { $anyOf: ["In Progress", "Success"] } },
    },
  },
  client: {
    operation: "none",
    why: "The provider manages no upgrade; the case is evidence for the emulator only.",
  },
  assumptions: [
    "The in-progress answer's form is a real 12.1 server's (arcgis-powershell-dsc issue #703: 'In Progress', seven named stages, messages '', warnings []); the final 'Success' and the stage state 'Completed' are this project's choice among what Chef accepts.",
  ],
};

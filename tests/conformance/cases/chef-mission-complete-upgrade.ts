import type { ConformanceCase } from "../corpus";

/** Chef completes a Mission Server site's upgrade (POST, no token); afterwards `upgrade` is gone. */
export const chefMissionCompleteUpgrade: ConformanceCase = {
  name: "chef-mission-complete-upgrade",
  serverType: "mission-server",
  version: "11.3",
  upgradeFrom: "11.2",
  sources: [
    {
      repository: "Esri/arcgis-cookbook",
      path: "cookbooks/arcgis-mission/libraries/server_admin_client.rb",
      commit: "6b807249eec03146b913a2ad8661425472d53780",
      symbol:
        "MissionServerAdminClient#complete_upgrade (POST admin/upgrade with f=json, no token; validate_response fails on an `error` member) (line 133)",
    },
    {
      repository: "Esri/arcgis-powershell-dsc",
      path: "Modules/ArcGIS/DSCResources/ArcGIS_MissionServerUpgrade/ArcGIS_MissionServerUpgrade.psm1",
      commit: "df1baa2fb78f56780160dbf048435b8a8ca800cb",
      symbol:
        'Set-TargetResource (POST admin/upgrade with f=json; `if($Response.status -ieq "success")`, else throws)',
    },
  ],
  given: "upgrade-required",
  request: {
    method: "POST",
    path: "/admin/upgrade",
    params: { f: "json" },
  },
  answer: {
    httpStatus: 200,
    body: { status: "success" },
  },
  followUp: {
    request: { method: "GET", path: "/admin/upgrade", params: { f: "json" } },
    answer: { httpStatus: 200, body: { error: { code: 404 } } },
  },
  client: { operation: "completeUpgrade" },
  assumptions: [
    "After the upgrade Mission Server answers `upgrade` with code 404 in its error form, as ArcGIS Server does (no Mission source shows it; Chef and DSC only need isUpgrade to be absent).",
  ],
};

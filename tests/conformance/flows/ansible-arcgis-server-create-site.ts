import { ansibleArcgisServerCreateSite } from "../cases/ansible-arcgis-server-create-site";
import type { ConformanceFlow } from "../flow";

const COMMIT = "1254036ab438965776b0792e3876e098a183d9ff";
const MODULE = "ansible_collections/arcgis/server/plugins/modules/create_site.py";
const CLIENT = "ansible_collections/arcgis/server/plugins/module_utils/server_admin_client.py";

/**
 * Ansible's `arcgis.server.create_site` on a machine in no site: run_module calls
 * wait_until_available, upgrade_required, site_exists, then create_site(..., runAsync False),
 * each through a new urllib request; nothing after createNewSite's answer.
 */
export const ansibleArcgisServerCreateSiteFlow: ConformanceFlow = {
  name: "ansible-arcgis-server-create-site-flow",
  serverType: "arcgis-server",
  sources: [
    {
      repository: "Esri/arcgis-gitops",
      path: MODULE,
      commit: COMMIT,
      symbol:
        "run_module: wait_until_available(); upgrade_required() else not site_exists() then create_site(config_store_connection, directories, cloud_config, log_settings, False)",
    },
    {
      repository: "Esri/arcgis-gitops",
      path: CLIENT,
      commit: COMMIT,
      symbol:
        "ServerAdminClient.wait_until_available, url_available, upgrade_required, site_exists, create_site, send_request",
    },
  ],
  given: "no-site",
  steps: [
    {
      // url_available: any answer below HTTP 400 is "available"; else sleep SLEEP_TIME (10 s), at
      // most MAX_RETRIES (100) times.
      symbol: "ServerAdminClient.wait_until_available",
      request: { method: "GET", path: "/admin/", params: { f: "json" } },
      repeat: { whileStatusAtLeast: 400, everyMs: 10_000, maxAttempts: 100 },
    },
    {
      // urlopen raises on HTTP 400 and above; an upgrade is due when upgradeStatus is one of these
      // or isUpgrade is true (then complete_upgrade runs instead of creating a site).
      symbol: "ServerAdminClient.upgrade_required",
      request: { method: "GET", path: "/admin/upgrade", params: { f: "json" } },
      failsAboveStatus: 399,
      endsWhen: [
        { field: "upgradeStatus", anyOf: ["UPGRADE_REQUIRED", "LAST_ATTEMPT_FAILED"] },
        { field: "isUpgrade", anyOf: [true] },
      ],
    },
    {
      // A site exists when the admin root answers HTTP 200 with a top-level code 499.
      symbol: "ServerAdminClient.site_exists",
      request: { method: "GET", path: "/admin/", params: { f: "json" } },
      failsAboveStatus: 399,
      endsWhen: [{ field: "code", anyOf: [499] }],
    },
    {
      // send_request: Referer 'referer', no token; raises above HTTP 200 or on status "error".
      symbol: "ServerAdminClient.create_site (through send_request)",
      request: ansibleArcgisServerCreateSite.request,
      referer: "referer",
      failsAboveStatus: 200,
      failsOnErrorStatus: true,
    },
  ],
  assumptions: [
    "The upgrade resource's answer on a server that needs no upgrade: the source only reads upgradeStatus and isUpgrade from it; any HTTP 200 answer without those values lets the flow go on (the emulator answers that the resource does not exist, with HTTP 200, as the admin API reports errors).",
  ],
};

/**
 * ArcGIS Server's clusters: `clusters`, `clusters/<name>` and `clusters/<name>/machines/add`,
 * which Chef's `join_cluster` action calls on every run for the machine it joined to the site, and
 * `.../machines/remove`, which its `stop_machine` action calls.
 *
 * Evidence:
 * - Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb` (`add_machine_to_cluster`: POST
 *   `clusters/<cluster>/machines/add` with `username`, `password`, `machineNames` = the machine's
 *   name, token, f=json; `validate_response`), `providers/server.rb` (`:join_cluster`: the name from
 *   `local_machine_name`) and `recipes/server_node.rb` ('Add machine to default cluster', after
 *   'Join ArcGIS Server Site', on every run).
 * - https://developers.arcgis.com/rest/enterprise-administration/server/addmachines (machineNames,
 *   a comma-separated list of machines registered with the site; `{"status": "success"}`; a machine
 *   takes part in one cluster at a time) and .../server/cluster (`clusterName`, `machineNames`).
 * - The 10.1 machines page (https://resources.arcgis.com/en/help/server-admin-api/machines.html):
 *   "When you create a new site, a cluster called 'default' is created for you"
 *   (admin/site.ts puts the creating machine in it).
 * Assumptions (docs/emulator.md): a joined machine is in no cluster until added (Chef adds it
 * explicitly); adding a machine to the cluster it is in succeeds (Chef adds it on every run); a
 * machine in another cluster, one the site does not list, or an unknown cluster is refused (texts
 * this project's); `username` and `password` are ignored (the token authenticates);
 * `clusterProtocol` is not shown.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { SiteRecord } from "../core/state";
import { notFoundError } from "./not-found";
import { updateOnMembers } from "./machines";
import { refuseDuringExport } from "./site";

function findCluster(site: SiteRecord, name: string): SiteRecord["clusters"][number] {
  const found = site.clusters.find((c) => c.clusterName.toLowerCase() === name.toLowerCase());
  if (found === undefined) throw notFoundError(name);
  return found;
}

/** `clusters`: every cluster with its machines. */
export function listClusters(site: SiteRecord): Reply {
  return json({ clusters: site.clusters });
}

/** `clusters/<name>`. */
export function cluster(site: SiteRecord, name: string): Reply {
  return json(findCluster(site, name));
}

/** The machines a `machineNames` parameter names, as the site lists them (code 400 otherwise). */
function namedMachines(req: ApiRequest, site: SiteRecord, verb: string): string[] {
  const asked = (req.params.get("machineNames") ?? "")
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  if (asked.length === 0) {
    throw new AdminError(400, [
      "The parameter 'machineNames' is required: machine names, comma separated.",
    ]);
  }
  return asked.map((m) => {
    const found = site.machines.find((s) => s.toLowerCase() === m.toLowerCase());
    if (found === undefined) {
      throw new AdminError(400, [
        `Machine '${m}' is not registered with the site. Register it before ${verb}.`,
      ]);
    }
    return found;
  });
}

/**
 * `clusters/<name>/machines/remove`: the machines go back to the pool of registered machines (the
 * removemachines page: `machineNames`, `{"status": "success"}`). Chef's `stop_machine` action
 * calls it for the machine it stopped (`remove_machine_from_cluster`, cluster `default`). A
 * machine the cluster does not hold is no error (assumed, as `add` of a member is none).
 */
export async function removeMachinesFromCluster(
  rt: Runtime,
  req: ApiRequest,
  site: SiteRecord,
  name: string,
): Promise<Reply> {
  const target = findCluster(site, name);
  const names = namedMachines(req, site, "removing it from a cluster");
  await updateOnMembers(
    site.id,
    (draft) => {
      refuseDuringExport(rt);
      const own = draft.clusters.find((c) => c.clusterName === target.clusterName);
      if (own === undefined) throw notFoundError(name);
      own.machineNames = own.machineNames.filter((m) => !names.includes(m));
    },
    rt,
  );
  return json({ status: "success" });
}

/** `clusters/<name>/machines/add`: `machineNames`, a comma-separated list of site machines. */
export async function addMachinesToCluster(
  rt: Runtime,
  req: ApiRequest,
  site: SiteRecord,
  name: string,
): Promise<Reply> {
  const target = findCluster(site, name);
  const names = namedMachines(req, site, "adding it to a cluster").map((found) => {
    const other = site.clusters.find(
      (c) => c.clusterName !== target.clusterName && c.machineNames.includes(found),
    );
    if (other !== undefined) {
      throw new AdminError(400, [
        `Machine '${found}' already participates in cluster '${other.clusterName}'. A machine can participate in one cluster only.`,
      ]);
    }
    return found;
  });
  await updateOnMembers(
    site.id,
    (draft) => {
      refuseDuringExport(rt);
      const own = draft.clusters.find((c) => c.clusterName === target.clusterName);
      if (own === undefined) throw notFoundError(name);
      own.machineNames = [...new Set([...own.machineNames, ...names])];
    },
    rt,
  );
  return json({ status: "success" });
}

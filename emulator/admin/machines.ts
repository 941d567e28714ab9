/**
 * Several emulated machines forming one site: `joinSite` (a machine in no site joins the site of
 * another machine) and `machines/<name>/unregister` (a machine leaves the site).
 *
 * Each emulator is one machine with its own admin root, listener, port and data dir. Emulators
 * started in the same process know each other through a registry, so a machine's joinSite finds
 * the site machine its `adminURL` names (by port, and a host that is a loopback address, the
 * listen host or the machine name). A real joining machine contacts the site over the network;
 * here the lookup stays in the process (docs/emulator.md, "Several machines"). The joining machine records a
 * copy of the site (same id, administrator, store, directories, log settings); the machine list
 * is kept in step on every member, other later changes are not.
 *
 * Evidence: joinSite's parameters `adminURL`, `username`, `password`, `f` and its answer
 * `{"status":"success|failure","pollAfter":<seconds>}` (ArcGIS Server docs, joinsite.htm; Mission
 * Server docs show `{"status":"success"}`; DSC `Join-Site` of ArcGIS_MissionServer,
 * ArcGIS_NotebookServer and ArcGIS_VideoServer reads `status` and sleeps `pollAfter` when present);
 * Chef `arcgis-enterprise` and Ansible add `pullLicense`. unregister: ArcGIS Server docs answer
 * `{"status":"success"}`, as does Video Server's 12.0 page
 * (https://developers.arcgis.com/rest/enterprise-administration/video-server/unregistermachine);
 * Mission and Notebook Server docs `"success": "true"`.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import { machineAt, machinesOfProcess, type Machine } from "../core/registry";
import { exportLockError } from "./site";
import type { SiteRecord } from "../core/state";
import { verifyPassword } from "../core/tokens";

/** The machines of this process that take part in the site `siteId`. */
function membersOf(siteId: string): Machine[] {
  return machinesOfProcess().filter((m) => m.rt.store.current.site?.id === siteId);
}

/** Machines whose joinSite is under way (a second joinSite meanwhile is refused). */
const joining = new WeakSet<Runtime>();

/**
 * joinSite on the machine of `rt`: checks the parameters, finds the site machine, validates the
 * credentials against its site, adds this machine to the site's machine list on every member,
 * waits the emulated join time (`joinDelayMs`), then records the site on this machine.
 */
export async function joinSite(
  rt: Runtime,
  req: ApiRequest,
  authenticate: (site: SiteRecord) => void,
): Promise<Reply> {
  const name = rt.options.machineName;
  const own = rt.store.current.site;
  if (own !== null) {
    // As createNewSite: authentication first (499 without a token), then the refusal.
    authenticate(own);
    throw new AdminError(500, [
      `Failed to join the site. The machine '${name}' already participates in a site.`,
    ]);
  }
  const adminURL = required(req, "adminURL");
  const username = required(req, "username");
  const password = required(req, "password");
  const site = siteAt(rt, adminURL);
  const valid =
    username === site.admin.username && (await verifyPassword(password, site.admin.passwordHash));
  if (!valid) {
    throw new AdminError(400, [
      `Failed to join the site at '${adminURL}'. The user name or password is not valid for the site.`,
    ]);
  }
  if (joining.has(rt)) {
    throw new AdminError(500, [
      `Failed to join the site. Machine '${name}' is already joining a site.`,
    ]);
  }
  if (site.machines.some((m) => m.toLowerCase() === name.toLowerCase())) {
    throw new AdminError(500, [
      `Failed to join the site. A machine named '${name}' already participates in the site.`,
    ]);
  }
  joining.add(rt);
  try {
    // The machine registers with the site first, then configures itself for the emulated join
    // time: meanwhile the site lists it, and its own admin root still answers "not participating
    // in any Site" (an assumption: docs/emulator.md, "Several machines").
    await updateMachineLists(site.id, [...site.machines, name]);
    let machineList: string[];
    try {
      await rt.delay(rt.options.joinDelayMs);
      const current = membersOf(site.id)[0]?.rt.store.current.site;
      if (current === undefined || current === null) {
        throw new AdminError(500, [`Failed to join the site. The site at '${adminURL}' is gone.`]);
      }
      const listed = current.machines.some((m) => m.toLowerCase() === name.toLowerCase());
      machineList = listed ? [...current.machines] : [...current.machines, name];
      await rt.store.update((draft) => {
        // A createNewSite that completed on this machine meanwhile wins: nothing is overwritten.
        if (draft.site !== null) {
          throw new AdminError(500, [
            `Failed to join the site. The machine '${name}' already participates in a site.`,
          ]);
        }
        draft.site = structuredClone({ ...current, machines: machineList });
      });
    } catch (error) {
      // A join that fails leaves the site's list as it was before the join.
      await updateOnMembers(site.id, (s) => {
        s.machines = s.machines.filter((m) => m.toLowerCase() !== name.toLowerCase());
      });
      throw error;
    }
    await updateMachineLists(site.id, machineList);
  } finally {
    joining.delete(rt);
  }
  rt.log(`machine '${name}' joined the site`);
  return json({ status: "success", pollAfter: rt.options.joinPollAfterSeconds });
}

function required(req: ApiRequest, name: string): string {
  const value = req.params.get(name)?.trim() ?? "";
  if (value === "") throw new AdminError(400, [`Failed to join the site. '${name}' is required.`]);
  return value;
}

/** The ready site of the machine `adminURL` names, of the same product as `rt`. */
function siteAt(rt: Runtime, adminURL: string): SiteRecord {
  const peer = machineAt(adminURL);
  if (peer === null || peer.rt === rt) {
    throw new AdminError(500, [
      `Failed to join the site. Could not connect to the site at '${adminURL}'.`,
    ]);
  }
  const site = peer.rt.store.current.site;
  if (peer.rt.product.type !== rt.product.type) {
    throw new AdminError(500, [
      `Failed to join the site. The machine at '${adminURL}' is not a machine of ${rt.product.name}.`,
    ]);
  }
  if (site?.status !== "ready") {
    throw new AdminError(500, [
      `Failed to join the site. The machine at '${adminURL}' is not participating in any site.`,
    ]);
  }
  return site;
}

async function updateMachineLists(siteId: string, machineList: readonly string[]): Promise<void> {
  await updateOnMembers(siteId, (site) => {
    site.machines = [...machineList];
  });
}

/**
 * Applies a change of the site's shared configuration (machine list, clusters, machine settings)
 * on every member of the site in this process, so that each machine answers the same; the
 * machine `rt` (the one asked) is changed first, so its refusal (`change` throwing) changes none.
 */
export async function updateOnMembers(
  siteId: string,
  change: (site: SiteRecord) => void,
  rt?: Runtime,
): Promise<void> {
  const members = membersOf(siteId);
  const ordered =
    rt === undefined
      ? members
      : [...members.filter((m) => m.rt === rt), ...members.filter((m) => m.rt !== rt)];
  for (const member of ordered) {
    await member.rt.store.update((draft) => {
      if (draft.site?.id === siteId) change(draft.site);
    });
  }
}

/**
 * machines/<name>/unregister: the machine leaves the site (on every member's list); if it is an
 * emulator of this process, it is in no site afterwards. The last machine of a site cannot be
 * unregistered (deleteSite is the way), and nothing is unregistered while an export runs.
 */
export async function unregisterMachine(
  rt: Runtime,
  site: SiteRecord,
  machineName: string,
): Promise<Reply> {
  const found = site.machines.find((m) => m.toLowerCase() === machineName.toLowerCase());
  if (found === undefined) {
    throw new AdminError(404, [
      `Could not find resource or operation '${machineName}' on the system.`,
    ]);
  }
  if (rt.exportRunning) {
    rt.stats.changesRefusedDuringExport++;
    throw exportLockError();
  }
  if (site.machines.length === 1) {
    throw new AdminError(400, [
      `Machine '${found}' is the only machine of the site and cannot be unregistered. Delete the site instead.`,
    ]);
  }
  const machineList = site.machines.filter((m) => m !== found);
  const members = membersOf(site.id);
  for (const member of members) {
    await member.rt.store.update((draft) => {
      if (draft.site?.id !== site.id) return;
      if (member.rt.options.machineName === found) draft.site = null;
      else {
        draft.site.machines = [...machineList];
        // A machine that leaves the site leaves its cluster, and its settings go with it.
        for (const cluster of draft.site.clusters) {
          cluster.machineNames = cluster.machineNames.filter((m) => m !== found);
        }
        delete draft.site.machineSettings[found];
      }
    });
  }
  rt.log(`machine '${found}' unregistered from the site`);
  const documented =
    rt.product.dialect === "classic" || rt.product.type === "video-server"
      ? { status: "success" }
      : { success: "true" };
  return json(documented);
}

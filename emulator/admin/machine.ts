/**
 * One machine of the site: its resource (`machines/<name>`) and its `edit` operation, which keeps
 * the settings as given and shows them on the next read, and binds the web server certificate.
 *
 * Evidence:
 * - The resource's fields: https://developers.arcgis.com/rest/enterprise-administration/server/machine
 *   (and the Mission Server page, a copy): machineName, platform, adminURL, ports, ServerStartTime,
 *   webServerMaxHeapSize, appServerMaxHeapSize, socMaxHeapSize, webServerSSLEnabled,
 *   webServerCertificateAlias, configuredState, synchronize, underMaintenance; the example's values
 *   (-1, 256 and 64 MB; ports HTTP 6080, webSocketsPort 6180, HTTPS 6443).
 * - `edit`: Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb` (`machine_info` POSTs
 *   `machines/<name>` and reads adminURL, the heap sizes, webServerCertificateAlias and
 *   `ports.OpenEJBPort`, `JMXPort`, `NamingPort`, `DerbyPort`; `set_machine_properties`,
 *   `set_server_ssl_certificate` and `set_server_admin_url` POST them back to `machines/<name>/edit`
 *   with `machineName`, one of them changed; a missing port goes as an empty value); DSC
 *   Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `ArcGIS_Server_TLS.psm1` `Update-SSLCertificate` and `ArcGIS_ServerMachineSettings.psm1`
 *   `Update-SocMaxHeapSize` (every field of the read sent back, `ports` empty, reads
 *   `status` "success"); https://developers.arcgis.com/rest/enterprise-administration/server/editmachine
 *   (adminURL, webServerMaxHeapSize, webServerCertificateAlias, appServerMaxHeapSize,
 *   socMaxHeapSize, port names as parameters); Mission and Notebook Server's edit pages
 *   (https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-edit-machine,
 *   .../notebook/edit-machine: adminURL, webServerCertificateAlias, f); DSC's ArcGIS_Server_TLS
 *   sends it to Mission, Notebook and Video Server too, with `ports` as PowerShell's text of an
 *   object (ignored here).
 * Assumptions (docs/emulator.md): the default alias `SelfSignedCertificate`; `edit` answers at once
 * and the new certificate is presented after `restartDelayMs` (a real machine restarts); fields it
 * does not know, and empty values, are ignored; the refusals' texts; settings are kept in step on
 * every machine of the site in this process.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { MachineSettings, SiteRecord } from "../core/state";
import { notFoundError } from "./not-found";
import { updateOnMembers } from "./machines";
import { refuseDuringExport } from "./site";
import {
  boundAlias,
  machineRuntime,
  presentAfterRestart,
  requireServerCertificate,
} from "./certificates";

/** The admin URL a machine's resources show: as `edit` set it, else built from its name. */
export function adminUrlOf(rt: Runtime, site: SiteRecord, name: string): string {
  return (
    site.machineSettings[name]?.adminURL ?? `https://${name}:${rt.product.adminPort}/arcgis/admin`
  );
}

/** A machine's ports before any edit: the docs' example on ArcGIS Server, the admin port elsewhere. */
function defaultPorts(rt: Runtime): Record<string, number> {
  return rt.product.dialect === "classic"
    ? { HTTP: 6080, webSocketsPort: 6180, HTTPS: 6443 }
    : { HTTPS: rt.product.adminPort };
}

function findMachine(site: SiteRecord, name: string): string {
  const found = site.machines.find((m) => m.toLowerCase() === name.toLowerCase());
  if (found === undefined) throw notFoundError(name);
  return found;
}

/** `machines/<name>`: the documented fields, with what `edit` set. */
export function machine(rt: Runtime, site: SiteRecord, name: string): Reply {
  const found = findMachine(site, name);
  const settings = site.machineSettings[found] ?? {};
  return json({
    machineName: found,
    platform: process.platform,
    adminURL: adminUrlOf(rt, site, found),
    ports: { ...defaultPorts(rt), ...settings.ports },
    ServerStartTime: rt.startedAt,
    webServerMaxHeapSize: settings.webServerMaxHeapSize ?? -1,
    appServerMaxHeapSize: settings.appServerMaxHeapSize ?? 256,
    socMaxHeapSize: settings.socMaxHeapSize ?? 64,
    webServerSSLEnabled: rt.tlsEnabled,
    webServerCertificateAlias: boundAlias(site, found),
    configuredState: settings.configuredState ?? "STARTED",
    synchronize: false,
    underMaintenance: false,
  });
}

/** The port parameters Chef and DSC send (the 10.1 page's list of port names). */
const PORT_NAMES = ["OpenEJBPort", "JMXPort", "NamingPort", "DerbyPort"] as const;
/** The heap sizes, in MB (-1: the web server's own default, per the docs). */
const HEAP_SIZES = ["webServerMaxHeapSize", "appServerMaxHeapSize", "socMaxHeapSize"] as const;

/** A whole number parameter; undefined when absent or empty (Chef sends a missing value empty). */
function integer(req: ApiRequest, name: string, min: number, max: number): number | undefined {
  const text = req.params.get(name)?.trim() ?? "";
  if (text === "") return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new AdminError(400, [
      `The parameter '${name}' must be a whole number from ${min} to ${max}, got '${text}'.`,
    ]);
  }
  return value;
}

/**
 * `machines/<name>/edit` (every product): keeps each setting given, as given, for the next read;
 * an absent or empty parameter leaves its setting as it is. A new `webServerCertificateAlias`
 * must name a server certificate of the machine's keystore, which its listener then presents.
 */
export async function editMachine(rt: Runtime, req: ApiRequest, site: SiteRecord, name: string) {
  const found = findMachine(site, name);
  const edited: MachineSettings = {};
  const adminURL = req.params.get("adminURL")?.trim() ?? "";
  if (adminURL !== "") {
    if (!/^https?:\/\/[^/\s]+/i.test(adminURL)) {
      throw new AdminError(400, [`The parameter 'adminURL' must be an http or https URL.`]);
    }
    edited.adminURL = adminURL;
  }
  // A new web server certificate must be in the machine's keystore; the machine's listener
  // presents it once the machine has "restarted" (admin/certificates.ts).
  const alias = req.params.get("webServerCertificateAlias")?.trim() ?? "";
  const target = machineRuntime(rt, site, found);
  const rebind = alias !== "" && alias.toLowerCase() !== boundAlias(site, found).toLowerCase();
  if (rebind) requireServerCertificate(target, alias);
  if (alias !== "") edited.webServerCertificateAlias = alias;
  for (const field of HEAP_SIZES) {
    const value = integer(req, field, -1, 1_048_576);
    if (value !== undefined) edited[field] = value;
  }
  const current = { ...defaultPorts(rt), ...site.machineSettings[found]?.ports };
  const ports: Record<string, number> = {};
  for (const port of new Set([...PORT_NAMES, ...Object.keys(current)])) {
    const value = integer(req, port, 1, 65535);
    if (value !== undefined) ports[port] = value;
  }
  await updateOnMembers(
    site.id,
    (draft) => {
      refuseDuringExport(rt);
      const before = draft.machineSettings[found] ?? {};
      draft.machineSettings[found] = {
        ...before,
        ...edited,
        ...(Object.keys(ports).length === 0 ? {} : { ports: { ...before.ports, ...ports } }),
      };
    },
    rt,
  );
  rt.log(`machine '${found}' edited`);
  if (rebind) presentAfterRestart(target.rt, alias);
  return json({ status: "success" });
}

/**
 * `machines/<name>/status` (ArcGIS Server): the configured state and the real-time one, which are
 * the same here (an emulated machine is never "powered off"). Chef's `unregister_stopped_machines`
 * asks it of every machine; the ArcGIS API for Python's `Machine.status` GETs it.
 */
export function machineStatus(site: SiteRecord, name: string): Reply {
  const state = site.machineSettings[findMachine(site, name)]?.configuredState ?? "STARTED";
  return json({ configuredState: state, realTimeState: state });
}

/**
 * `machines/<name>/stop` and `start` (ArcGIS Server): the configured state, kept on every member
 * of the site, shown by `status` and the machine's resource. The docs say a stopped machine still
 * processes administrative commands, so the emulated machine keeps answering everything (its
 * services' own endpoints are not emulated). Stopping a stopped machine, or starting a started
 * one, succeeds (assumed: docs/emulator.md).
 */
export async function setMachineState(
  rt: Runtime,
  site: SiteRecord,
  name: string,
  state: "STARTED" | "STOPPED",
): Promise<Reply> {
  const found = findMachine(site, name);
  await updateOnMembers(
    site.id,
    (draft) => {
      refuseDuringExport(rt);
      draft.machineSettings[found] = { ...draft.machineSettings[found], configuredState: state };
    },
    rt,
  );
  rt.log(`machine '${found}' ${state === "STOPPED" ? "stopped" : "started"}`);
  return json({ status: "success" });
}

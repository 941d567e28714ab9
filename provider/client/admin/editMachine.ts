import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";
import type { MachineInfo } from "./getMachine";
import { machinePath } from "./keystore";

/** What {@link editMachine} changes; every field left out is sent back as it was read. */
export interface MachineChanges {
  /** The alias of a server certificate of the machine's keystore for its web server to present. */
  webServerCertificateAlias?: string | undefined;
  /** The machine's administrative URL. */
  adminURL?: string | undefined;
  /** The web server's heap size, in MB (-1: its own default). */
  webServerMaxHeapSize?: number | undefined;
  /** The application server's heap size, in MB. */
  appServerMaxHeapSize?: number | undefined;
  /** A service process's heap size, in MB (ArcGIS Server). */
  socMaxHeapSize?: number | undefined;
}

/** The port parameters Chef's `set_machine_properties` sends from the read's `ports`. */
const PORT_PARAMETERS = ["OpenEJBPort", "JMXPort", "NamingPort", "DerbyPort"] as const;

/**
 * The form of an edit: every scalar field of the machine as read (DSC's `Update-SSLCertificate`
 * sends back the whole read), the ports Chef names taken out of `ports`, and the changes on top.
 * Nested objects other than `ports` are left out (DSC sends them as PowerShell's text of an
 * object, which no server reads).
 *
 * @param machine - the machine as {@link getMachine} read it.
 * @param changes - what changes.
 * @returns the form parameters.
 * @example
 * ```ts
 * machineEditForm(await getMachine(session, name), { webServerCertificateAlias: "gis-2025" })
 * ```
 * Builds a form; sends no request.
 *
 * @internal
 */
export function machineEditForm(
  machine: MachineInfo,
  changes: MachineChanges,
): Record<string, string | number | boolean> {
  const form: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(machine)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      form[name] = value;
    }
  }
  for (const port of PORT_PARAMETERS) {
    const value = machine.ports?.[port];
    if (typeof value === "number" || typeof value === "string") form[port] = value;
  }
  for (const [name, value] of Object.entries(changes)) {
    if (value !== undefined) form[name] = value as string | number;
  }
  return form;
}

/**
 * Edits a machine: sends back every field it was read with ({@link getMachine}), with the changes
 * on top, as DSC's `ArcGIS_Server_TLS` does on every product and Chef's `set_server_ssl_certificate`
 * on ArcGIS Server. Changing `webServerCertificateAlias` binds the web server to that certificate
 * of the machine's keystore; the machine then restarts its web server (Chef: "Editing the machine
 * configuration causes the machine to be restarted"), so wait for it and check what it presents
 * ({@link presentedCertificate}). An alias the keystore does not hold, or one without a private
 * key, is refused. Never retried: a change that restarts the machine.
 *
 * @param session - an admin session.
 * @param machine - the machine as {@link getMachine} read it (its `machineName` names it).
 * @param changes - e.g. `{ webServerCertificateAlias }`.
 * @example
 * ```ts
 * const machine = await getMachine(session, "GIS1.EXAMPLE.COM");
 * await editMachine(session, machine, { webServerCertificateAlias: "gis-2025" });
 * ```
 * Maps to: `POST {admin_root}/machines/<machineName>/edit`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/editmachine
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-edit-machine,
 * Notebook Server: https://developers.arcgis.com/rest/enterprise-administration/notebook/edit-machine).
 */
export async function editMachine(
  session: AdminSession,
  machine: MachineInfo,
  changes: MachineChanges,
): Promise<void> {
  if (machine.machineName === undefined || machine.machineName === "") {
    throw new TypeError("editMachine needs the machine as getMachine read it (with machineName).");
  }
  const path = `${machinePath(machine.machineName)}/edit`;
  const body = await session.call(path, machineEditForm(machine, changes), {
    operation: "machines/<machine>/edit",
  });
  validateAnswer(z.looseObject({ status: z.literal("success") }), body, {
    operation: "machines/<machine>/edit",
    url: session.url(path),
  });
}

import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";
import { machinePath } from "./keystore";

const MachineAnswer = z.looseObject({
  machineName: z.string().optional(),
  adminURL: z.string().optional(),
  webServerCertificateAlias: z.string().optional(),
  ports: z.record(z.string(), z.unknown()).optional(),
});

/**
 * One machine of the site, as the server describes it: the fields named here, and every other
 * field of the answer as it came (what {@link editMachine} sends back).
 */
export interface MachineInfo extends Record<string, unknown> {
  machineName?: string | undefined;
  adminURL?: string | undefined;
  webServerCertificateAlias?: string | undefined;
  ports?: Record<string, unknown> | undefined;
}

/**
 * Reads one machine of the site: its admin URL, ports, heap sizes and the alias of the
 * certificate its web server presents (`webServerCertificateAlias`), among the documented fields.
 * Retried on transient failures: a read.
 *
 * @param session - an admin session.
 * @param machineName - the machine's name as the site lists it.
 * @returns the machine's fields.
 * @example
 * ```ts
 * const { webServerCertificateAlias } = await getMachine(session, "GIS1.EXAMPLE.COM");
 * ```
 * Maps to: `GET {admin_root}/machines/<machineName>?f=json` (Chef's `machine_info` POSTs it).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/machine
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines).
 */
export async function getMachine(session: AdminSession, machineName: string): Promise<MachineInfo> {
  const path = machinePath(machineName);
  const body = await session.call(
    path,
    {},
    { method: "GET", idempotent: true, operation: "machine" },
  );
  return validateAnswer(MachineAnswer, body, { operation: "machine", url: session.url(path) });
}

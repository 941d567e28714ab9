import type { AdminSession } from "../session";

/**
 * Lists the names of the machines in the site. Lenient: accepts `machines` as objects with
 * `machineName` or as plain strings.
 *
 * @param session - an admin session.
 * @returns machine names.
 * @example
 * ```ts
 * const names = await listMachines(session); // ["HOST.EXAMPLE.COM"]
 * ```
 * Maps to: `GET {admin_root}/machines?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/machines.htm
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines).
 */
export async function listMachines(session: AdminSession): Promise<string[]> {
  const body = await session.call("machines", {}, { method: "GET", idempotent: true });
  const machines = Array.isArray(body["machines"]) ? (body["machines"] as unknown[]) : [];
  return machines.flatMap((m) => {
    const name = typeof m === "string" ? m : (m as { machineName?: unknown } | null)?.machineName;
    return typeof name === "string" && name !== "" ? [name] : [];
  });
}

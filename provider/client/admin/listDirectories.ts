import type { AdminSession } from "../session";

/** A server directory as the server reports it (only what the client compares). */
export interface ReportedDirectory {
  /** Directory name. */
  name: string;
  /** Path on disk (`physicalPath` on ArcGIS Server, `path` on the other products). */
  path: string;
}

/**
 * Lists the site's server directories. ArcGIS Server's documentation shows
 * `{"directories":[{"name","physicalPath",...}]}`; for Mission, Notebook and Video Server no
 * source shows the answer, so `path` (the name their createNewSite uses) is read too. Entries
 * without a name and a path are skipped. Retried on transient failures: a read.
 *
 * @param session - an admin session.
 * @returns the directories the server reports.
 * @example
 * ```ts
 * const dirs = await listDirectories(session); // [{ name: "arcgissystem", path: "/data/system" }]
 * ```
 * Maps to: `GET {admin_root}/system/directories?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/directories.htm
 */
export async function listDirectories(session: AdminSession): Promise<ReportedDirectory[]> {
  const body = await session.call(
    "system/directories",
    {},
    { method: "GET", idempotent: true, operation: "system/directories" },
  );
  const entries = Array.isArray(body["directories"]) ? (body["directories"] as unknown[]) : [];
  return entries.flatMap((entry) => {
    if (typeof entry !== "object" || entry === null) return [];
    const d = entry as Record<string, unknown>;
    const path = d["physicalPath"] ?? d["path"];
    return typeof d["name"] === "string" && typeof path === "string"
      ? [{ name: d["name"], path }]
      : [];
  });
}

import type { AdminSession } from "../session";

/** The config store as the server reports it (only what the client compares). */
export interface ReportedConfigStore {
  /** Store type (`type` on ArcGIS Server, `configPersistenceType` on the other products). */
  type?: string;
  /** Location of the store. */
  connectionString?: string;
}

/**
 * Reads the site's config store. ArcGIS Server's documentation shows `type` and
 * `connectionString` at the top of the answer; for Mission, Notebook and Video Server no source
 * shows the answer, so `configPersistenceType` (the name their createNewSite uses) is read too.
 * Retried on transient failures: a read.
 *
 * @param session - an admin session.
 * @returns what the server reports; fields it does not report are absent.
 * @example
 * ```ts
 * const { connectionString } = await getConfigStore(session);
 * ```
 * Maps to: `GET {admin_root}/system/configstore?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/configstore.htm
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-configuration-store).
 */
export async function getConfigStore(session: AdminSession): Promise<ReportedConfigStore> {
  const body = await session.call(
    "system/configstore",
    {},
    { method: "GET", idempotent: true, operation: "system/configstore" },
  );
  const store: ReportedConfigStore = {};
  const type = body["type"] ?? body["configPersistenceType"];
  if (typeof type === "string") store.type = type;
  if (typeof body["connectionString"] === "string")
    store.connectionString = body["connectionString"];
  return store;
}

import type { AdminSession } from "../session";

/**
 * Reads the server's system properties (e.g. `WebContextURL`, once a Web Adaptor or reverse proxy
 * fronts the site): a flat JSON object, `{}` on a new site. The same on every product. Retried on
 * transient failures: a read.
 *
 * @param session - an admin session.
 * @returns the properties, keys as the server keeps them.
 * @example
 * ```ts
 * const { WebContextURL } = await getSystemProperties(session);
 * ```
 * Maps to: `GET {admin_root}/system/properties?f=json` (Chef's `system_properties` on every
 * product; the ArcGIS API for Python's `SystemManager.properties`).
 *
 * REST Documentation: https://resources.arcgis.com/en/help/server-admin-api/serverProperties.html
 * (the resource its update replaces: https://developers.arcgis.com/rest/enterprise-administration/server/updateserverproperties;
 * Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-properties-update-properties).
 */
export async function getSystemProperties(session: AdminSession): Promise<Record<string, unknown>> {
  return session.call(
    "system/properties",
    {},
    { method: "GET", idempotent: true, operation: "system/properties" },
  );
}

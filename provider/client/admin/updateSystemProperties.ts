import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";

/**
 * Replaces the server's system properties with `properties`: the server keeps exactly the set
 * sent ("The update operation overwrites all existing properties"), so a property left out is
 * removed. To change some, read them ({@link getSystemProperties}) and send the whole set back
 * with the changes, as Chef's `update_system_properties` and the ArcGIS API for Python's setter
 * do. Never retried: a change.
 *
 * @param session - an admin session.
 * @param properties - the whole set, a flat JSON object.
 * @example
 * ```ts
 * const current = await getSystemProperties(session);
 * await updateSystemProperties(session, { ...current, WebContextURL: "https://gis.example.com/server" });
 * ```
 * Maps to: `POST {admin_root}/system/properties/update` with `properties` (JSON).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/updateserverproperties
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/systems-properties-update-properties,
 * Video Server: https://developers.arcgis.com/rest/enterprise-administration/video-server/updateProperties).
 */
export async function updateSystemProperties(
  session: AdminSession,
  properties: Record<string, unknown>,
): Promise<void> {
  const path = "system/properties/update";
  const body = await session.call(path, { properties }, { operation: path });
  validateAnswer(z.looseObject({ status: z.literal("success") }), body, {
    operation: path,
    url: session.url(path),
  });
}

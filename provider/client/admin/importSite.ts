import type { ServerType } from "../products";
import type { AdminSession } from "../session";

/**
 * Replaces the site's configuration with an archive's (a restore). Never retried: the import may
 * still run after a lost answer, and a second one would start over; see {@link waitForImport}.
 * Sent to `importsite` on Video Server (its page spells the path so), `importSite` elsewhere.
 *
 * @param session - an admin session (a direct URL to a machine: the docs say importSite is not
 *   available through a web adaptor).
 * @param options - `location`: the archive's path as the server reads it, or the id of an
 *   uploaded item; `serverType`: the product; `validate`: only check that the server can read it
 *   (ArcGIS Server 11.1+, Video Server).
 * @returns the server's answer: `status` and whatever report it gives (its shape is not
 *   documented).
 * @example
 * ```ts
 * await importSite(session, { location: itemID, serverType: "mission-server" });
 * ```
 * Maps to: `POST {admin_root}/importSite`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/importsite (Mission Server:
 * https://developers.arcgis.com/rest/enterprise-administration/mission-server/import-site; Video Server:
 * https://developers.arcgis.com/rest/enterprise-administration/video-server/importsite).
 */
export async function importSite(
  session: AdminSession,
  options: { location: string; serverType: ServerType; validate?: boolean | undefined },
): Promise<Record<string, unknown>> {
  const operation = options.serverType === "video-server" ? "importsite" : "importSite";
  return session.call(
    operation,
    { location: options.location, validate: options.validate },
    { operation: "importSite" },
  );
}

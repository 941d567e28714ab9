import { waitForSite, type WaitForSiteTarget } from "./waitForSite";
import type { WaitOptions } from "./wait";

/**
 * Waits until a site that is importing a configuration (or was: the answer was lost) answers as a
 * ready site again: importSite is long and may restart the server (ArcGIS Server 11.3's
 * `restartWebServer`), and no server documents a progress signal of an import. So the signals are
 * the documented readiness ones of {@link waitForSite}: 499 at the unauthenticated admin root, an
 * admin token, and a healthy health check. It does not tell whether the import succeeded (no
 * server answers that after the fact); the caller says so.
 *
 * @param target - admin URL, product, credentials, TLS options and dispatcher.
 * @param wait - deadline, polling interval, status callback.
 * @example
 * ```ts
 * await waitForImport({ adminUrl, serverType, username, password }, { deadline: Date.now() + 3_600_000, pollIntervalMs: 5_000 });
 * ```
 * Maps to: `GET {admin_root}/?f=json`, `POST {admin_root}/generateToken` and the health check,
 * repeatedly.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/importsite (what is awaited) and
 * https://developers.arcgis.com/rest/enterprise-administration/server/site.htm (what is polled).
 */
export async function waitForImport(target: WaitForSiteTarget, wait: WaitOptions): Promise<void> {
  await waitForSite(target, wait);
}

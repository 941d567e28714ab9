import type { TransportOptions } from "../dispatcher";
import { siteStatus, type SiteStatus } from "../admin/siteStatus";
import { portalAdminUrlOf } from "./paths";

/**
 * The message a portal in no site answers, which DSC's `ArcGIS_Portal` `Set-TargetResource`
 * looks for before it creates the site.
 *
 * @internal
 */
export const PORTAL_NOT_INITIALIZED_MESSAGE = "The portal site has not been initialized";

/**
 * What the portal's unauthenticated administrative root says about its site: the admin root's
 * {@link SiteStatus} (`in-site` on code 499, Chef's `site_exist?`), and for `no-site` whether the
 * answer is the portal's own "not initialized" document (DSC's signal), which a proxy that reaches
 * no portal does not answer.
 */
export type PortalSiteStatus =
  | Exclude<SiteStatus, { state: "no-site" }>
  | (Extract<SiteStatus, { state: "no-site" }> & { notInitialized: boolean });

/**
 * Asks the portal whether it has its site, as Chef's `site_exist?` and DSC's `ArcGIS_Portal` do:
 * an unauthenticated `GET {portaladmin}/?f=json`. Never retried: callers poll.
 *
 * @param sharingUrl - the portal's sharing root (`…/portaladmin` is read beside it).
 * @param transport - TLS options, timeouts, signal, dispatcher.
 * @returns the state; errors are returned as data, not thrown.
 * @example
 * ```ts
 * const s = await portalSiteStatus("https://portal/arcgis/sharing/rest", { tls });
 * if (s.state === "no-site" && s.notInitialized) console.log("a fresh portal");
 * ```
 * Maps to: `GET {portaladmin}/?f=json` without a token.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/create-site
 */
export async function portalSiteStatus(
  sharingUrl: string,
  transport: TransportOptions = {},
): Promise<PortalSiteStatus> {
  const status = await siteStatus(portalAdminUrlOf(sharingUrl), transport);
  if (status.state !== "no-site") return status;
  return { ...status, notInitialized: status.message.includes(PORTAL_NOT_INITIALIZED_MESSAGE) };
}

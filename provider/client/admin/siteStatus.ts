import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { isArcGISRequestError, isTokenRejectedError, type ArcGISRequestError } from "../errors";
import { arcgisRequest } from "../request";

/** Whether a mission server machine belongs to a site. */
export type SiteStatus =
  | { state: "in-site" }
  | { state: "no-site"; message: string }
  | { state: "unreachable"; error: ArcGISRequestError };

/**
 * Decides whether the machine behind `adminUrl` is in a site, as Esri's own tools do: an
 * unauthenticated `GET {adminUrl}/?f=json` answered with 499/498 (token required) means a site
 * exists, any other ArcGIS error means no site yet, and a success means a site with security off.
 * No answer, TLS, HTTP errors and non-JSON mean unreachable. Never retried: callers poll.
 *
 * @param adminUrl - administrative root, e.g. `https://host:20443/arcgis/admin`.
 * @param transport - TLS options, timeouts, signal, dispatcher.
 * @returns the state; errors are returned as data, not thrown.
 * @example
 * ```ts
 * const s = await siteStatus("https://host:20443/arcgis/admin", { tls: { caCert } });
 * if (s.state === "no-site") await createNewSite(...);
 * ```
 * Maps to: `GET {admin_root}/?f=json` without a token.
 */
export async function siteStatus(
  adminUrl: string,
  transport: TransportOptions = {},
): Promise<SiteStatus> {
  try {
    await arcgisRequest({
      ...transport,
      url: `${adminUrl.replace(/\/+$/, "")}/`,
      operation: "siteStatus",
      method: "GET",
      referer: DEFAULT_REFERER,
    });
    return { state: "in-site" };
  } catch (e) {
    if (!isArcGISRequestError(e)) throw e;
    if (isTokenRejectedError(e)) return { state: "in-site" };
    const fromErrorBody = e.code === "SERVER" || (e.code === "AUTH" && e.serverCode !== undefined);
    if (fromErrorBody) return { state: "no-site", message: e.messages.join(" ") || e.message };
    return { state: "unreachable", error: e };
  }
}

import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { isArcGISRequestError, type ArcGISRequestError, type ErrorFormat } from "../errors";
import { arcgisRequest } from "../request";
import { withoutTrailingSlash } from "../../url";

/**
 * What the unauthenticated admin root says about the machine.
 *
 * - `in-site`: it answered 499 (token required) or 498 with HTTP 200, in either error format, as
 *   Esri's tools decide it (Chef `site_exist?`, Ansible `site_exists`); or it answered a success
 *   without a token (a site with security off). `errorFormat` is the format of the 499.
 * - `no-site`: it answered HTTP 200 with an error body whose code is not 498, 499, 401 or 403.
 *   Esri's tools create a site on this answer; it is not proof that the machine is in no site (a
 *   web adaptor that reaches no machine answers the same way), so whoever drops state or skips a
 *   delete on it must confirm it (see the Site resource).
 * - `unreachable`: anything else: no answer, TLS, an HTTP status other than 200 (a proxy's 502, a
 *   JSON 503 or 500), a refusal (401/403), a body that is not an ArcGIS JSON object.
 */
export type SiteStatus =
  | { state: "in-site"; errorFormat?: ErrorFormat }
  | { state: "no-site"; message: string; serverCode?: number; errorFormat: ErrorFormat }
  | { state: "unreachable"; error: ArcGISRequestError };

/**
 * Asks the machine behind `adminUrl` whether it is in a site, as Esri's tools do: an
 * unauthenticated `GET {adminUrl}/?f=json`. Never retried: callers poll.
 *
 * @param adminUrl - administrative root, e.g. `https://host:20443/arcgis/admin`.
 * @param transport - TLS options, timeouts, signal, dispatcher.
 * @returns the state (see {@link SiteStatus}); errors are returned as data, not thrown.
 * @example
 * ```ts
 * const s = await siteStatus("https://host:20443/arcgis/admin", { tls: { caCert } });
 * if (s.state === "in-site") console.log(s.errorFormat); // "error" on Mission Server
 * ```
 * Maps to: `GET {admin_root}/?f=json` without a token.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/site.htm
 */
export async function siteStatus(
  adminUrl: string,
  transport: TransportOptions = {},
): Promise<SiteStatus> {
  try {
    await arcgisRequest({
      ...transport,
      url: `${withoutTrailingSlash(adminUrl)}/`,
      operation: "siteStatus",
      method: "GET",
      referer: DEFAULT_REFERER,
    });
    return { state: "in-site" };
  } catch (e) {
    if (!isArcGISRequestError(e)) throw e;
    const fromBody = e.errorFormat !== undefined && e.httpStatus === 200;
    if (!fromBody) return { state: "unreachable", error: e };
    if (e.serverCode === 499 || e.serverCode === 498) {
      return { state: "in-site", errorFormat: e.errorFormat };
    }
    if (e.serverCode === 401 || e.serverCode === 403) return { state: "unreachable", error: e };
    const status: SiteStatus = {
      state: "no-site",
      message: e.messages.join(" ") || e.message,
      errorFormat: e.errorFormat,
    };
    if (e.serverCode !== undefined) status.serverCode = e.serverCode;
    return status;
  }
}

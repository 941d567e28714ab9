import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { isArcGISRequestError, type ArcGISRequestError } from "../errors";
import { serverProduct, serverRootOf, type ServerType } from "../products";
import { arcgisRequest } from "../request";

/**
 * Result of {@link healthCheck}.
 *
 * - `healthy`: HTTP 200 with `success` true (or the string "true", as Video Server's page shows).
 * - `unhealthy`: `success` false, an ArcGIS error body, or (ArcGIS Server's documented signal) an
 *   HTTP status other than 200.
 * - `absent`: HTTP 404: this server has no health check at this path (an older release); the
 *   caller falls back to a token and an authenticated read of the admin root.
 */
export interface HealthCheckResult {
  /** See above. */
  state: "healthy" | "unhealthy" | "absent";
  /**
   * True when the answer is a documented "no site" signal: HTTP 200 with `success` false on
   * Mission Server ("If the value is false the site has not been created.", its site health
   * check page) and Notebook Server (its health check page, from 10.9: false when the site has
   * not been created).
   */
  reportsNoSite: boolean;
  /** The server's answer (empty when it answered an error). */
  raw: Record<string, unknown>;
  /** The error that made it unhealthy or absent, if any. */
  error?: ArcGISRequestError;
}

/** Options of {@link healthCheck}. */
export interface HealthCheckOptions extends TransportOptions {
  /** The product; decides the path. Default `mission-server`. */
  serverType?: ServerType | undefined;
  /** An admin token, for products whose health check wants one (Video Server). */
  token?: string | undefined;
}

/**
 * Asks whether the site is ready, at the product's health check: ArcGIS Server
 * `rest/info/healthCheck`, Mission Server `rest/healthcheck`, Notebook and Video Server
 * `rest/info/healthcheck` (Video with a token). Failures that waiting may fix are answers (see
 * {@link HealthCheckResult}); no answer, TLS, refused credentials and a non-JSON 200 are thrown.
 *
 * @param adminUrl - administrative root; the health check lives under the server root, i.e. the
 *   admin URL without its trailing `/admin`.
 * @param options - product, token, transport.
 * @returns the state and the raw answer.
 * @example
 * ```ts
 * const { state } = await healthCheck("https://h:20443/arcgis/admin"); // GET https://h:20443/arcgis/rest/healthcheck?f=json
 * ```
 * Maps to: `GET {server_root}/{health check path}?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/services-reference/enterprise/health-check.htm
 * (ArcGIS Server), https://developers.arcgis.com/rest/services-reference/mission/site-health-check
 * (Mission Server), https://developers.arcgis.com/rest/enterprise-administration/notebook/health-check
 * (Notebook Server), https://developers.arcgis.com/rest/enterprise-administration/video-server/healthcheck
 * (Video Server).
 */
export async function healthCheck(
  adminUrl: string,
  options: HealthCheckOptions = {},
): Promise<HealthCheckResult> {
  const { serverType = "mission-server", token, ...transport } = options;
  const product = serverProduct(serverType);
  try {
    const raw = await arcgisRequest({
      ...transport,
      url: `${serverRootOf(adminUrl)}/${product.healthCheckPath}`,
      operation: "healthCheck",
      method: "GET",
      token: product.healthCheckNeedsToken ? token : undefined,
      referer: DEFAULT_REFERER,
    });
    const success = raw["success"];
    if (success === true || success === "true") {
      return { state: "healthy", reportsNoSite: false, raw };
    }
    const documentedFalse =
      (serverType === "mission-server" || serverType === "notebook-server") &&
      (success === false || success === "false");
    return { state: "unhealthy", reportsNoSite: documentedFalse, raw };
  } catch (e) {
    if (!isArcGISRequestError(e)) throw e;
    if (e.code === "HTTP" && e.httpStatus === 404) {
      return { state: "absent", reportsNoSite: false, raw: {}, error: e };
    }
    if (e.code === "SERVER" && e.serverCode === 404 && e.httpStatus === 200) {
      return { state: "absent", reportsNoSite: false, raw: {}, error: e };
    }
    const notReady = e.code === "SERVER" || e.code === "HTTP";
    if (!notReady) throw e;
    return { state: "unhealthy", reportsNoSite: false, raw: {}, error: e };
  }
}

import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { isArcGISRequestError, type ArcGISRequestError } from "../errors";
import { arcgisRequest } from "../request";

/** Result of {@link healthCheck}. */
export interface HealthCheckResult {
  /** True only when the server answered `success: true`. */
  healthy: boolean;
  /** The server's answer (empty when it answered an error). */
  raw: Record<string, unknown>;
  /** The server-side error that made it unhealthy, if any. */
  error?: ArcGISRequestError;
}

/**
 * Asks whether the site is ready. An ArcGIS error or HTTP 5xx answer means "not healthy (yet)";
 * failures that waiting will not fix (no answer, TLS, auth, non-JSON) are thrown.
 *
 * @param adminUrl - administrative root; the health check lives under the server root, i.e. the
 *   admin URL without its trailing `/admin`.
 * @param transport - TLS options, timeouts, signal.
 * @returns whether the site is healthy, with the raw answer.
 * @example
 * ```ts
 * const { healthy } = await healthCheck("https://h:6443/arcgis/admin"); // GET https://h:6443/arcgis/rest/info/healthCheck
 * ```
 * Maps to: `GET {server_root}/rest/info/healthCheck?f=json`.
 */
export async function healthCheck(
  adminUrl: string,
  transport: TransportOptions = {},
): Promise<HealthCheckResult> {
  const serverRoot = adminUrl.replace(/\/+$/, "").replace(/\/admin$/i, "");
  try {
    const raw = await arcgisRequest({
      ...transport,
      url: `${serverRoot}/rest/info/healthCheck`,
      operation: "healthCheck",
      method: "GET",
      referer: DEFAULT_REFERER,
    });
    return { healthy: raw["success"] === true, raw };
  } catch (e) {
    const notReady =
      isArcGISRequestError(e) &&
      (e.code === "SERVER" || (e.code === "HTTP" && (e.httpStatus ?? 0) >= 500));
    if (!notReady) throw e;
    return { healthy: false, raw: {}, error: e };
  }
}

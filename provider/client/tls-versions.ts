/**
 * The TLS protocol versions this client speaks: Node.js's defaults, which the dispatcher
 * (`dispatcher.ts`) leaves as they are. A server that accepts none of them cannot be reached.
 */
import * as tls from "node:tls";

/** The TLS protocol names, oldest first, as Node.js and ArcGIS Server both spell them. */
const VERSIONS = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"] as const;

/**
 * The protocol names this client can negotiate, oldest first (Node.js's
 * `tls.DEFAULT_MIN_VERSION` to `tls.DEFAULT_MAX_VERSION`).
 *
 * @returns e.g. `["TLSv1.2", "TLSv1.3"]`.
 * @example
 * ```ts
 * clientTlsVersions().includes("TLSv1") // false with Node.js's defaults
 * ```
 */
export function clientTlsVersions(): readonly string[] {
  const min = VERSIONS.indexOf(tls.DEFAULT_MIN_VERSION);
  const max = VERSIONS.indexOf(tls.DEFAULT_MAX_VERSION);
  return VERSIONS.slice(min < 0 ? 0 : min, max < 0 ? VERSIONS.length : max + 1);
}

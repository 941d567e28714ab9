/**
 * The value types SecuritySettings' generated types name: the TLS protocol names, and the
 * settings as the server reports them. A leaf module (it imports nothing), so that the generated
 * types, the class and the inputs share them without an import circle.
 */

/**
 * The TLS protocol names `security/config` lists in `httpsProtocols`, oldest first (Esri's update
 * page for ArcGIS Server: `httpsProtocols`, TLSv1.2 by default).
 */
export const TLS_PROTOCOLS = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"] as const;

/** One of {@link TLS_PROTOCOLS}. */
export type TlsProtocol = (typeof TLS_PROTOCOLS)[number];

/**
 * The security settings a SecuritySettings keeps, by input name, as the server reports them
 * (`security/config`: `httpsOnly` is `sslEnabled` without `httpEnabled`; `hstsEnabled` is
 * `HSTSEnabled`; `tlsProtocols` is `httpsProtocols`, oldest first; `cipherSuites` in the server's
 * order).
 */
export interface ReportedSecuritySettings {
  /** HTTPS only: `sslEnabled` true and `httpEnabled` false. */
  httpsOnly?: boolean;
  /** HTTP Strict Transport Security (`HSTSEnabled`). */
  hstsEnabled?: boolean;
  /** The TLS protocols (`httpsProtocols`), oldest first. */
  tlsProtocols?: string[];
  /** The cipher suites (`cipherSuites`), IANA names in the server's order. */
  cipherSuites?: string[];
}

/**
 * The settings a SecuritySettings can manage; a field left out is the server's business.
 *
 * @internal
 */
export const MANAGED_SECURITY_FIELDS = [
  "httpsOnly",
  "hstsEnabled",
  "tlsProtocols",
  "cipherSuites",
] as const;

import type { AdminSession } from "../session";

/**
 * Reads the server's security configuration: HTTPS (`sslEnabled`, `httpEnabled`), `HSTSEnabled`,
 * `httpsProtocols` and `cipherSuites` (comma separated), the authentication mode and tier, the
 * stores and, once federated, `portalProperties`. The same on every product. Retried on transient
 * failures: a read.
 *
 * @param session - an admin session.
 * @returns the configuration, fields as the server names them.
 * @example
 * ```ts
 * const { httpsProtocols } = await getSecurityConfig(session);
 * ```
 * Maps to: `GET {admin_root}/security/config?f=json` (Chef's `security_configuration`, DSC's
 * `Get-SecurityConfig`, the ArcGIS API for Python's `SecurityManager.configuration`).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/securityconfig.htm
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/security-security-config).
 */
export async function getSecurityConfig(session: AdminSession): Promise<Record<string, unknown>> {
  return session.call(
    "security/config",
    {},
    { method: "GET", idempotent: true, operation: "security/config" },
  );
}

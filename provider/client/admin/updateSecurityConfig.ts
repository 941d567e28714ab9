import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";

/** The server's protocol as `security/config/update` takes it. */
export type ServerProtocol = "HTTP" | "HTTPS" | "HTTP_AND_HTTPS";

/**
 * The fields of `security/config/update`, flat, as Chef's `update_security_configuration` sends
 * them (every one, those it does not change as read).
 */
export interface SecurityConfigUpdate {
  Protocol: ServerProtocol;
  /** Comma separated, e.g. `TLSv1.2,TLSv1.3`. */
  httpsProtocols: string;
  /** Comma separated IANA names. */
  cipherSuites: string;
  HSTSEnabled: boolean;
  authenticationMode?: string | undefined;
  authenticationTier?: string | undefined;
  virtualDirsSecurityEnabled?: boolean | undefined;
  allowDirectAccess?: boolean | undefined;
  allowedAdminAccessIPs?: string | undefined;
  /** The federation's portal as read (sent as JSON text), or none (sent empty). */
  portalProperties?: Record<string, unknown> | null | undefined;
}

/**
 * The protocol a configuration read by {@link getSecurityConfig} shows, by Chef's rule: HTTPS
 * unless `httpEnabled`, then HTTP_AND_HTTPS with `sslEnabled`, else HTTP.
 */
export function protocolOf(config: Record<string, unknown>): ServerProtocol {
  if (config.httpEnabled === true) return config.sslEnabled === true ? "HTTP_AND_HTTPS" : "HTTP";
  return "HTTPS";
}

/**
 * The update that writes `config` (as read by {@link getSecurityConfig}) back as it is: the
 * starting point of a change of some of its fields, so that every other one (the federation's
 * among them) stays as the server has it.
 */
export function securityConfigAsRead(config: Record<string, unknown>): SecurityConfigUpdate {
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const flag = (value: unknown) => (typeof value === "boolean" ? value : undefined);
  const portal = config.portalProperties;
  return {
    Protocol: protocolOf(config),
    httpsProtocols: text(config.httpsProtocols) ?? "",
    cipherSuites: text(config.cipherSuites) ?? "",
    HSTSEnabled: config.HSTSEnabled === true,
    authenticationMode: text(config.authenticationMode),
    authenticationTier: text(config.authenticationTier),
    virtualDirsSecurityEnabled: flag(config.virtualDirsSecurityEnabled),
    allowDirectAccess: flag(config.allowDirectAccess),
    allowedAdminAccessIPs: text(config.allowedAdminAccessIPs),
    portalProperties:
      portal !== null && typeof portal === "object" && !Array.isArray(portal)
        ? (portal as Record<string, unknown>)
        : null,
  };
}

/**
 * Changes the server's security configuration. Every field is sent, as Chef's
 * `update_security_configuration` and DSC's `Update-SecurityConfig` do: build it from the
 * configuration just read ({@link securityConfigAsRead}) and change only what is meant. On ArcGIS
 * Server a change of the protocol, the TLS protocols, the cipher suites or HSTS restarts the web
 * server after the answer (DSC's `ArcGIS_Server_TLS`: "Changes will cause the web server to
 * restart"): wait for it to answer before the next call. Never retried: a change.
 *
 * @param session - an admin session.
 * @param update - every field, as read, with the changes.
 * @example
 * ```ts
 * const read = securityConfigAsRead(await getSecurityConfig(session));
 * await updateSecurityConfig(session, { ...read, HSTSEnabled: true });
 * ```
 * Maps to: `POST {admin_root}/security/config/update` with flat fields (`Protocol`,
 * `httpsProtocols`, `cipherSuites`, `HSTSEnabled`, ..., `portalProperties` as JSON text or empty).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/updatesecurityconfig.htm
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/security-security-config-update-security-config).
 */
export async function updateSecurityConfig(
  session: AdminSession,
  update: SecurityConfigUpdate,
): Promise<void> {
  const path = "security/config/update";
  const { portalProperties, ...flat } = update;
  const body = await session.call(
    path,
    {
      ...flat,
      portalProperties: portalProperties == null ? "" : JSON.stringify(portalProperties),
    },
    { operation: path },
  );
  validateAnswer(z.looseObject({ status: z.literal("success") }), body, {
    operation: path,
    url: session.url(path),
  });
}

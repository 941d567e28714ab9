import { AdminSession, type PortalSession, type SessionCallOptions } from "../session";

/**
 * What a Web Adaptor is registered with: a server site (an admin session) or a portal (a portal
 * session, whose administrative API holds the list).
 */
export type WebAdaptorRegistrar = AdminSession | PortalSession;

/**
 * Calls `system/webadaptors/<path>` where the registrar keeps its list: `{admin root}/system/…`
 * on a server, `{portaladmin}/system/…` on a portal.
 *
 * @param registrar - an admin session on the site, or a portal session.
 * @param path - under `system/webadaptors`, e.g. `` or `<id>/unregister`.
 * @param options - method, idempotency and the name for messages.
 * @returns the answer's JSON object.
 * @example
 * ```ts
 * await webAdaptorsCall(session, "", { method: "GET", idempotent: true, operation: "webadaptors" });
 * ```
 * Maps to: `{admin root | portaladmin}/system/webadaptors/<path>`.
 *
 * @internal
 */
export async function webAdaptorsCall(
  registrar: WebAdaptorRegistrar,
  path: string,
  options: SessionCallOptions,
): Promise<Record<string, unknown>> {
  const operation = path === "" ? "system/webadaptors" : `system/webadaptors/${path}`;
  return registrar instanceof AdminSession
    ? registrar.call(operation, {}, options)
    : registrar.adminCall(operation, {}, options);
}

/**
 * The URL of `system/webadaptors/<path>` on the registrar, for messages.
 *
 * @param registrar - an admin session on the site, or a portal session.
 * @param path - under `system/webadaptors`.
 * @returns the full URL.
 * @example
 * ```ts
 * webAdaptorsUrl(session, "") // "https://h:6443/arcgis/admin/system/webadaptors"
 * ```
 * Maps to: `{admin root | portaladmin}/system/webadaptors/<path>`.
 *
 * @internal
 */
export function webAdaptorsUrl(registrar: WebAdaptorRegistrar, path: string): string {
  const root = registrar instanceof AdminSession ? registrar.adminUrl : registrar.portalAdminUrl;
  return `${root}/system/webadaptors${path === "" ? "" : `/${path}`}`;
}

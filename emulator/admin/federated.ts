/**
 * What a server shows of its federation with a portal: it accepts that portal's tokens on its
 * administrative API, and its security configuration names the portal.
 *
 * Evidence:
 * - The portal's tokens on a federated server: the ArcGIS Server Administrator API's pages
 *   (https://developers.arcgis.com/rest/enterprise-administration/server/securityconfig/,
 *   "Tokens": outside the HTML interface an administrator "will need to acquire a session token
 *   from the generate operation in the Portal Directory API"). Esri's ArcGIS API for Python 2.4.4
 *   relies on it: `arcgis.gis.mission.MissionServer(url, gis)` sends every request to the server
 *   with the portal connection's `X-Esri-Authorization: Bearer <portal token>` (arcgis/auth/_auth/
 *   _token.py, `EsriBuiltInAuth.__call__` and the gen-token auth's `__call__`).
 * - The security configuration: `authenticationTier` is `ARCGIS_PORTAL` on a federated server:
 *   Esri/arcgis-powershell-dsc `Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1`
 *   at df1baa2fb78f56780160dbf048435b8a8ca800cb reads `admin/security/config` after unfederating
 *   and sets `GIS_SERVER` back when it still reads `ARCGIS_PORTAL`; the fields are those of
 *   https://developers.arcgis.com/rest/enterprise-administration/server/securityconfig/
 *   (`authenticationTier`, `allowDirectAccess`, `allowedAdminAccessIPs`, `portalProperties`).
 * Assumptions (docs/emulator.md): the server is federated while a portal of this process lists it
 * (no state of its own); only the portal's administrators (org_admin) are the server's
 * administrators; unfederating ends both at once (DSC's reset suggests a real server may keep
 * `ARCGIS_PORTAL` until told otherwise); `portalProperties` holds the portal's URL and id only.
 */
import { machineAt, machinesOfProcess, type Machine } from "../core/registry";
import type { Runtime } from "../core/runtime";
import { checkToken, type TokenClaims } from "../core/tokens";
import type { ApiRequest } from "../core/http";

/** The machine of this process whose portal lists this server as federated, if any. */
export function federatingPortal(rt: Runtime): Machine | null {
  for (const machine of machinesOfProcess()) {
    const listed = machine.rt.store.current.portal.servers.some(
      (server) => machineAt(server.adminUrl)?.rt === rt,
    );
    if (listed) return machine;
  }
  return null;
}

/**
 * The claims of `token` when it is a token of the portal this server is federated with, issued
 * to one of its administrators; null otherwise.
 */
export function portalAdminClaims(
  rt: Runtime,
  req: ApiRequest,
  token: string | null,
): TokenClaims | null {
  if (token === null) return null;
  const state = federatingPortal(rt)?.rt.store.current;
  if (state === undefined) return null;
  const check = checkToken(token, {
    secret: state.tokenSecret,
    audience: "portal",
    scope: state.portal.id,
    epoch: state.tokenEpoch,
    now: Date.now(),
    referer: req.headers.referer,
    remoteAddress: req.remoteAddress,
  });
  if (!check.ok) return null;
  const user = state.portal.users.find((u) => u.username === check.claims.sub);
  return user?.role === "org_admin" ? check.claims : null;
}

/** `GET security/config`: the security configuration, naming the portal when federated. */
export function securityConfig(rt: Runtime): Record<string, unknown> {
  const portal = federatingPortal(rt);
  const base = { allowedAdminAccessIPs: "", allowDirectAccess: true, sslEnabled: rt.tlsEnabled };
  if (portal === null) return { ...base, authenticationTier: "GIS_SERVER" };
  const scheme = portal.rt.tlsEnabled ? "https" : "http";
  return {
    ...base,
    authenticationTier: "ARCGIS_PORTAL",
    portalProperties: {
      portalUrl: `${scheme}://${portal.rt.options.host}:${portal.port}/portal`,
      portalId: portal.rt.store.current.portal.id,
    },
  };
}

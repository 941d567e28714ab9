/**
 * What changes on a server once a portal has federated it (emulator/portal/federation.ts): its
 * administrative API accepts the portal's tokens, and its security configuration names the portal.
 * The federation is read from the portal's list of federated servers (one source of truth), so an
 * unfederate at the portal ends both at once.
 *
 * Evidence:
 * - A federated server accepts the portal's token on its administrative API: Esri/arcgis-cookbook
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb` at
 *   6b807249eec03146b913a2ad8661425472d53780 (`federate`: after writing the security configuration
 *   it POSTs `admin/services/federate` with `token` = the portal's token); Esri's ArcGIS API for
 *   Python 2.4.4, `arcgis/gis/mission/_ms.py` (`MissionServer(url, gis)` sends every admin request
 *   through the portal's connection `gis._con`) and `arcgis/auth/_auth/_token.py`
 *   (`EsriBuiltInAuth.__call__` and `EsriGenTokenAuth.__call__` put the portal's own token in
 *   `X-Esri-Authorization: Bearer`; no server token is asked for when signed in with a password).
 * - A valid portal token of a user without administrative privileges: "Token is valid but access
 *   is denied." (the text `EsriBuiltInAuth.handle_401` of that file recognises), code 403.
 * - The security configuration's fields after federation: the same Chef file's `federate`
 *   (`authenticationMode` ARCGIS_PORTAL_TOKEN, `authenticationTier` ARCGIS_PORTAL,
 *   `userStoreConfig.type` PORTAL, `portalProperties` with portalUrl, privatePortalUrl,
 *   portalMode ARCGIS_PORTAL_FEDERATION, serverId, serverUrl) and `security_configuration` (reads
 *   `GET admin/security/config`); Esri/arcgis-powershell-dsc
 *   `Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1` at
 *   df1baa2fb78f56780160dbf048435b8a8ca800cb (`Get-SecurityConfig`; a federated server's
 *   `authenticationTier` is `ARCGIS_PORTAL`, an unfederated one's `GIS_SERVER`);
 *   https://developers.arcgis.com/rest/enterprise-administration/mission-server/security-security-config
 *   and the ArcGIS API for Python 2.4.4 `arcgis/gis/mission/_security.py`
 *   (`SecurityManager.configuration`: the field list).
 * Assumptions (docs/emulator.md): the portal is an emulator of this process; a server unfederated at
 * the portal shows GIS_SERVER again at once; `portalSecretKey` and `token` are never shown; the
 * values of the unfederated configuration (ARCGIS_TOKEN, BUILTIN stores) and of `httpEnabled`.
 */
import { AdminError, type ApiRequest } from "../core/http";
import { federationOf, portalUrlOf } from "../core/federations";
import type { Runtime } from "../core/runtime";
import type { SiteRecord } from "../core/state";
import { checkToken, presentedToken, type TokenClaims } from "../core/tokens";

/**
 * The claims of the request's token when it is a valid token of the portal that federated `site`,
 * issued to a portal administrator; null when it is not such a token (the caller answers 498). A
 * valid token of a portal user who is not an administrator: 403.
 */
export function portalAdministrator(req: ApiRequest, site: SiteRecord): TokenClaims | null {
  const federation = federationOf(site);
  if (federation === null) return null;
  const state = federation.portal.store.current;
  const check = checkToken(presentedToken(req.headers, req.params), {
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
  if (user === undefined) return null;
  if (user.role !== "org_admin")
    throw new AdminError(403, ["Token is valid but access is denied."]);
  return check.claims;
}

/** `GET security/config`: the site's security configuration, naming its portal once federated. */
export function securityConfig(rt: Runtime, site: SiteRecord): Record<string, unknown> {
  const common = {
    securityEnabled: true,
    sslEnabled: rt.tlsEnabled,
    httpEnabled: !rt.tlsEnabled,
    virtualDirsSecurityEnabled: false,
    allowDirectAccess: true,
    allowedAdminAccessIPs: "",
  };
  const federation = federationOf(site);
  if (federation === null) {
    return {
      ...common,
      authenticationMode: "ARCGIS_TOKEN",
      authenticationTier: "GIS_SERVER",
      userStoreConfig: { type: "BUILTIN", properties: {} },
      roleStoreConfig: { type: "BUILTIN", properties: {} },
    };
  }
  const portalUrl = portalUrlOf(federation.portal);
  return {
    ...common,
    authenticationMode: "ARCGIS_PORTAL_TOKEN",
    authenticationTier: "ARCGIS_PORTAL",
    userStoreConfig: { type: "PORTAL", properties: {} },
    roleStoreConfig: { type: "PORTAL", properties: {} },
    portalProperties: {
      portalUrl,
      privatePortalUrl: portalUrl,
      portalMode: "ARCGIS_PORTAL_FEDERATION",
      serverId: federation.server.id,
      serverUrl: federation.server.url,
    },
  };
}

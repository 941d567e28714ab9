/**
 * `security/config` with its full field set and `security/config/update`, on every product. The
 * federation's fields (authentication mode and tier, stores, portal properties) come from the
 * portal that federated the site (admin/federated.ts); the other settings are the site's own,
 * kept by the update.
 *
 * Evidence:
 * - The fields read, and the two forms of the update: Esri/arcgis-cookbook at
 *   6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb`: `update_security_configuration`
 *   (from `providers/server.rb` `:configure_security_protocol`) reads `httpsProtocols`,
 *   `cipherSuites`, `httpEnabled`, `sslEnabled`, `authenticationMode`, `authenticationTier`,
 *   `HSTSEnabled`, `virtualDirsSecurityEnabled`, `allowDirectAccess`, `allowedAdminAccessIPs` and
 *   `portalProperties`, compares them with its wishes and, when one differs, POSTs them as flat
 *   fields (`Protocol` HTTP, HTTPS or HTTP_AND_HTTPS; `portalProperties` as JSON text, or empty);
 *   `federate` POSTs one `securityConfig` JSON object instead.
 * - Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb:
 *   `ArcGIS_Server_TLS.psm1` `Update-SecurityConfig` (flat fields, `HSTSEnabled` as `True` /
 *   `False`, refuses HSTS without HTTPS only), `ArcGIS_Federation.psm1`
 *   `Update-SecurityConfigForServer` (`securityConfig={"authenticationTier":"GIS_SERVER"}`).
 * - The ArcGIS API for Python 2.4.4, `arcgis/gis/mission/_security.py`
 *   (`SecurityManager.configuration`: GET `config`; its setter POSTs every field read, flat, with
 *   the changed ones replaced; HSTS needs the protocol to be HTTPS only).
 * - https://developers.arcgis.com/rest/enterprise-administration/server/updatesecurityconfig.htm
 *   and https://developers.arcgis.com/rest/enterprise-administration/mission-server/security-security-config-update-security-config
 *   (`securityConfig`, `httpsProtocols` and `cipherSuites`, comma separated; TLSv1.2 by default;
 *   every listed cipher suite enabled by default; the stores are not part of the update).
 * - The web server restarts after a change of ArcGIS Server's protocol, TLS protocols, cipher
 *   suites or HSTS: DSC's `ArcGIS_Server_TLS.psm1` `Set-TargetResource` ("Changes will cause the
 *   web server to restart": it sleeps, then waits for `arcgis/admin/` and the health check);
 *   Chef's `update_security_configuration` sleeps and calls `wait_until_available` (a status
 *   below 400 from `admin/?f=json`), and `:configure_security_protocol` waits again; Esri's update
 *   page: the SOAP and REST endpoints are redeployed on every machine of the site.
 * Assumptions (docs/emulator.md): the answer `{"status":"success"}`; the defaults of HSTS (off)
 * and of the address list (empty); what is refused and with which text; a protocol setting
 * changes what the configuration reports, not the emulator's listener; the address list is kept,
 * never enforced.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { SecuritySettings, SiteRecord } from "../core/state";
import { securityConfig } from "./federated";
import { refuseDuringExport, siteUnavailableError } from "./site";

/** The TLS protocols enabled on a new site (Esri's update page: TLSv1.2 by default). */
const DEFAULT_HTTPS_PROTOCOLS = "TLSv1.2";

/** The cipher suites enabled on a new site: every one the update page lists. */
const DEFAULT_CIPHER_SUITES = [
  "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
  "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
  "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
  "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
  "TLS_RSA_WITH_AES_128_GCM_SHA256",
  "TLS_RSA_WITH_AES_128_CBC_SHA256",
  "TLS_RSA_WITH_AES_128_CBC_SHA",
  "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
].join(",");

/** TLS protocol names `httpsProtocols` may list. */
const TLS_PROTOCOLS = new Set(["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]);

type Protocol = NonNullable<SecuritySettings["protocol"]>;
const PROTOCOLS: readonly Protocol[] = ["HTTP", "HTTPS", "HTTP_AND_HTTPS"];

/** The fields the portal's federation decides; an update may only repeat them. */
const FEDERATION_FIELDS = ["authenticationMode", "authenticationTier"] as const;

/** `security/config`: the federation's view with the site's own settings. */
export function fullSecurityConfig(rt: Runtime, site: SiteRecord): Record<string, unknown> {
  const settings = site.security;
  // Until an update sets a protocol, the emulator's own listener decides it.
  const protocol = settings.protocol ?? (rt.tlsEnabled ? "HTTPS" : "HTTP");
  return {
    ...securityConfig(rt, site),
    sslEnabled: protocol !== "HTTP",
    httpEnabled: protocol !== "HTTPS",
    HSTSEnabled: settings.HSTSEnabled ?? false,
    httpsProtocols: settings.httpsProtocols ?? DEFAULT_HTTPS_PROTOCOLS,
    cipherSuites: settings.cipherSuites ?? DEFAULT_CIPHER_SUITES,
    virtualDirsSecurityEnabled: settings.virtualDirsSecurityEnabled ?? false,
    allowDirectAccess: settings.allowDirectAccess ?? true,
    allowedAdminAccessIPs: settings.allowedAdminAccessIPs ?? "",
  };
}

/** `GET security/config`. */
export function readSecurityConfig(rt: Runtime, site: SiteRecord): Reply {
  return json(fullSecurityConfig(rt, site));
}

function invalid(name: string, why: string): AdminError {
  return new AdminError(400, [`Invalid value for the parameter '${name}': ${why}`]);
}

/** A boolean as a form field (`true`, `True`) or as a JSON value of `securityConfig`. */
function booleanOf(name: string, value: unknown): boolean {
  if (typeof value === "boolean") return value;
  const text = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (text === "true" || text === "false") return text === "true";
  throw invalid(name, "expected true or false.");
}

/** A text field; a non-string JSON value is refused. */
function textOf(name: string, value: unknown): string {
  if (typeof value !== "string") throw invalid(name, "expected a string.");
  return value;
}

/** A comma-separated list, checked name by name; kept as given, so a reader sees what it sent. */
function listOf(name: string, value: unknown, valid: (entry: string) => boolean): string {
  const text = textOf(name, value);
  const bad = text.split(",").find((entry) => !valid(entry.trim()));
  if (bad !== undefined) throw invalid(name, `'${bad.trim()}' is not supported.`);
  return text;
}

/** The update's fields: `securityConfig`'s members, overlaid by flat form fields. */
function fieldsOf(req: ApiRequest): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  const text = req.params.get("securityConfig");
  if (text !== undefined && text.trim() !== "") {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid("securityConfig", "not a JSON object.");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw invalid("securityConfig", "not a JSON object.");
    }
    for (const [key, member] of Object.entries(value)) fields.set(key, member);
  }
  for (const [key, value] of req.params) {
    if (key !== "securityConfig" && key !== "token" && key !== "f") fields.set(key, value);
  }
  return fields;
}

/** portalProperties as sent: an object, JSON text of one, or nothing (empty text, `null`). */
function portalPropertiesOf(value: unknown): Record<string, unknown> | null {
  let parsed = value;
  if (typeof value === "string") {
    if (value.trim() === "" || value.trim() === "null") return null;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalid("portalProperties", "not a JSON object.");
    }
  }
  if (parsed === null) return null;
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalid("portalProperties", "not a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

/**
 * Refuses a change of what the portal's federation decides: the emulator federates and
 * unfederates a server only through its portal (portal/federation.ts). Repeating the values the
 * configuration shows, as Chef and the Python library do, is no change.
 */
function checkFederationFields(
  fields: Map<string, unknown>,
  current: Record<string, unknown>,
): void {
  for (const name of FEDERATION_FIELDS) {
    const value = fields.get(name);
    if (value === undefined || value === "") continue;
    if (value !== current[name]) {
      throw new AdminError(400, [
        `The emulator does not change '${name}' to '${typeof value === "string" ? value : JSON.stringify(value)}': a server's ${name} follows its federation, made and ended at the portal.`,
      ]);
    }
  }
  if (!fields.has("portalProperties")) return;
  const sent = portalPropertiesOf(fields.get("portalProperties"));
  const shown = (current.portalProperties ?? null) as Record<string, unknown> | null;
  // Chef sends the secret key and the portal's token too, which are never shown: compare only
  // what the configuration shows.
  const same =
    sent === null
      ? shown === null
      : shown !== null &&
        Object.entries(shown).every(
          ([key, value]) => sent[key] === undefined || sent[key] === value,
        );
  if (!same) {
    throw new AdminError(400, [
      "The emulator does not change 'portalProperties': a server's portal follows its federation, made and ended at the portal.",
    ]);
  }
}

/** The settings an update's fields give, over the current ones. */
function settingsOf(fields: Map<string, unknown>, current: SecuritySettings): SecuritySettings {
  const next: SecuritySettings = { ...current };
  const protocol = fields.get("Protocol");
  if (protocol !== undefined) {
    if (!PROTOCOLS.includes(protocol as Protocol)) {
      throw invalid("Protocol", `expected one of ${PROTOCOLS.join(", ")}.`);
    }
    next.protocol = protocol as Protocol;
  } else if (fields.has("sslEnabled") || fields.has("httpEnabled")) {
    // The JSON form names the protocol by its two flags (Chef's `federate`).
    const ssl = fields.has("sslEnabled") ? booleanOf("sslEnabled", fields.get("sslEnabled")) : true;
    const http = fields.has("httpEnabled")
      ? booleanOf("httpEnabled", fields.get("httpEnabled"))
      : false;
    if (!ssl && !http) throw invalid("sslEnabled", "HTTP or HTTPS must stay enabled.");
    next.protocol = ssl && http ? "HTTP_AND_HTTPS" : ssl ? "HTTPS" : "HTTP";
  }
  const httpsProtocols = fields.get("httpsProtocols");
  // Empty: unchanged (each tool sends what it read when it wants no change).
  if (httpsProtocols !== undefined && httpsProtocols !== "") {
    next.httpsProtocols = listOf("httpsProtocols", httpsProtocols, (p) => TLS_PROTOCOLS.has(p));
  }
  const cipherSuites = fields.get("cipherSuites");
  if (cipherSuites !== undefined && cipherSuites !== "") {
    next.cipherSuites = listOf("cipherSuites", cipherSuites, (c) => /^[A-Z0-9_]+$/.test(c));
  }
  for (const name of ["HSTSEnabled", "virtualDirsSecurityEnabled", "allowDirectAccess"] as const) {
    if (fields.has(name)) next[name] = booleanOf(name, fields.get(name));
  }
  if (fields.has("allowedAdminAccessIPs")) {
    next.allowedAdminAccessIPs = textOf(
      "allowedAdminAccessIPs",
      fields.get("allowedAdminAccessIPs"),
    );
  }
  if (
    fields.has("securityEnabled") &&
    !booleanOf("securityEnabled", fields.get("securityEnabled"))
  ) {
    throw invalid("securityEnabled", "the emulator keeps security enabled.");
  }
  return next;
}

/**
 * `POST security/config/update`: either form, or both (`securityConfig` first, flat fields over
 * it). Fields of neither kind (the stores, which the docs leave out of the update) are ignored.
 */
export async function updateSecurityConfig(
  rt: Runtime,
  req: ApiRequest,
  site: SiteRecord,
): Promise<Reply> {
  const fields = fieldsOf(req);
  const current = fullSecurityConfig(rt, site);
  checkFederationFields(fields, current);
  const next = settingsOf(fields, site.security);
  const protocol = next.protocol ?? (rt.tlsEnabled ? "HTTPS" : "HTTP");
  if ((next.HSTSEnabled ?? false) && protocol !== "HTTPS") {
    throw invalid("HSTSEnabled", "HSTS needs the protocol to be HTTPS only.");
  }
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    draft.site.security = next;
  });
  if (rt.product.type === "arcgis-server" && restartsWebServer(rt, site.security, next)) {
    rt.restartingUntil = Date.now() + rt.options.restartDelayMs;
    rt.log("web server restarting after a change of its security settings");
  }
  return json({ status: "success" });
}

/** The settings whose change restarts ArcGIS Server's web server (DSC's ArcGIS_Server_TLS). */
const WEB_SERVER_SETTINGS = ["httpsProtocols", "cipherSuites", "HSTSEnabled"] as const;

/** Whether `next` changes what the web server serves: its protocol, TLS protocols, ciphers, HSTS. */
function restartsWebServer(rt: Runtime, before: SecuritySettings, next: SecuritySettings): boolean {
  const protocolOf = (s: SecuritySettings) => s.protocol ?? (rt.tlsEnabled ? "HTTPS" : "HTTP");
  return (
    protocolOf(before) !== protocolOf(next) ||
    WEB_SERVER_SETTINGS.some((name) => (before[name] ?? null) !== (next[name] ?? null))
  );
}

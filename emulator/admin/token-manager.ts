/**
 * ArcGIS Server's token manager configuration, `security/tokens` and its `update`, as DSC's
 * ArcGIS_ServerSettings sets a shared key.
 *
 * Evidence:
 * - What the client sends and reads: Esri/arcgis-powershell-dsc at
 *   df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_ServerSettings/ArcGIS_ServerSettings.psm1`: with
 *   `SharedKey` set, `Get-AdminSettings` (GET `security/tokens`, f=json, token) is read as
 *   `properties.sharedKey` and, when it differs, that property is set on the object read and the
 *   whole object posted back by `Set-TokenSettings` (POST `security/tokens/update` with f=json,
 *   token and `tokenManagerConfig` as JSON text).
 * - https://developers.arcgis.com/rest/enterprise-administration/server/tokens.htm (the answer
 *   `{"type": "BUILTIN", "properties": {"sharedKey", "longTimeout", "shortTimeout"}}`, the
 *   timeouts as strings) and
 *   https://developers.arcgis.com/rest/enterprise-administration/server/updatetokenconfig.htm
 *   (`tokenManagerConfig`; `{"status": "success"}`); the defaults of the timeouts, 1440 and 60
 *   minutes, from https://resources.arcgis.com/en/help/server-admin-api/tokenManager.html.
 * Assumptions (docs/emulator.md): the key a new site shows is the emulator's own (derived from its
 * secret, so it is stable, and never the secret that signs the emulator's tokens); the key is
 * kept as given and shown to administrators, as the page shows it, but signs nothing, so tokens
 * issued before stay valid; only type BUILTIN is taken; a missing or empty `sharedKey` keeps the
 * current one; a timeout that is not a whole number of minutes above zero is code 400 naming it.
 */
import { createHmac } from "node:crypto";
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { SiteRecord } from "../core/state";
import { refuseDuringExport, siteUnavailableError } from "./site";

type TokenManager = NonNullable<SiteRecord["tokenManager"]>;

function current(rt: Runtime, site: SiteRecord): TokenManager {
  if (site.tokenManager !== null) return site.tokenManager;
  const sharedKey = createHmac("sha256", rt.store.current.tokenSecret)
    .update(`shared key of site ${site.id}`)
    .digest("base64");
  return { sharedKey, longTimeout: "1440", shortTimeout: "60" };
}

/** `GET security/tokens`. */
export function tokenManager(rt: Runtime, site: SiteRecord): Reply {
  const { sharedKey, longTimeout, shortTimeout } = current(rt, site);
  return json({ type: "BUILTIN", properties: { sharedKey, longTimeout, shortTimeout } });
}

function invalid(why: string): AdminError {
  return new AdminError(400, [`Invalid value for the parameter 'tokenManagerConfig': ${why}`]);
}

/** A timeout as sent (a string or a number), as the whole number of minutes it must be. */
function timeoutOf(name: string, value: unknown, fallback: string): string {
  if (value === undefined || value === null || value === "") return fallback;
  const minutes =
    typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN;
  if (!Number.isInteger(minutes) || minutes <= 0) {
    throw invalid(`properties.${name} must be a whole number of minutes above zero.`);
  }
  return String(minutes);
}

/** `POST security/tokens/update`. */
export async function updateTokenManager(
  rt: Runtime,
  req: ApiRequest,
  site: SiteRecord,
): Promise<Reply> {
  let config: unknown;
  try {
    config = JSON.parse(req.params.get("tokenManagerConfig") ?? "");
  } catch {
    throw invalid("a JSON object is required.");
  }
  if (config === null || typeof config !== "object" || Array.isArray(config)) {
    throw invalid("a JSON object is required.");
  }
  const { type, properties } = config as { type?: unknown; properties?: unknown };
  if (type !== undefined && type !== "BUILTIN") throw invalid("type must be BUILTIN.");
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) {
    throw invalid("properties must be a JSON object.");
  }
  const props = properties as Record<string, unknown>;
  const was = current(rt, site);
  const sharedKey = props.sharedKey;
  if (sharedKey !== undefined && typeof sharedKey !== "string") {
    throw invalid("properties.sharedKey must be a string.");
  }
  const next: TokenManager = {
    sharedKey: sharedKey === undefined || sharedKey === "" ? was.sharedKey : sharedKey,
    longTimeout: timeoutOf("longTimeout", props.longTimeout, was.longTimeout),
    shortTimeout: timeoutOf("shortTimeout", props.shortTimeout, was.shortTimeout),
  };
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    draft.site.tokenManager = next;
  });
  return json({ status: "success" });
}

/**
 * The portal's registered apps as DSC's ArcGIS_Federation reads and updates them:
 * `{portal}/sharing/oauth2/apps/<clientId>` and its `update` (note: without `/rest`).
 *
 * Evidence:
 * - What the client sends and reads: Esri/arcgis-powershell-dsc at
 *   df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_Federation/ArcGIS_Federation.psm1`: `Get-OAuthApplication`
 *   (GET `sharing/oauth2/apps/<AppId>` with f=json and token; AppId `arcgisonline` by default),
 *   `Update-OAuthApplication` (POST `.../update` with f=json, token and `redirect_uris`, the
 *   list as JSON text); `Test-TargetResource` and `Set-TargetResource` read `redirect_uris` and,
 *   for a server that is not the hosting server, add `https://<server FQDN>` to it (or remove it
 *   when unfederating).
 * - https://developers.arcgis.com/rest/users-groups-and-items/update-app (POST; `redirect_uris`, a
 *   JSON string array; the answer is the registered app).
 * Assumptions (docs/emulator.md): the portal's built-in apps are `arcgisonline` and the Python
 * API's `pythonapi`, each starting with no redirect URI; the app's answer has `client_id` and
 * `redirect_uris` only (never a secret); an unknown app is code 400 and a `redirect_uris` that is
 * no JSON array of strings is code 400, with this project's texts; a portal administrator's token is
 * required. The sign-in pages keep accepting only the portal's own origin (portal/oauth.ts).
 */
import { json, requirePost, SharingError, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import { requireAdmin } from "./users";

/** The built-in application the ArcGIS API for Python signs in as. */
export const BUILT_IN_CLIENT_IDS = ["pythonapi"] as const;

/**
 * The apps a new portal has: DSC's default `arcgisonline`, and the Python API's client (read when
 * asked: portal/oauth.ts imports this module before its own constants exist).
 */
function isBuiltInApp(clientId: string): boolean {
  return (
    clientId === "arcgisonline" || (BUILT_IN_CLIENT_IDS as readonly string[]).includes(clientId)
  );
}

/** Handles `sharing/oauth2/apps[/…]`; `segments` start after `apps`. */
export async function handleApps(
  rt: Runtime,
  req: ApiRequest,
  segments: readonly string[],
): Promise<Reply> {
  const [clientId, op, ...rest] = segments;
  if (clientId === undefined || rest.length > 0 || (op !== undefined && op !== "update")) {
    throw new SharingError(
      404,
      `Could not find resource or operation '${segments.at(-1) ?? "apps"}' on the system.`,
    );
  }
  requireAdmin(rt, req);
  if (!isBuiltInApp(clientId)) {
    throw new SharingError(400, `Invalid client_id: no app is registered as '${clientId}'.`);
  }
  if (op === undefined) return json(appOf(rt, clientId));
  requirePost(req, op);
  const redirectUris = redirectUrisOf(req.params.get("redirect_uris"));
  await rt.store.update((draft) => {
    const apps = draft.portal.oauthApps.filter((a) => a.clientId !== clientId);
    draft.portal.oauthApps = [...apps, { clientId, redirectUris }];
  });
  return json(appOf(rt, clientId));
}

function appOf(rt: Runtime, clientId: string): { client_id: string; redirect_uris: string[] } {
  const app = rt.store.current.portal.oauthApps.find((a) => a.clientId === clientId);
  return { client_id: clientId, redirect_uris: app?.redirectUris ?? [] };
}

/** `redirect_uris`: JSON text of an array of strings. */
function redirectUrisOf(text: string | undefined): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text ?? "");
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new SharingError(
      400,
      "Invalid value for the parameter 'redirect_uris': expected a JSON array of strings.",
    );
  }
  return value;
}

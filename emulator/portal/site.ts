/**
 * The portal's own site: a portal started in no site (`portalNoSite`) answers every request of
 * its APIs with the "not initialized" document until `portaladmin/createNewSite` has created its
 * initial administrator; from then on it serves like a seeded portal.
 *
 * Evidence (what Esri's tools send and read):
 * - Chef, Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/portal_admin_client.rb` `create_site` (line 262): a
 *   multipart POST of username, password, email, fullname, description, securityQuestion,
 *   securityQuestionAns, contentStore (JSON text: type, provider, connectionString, objectStore;
 *   `providers/portal.rb` action :create_site), userLicenseTypeId, file (the license),
 *   enableDebug, f=json, no token; `validate_response` fails on an `error` member. `site_exist?`
 *   (line 47): the portal has a site when the token-less `GET portaladmin/?f=json` answers HTTP
 *   200 with `error.code` 499.
 * - DSC, Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_Portal/ArcGIS_Portal.psm1`: `Invoke-CreatePortalSite`
 *   (line 243: username, password, fullname, email, description, securityQuestionIdx,
 *   securityQuestionAns, contentStore as JSON, f=json, userLicenseTypeId with a license file;
 *   throws on `error.message`, sleeps twice `recheckAfterSeconds` when present, then asks for a
 *   token until the portal gives one); `Set-TargetResource` (line 618) creates the site when
 *   `GET portaladmin?f=json` answers `status` "error" with the message "The portal site has not
 *   been initialized. Please create a new site and try again." in `messages`.
 * - The ArcGIS API for Python 2.4.4 (PyPI), `arcgis/gis/admin/_site.py` `Site.create`: f,
 *   username, password, fullName, email, description, contentStore, securityQuestionIdx and
 *   securityQuestionAns only together, userLicenseTypeId, file; returns the answer ("Dictionary
 *   indicating 'success' or 'error'"); username, password, full name, email and content store
 *   are required, the rest optional.
 * - https://developers.arcgis.com/rest/enterprise-administration/portal/create-site: the first
 *   operation after installation; creates the initial administrator account; time consuming; at
 *   its end the web server restarts.
 * What no source shows is listed in docs/emulator.md ("The portal's site").
 */
import { json, SharingError, type ApiRequest, type Reply } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { EmulatorState } from "../core/state";
import { hashPassword } from "../core/tokens";

/** The message DSC's `Set-TargetResource` looks for in a portal in no site's `messages`. */
export const PORTAL_NOT_INITIALIZED =
  "The portal site has not been initialized. Please create a new site and try again.";

/** The portal's site record. */
export type PortalSite = EmulatorState["portal"]["site"];

/** Whether the portal serves its APIs: its site exists (and is no longer being created). */
export function portalSiteReady(rt: Runtime): boolean {
  return rt.store.current.portal.site.status === "ready";
}

/** DSC's `status` and `messages` of a portal in no site. */
const NOT_INITIALIZED_DOCUMENT = { status: "error", messages: [PORTAL_NOT_INITIALIZED] };

/**
 * The answer of a portal in no site (or still creating it): DSC's `status` and `messages`, with
 * HTTP 200 like every portal answer. That every API of the portal answers it, not only the
 * portaladmin root DSC reads, is an assumption (docs/emulator.md).
 */
export function notInitialized(): Reply {
  return json(NOT_INITIALIZED_DOCUMENT);
}

/** A required createNewSite parameter: the first of its spellings that is not blank. */
function required(req: ApiRequest, ...names: string[]): string {
  for (const name of names) {
    const value = req.params.get(name);
    if (value !== undefined && value.trim() !== "") return value;
  }
  // The message names the parameter as Esri's REST reference spells it (assumption: its text).
  throw new SharingError(400, `Parameter '${names[0]}' is required to create the portal site.`);
}

/** The content store: JSON text of an object (Chef and DSC send `type` and `provider`). */
function contentStoreOf(text: string): { type: string | null; provider: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new SharingError(400, "Parameter 'contentStore' must be a JSON object.");
  }
  const store = parsed as Record<string, unknown>;
  // Only the kind of store is kept: a cloud store's connectionString carries its credentials
  // (DSC's AWS access key), which the emulator never writes down.
  return {
    type: typeof store.type === "string" ? store.type : null,
    provider: typeof store.provider === "string" ? store.provider : null,
  };
}

/**
 * `POST portaladmin/createNewSite`: validated, then checked and recorded in one serialized state
 * change (two concurrent calls create one site), answered once the emulated creation is over.
 */
export async function createPortalSite(rt: Runtime, req: ApiRequest): Promise<Reply> {
  if (req.method !== "POST") {
    throw new SharingError(405, "Method not supported. createNewSite accepts POST only.");
  }
  const username = required(req, "username");
  const password = required(req, "password");
  // Chef and DSC send `fullname`, the ArcGIS API for Python `fullName`.
  const fullname = required(req, "fullname", "fullName");
  const email = required(req, "email");
  const contentStore = contentStoreOf(required(req, "contentStore"));
  const passwordHash = await hashPassword(password);
  const started = await rt.store.update((draft): PortalSite | string => {
    const { status } = draft.portal.site;
    // The refusals' texts are assumptions (docs/emulator.md); no source shows them.
    if (status === "ready") return "The portal site has already been created.";
    if (status === "creating") return "The portal site is being created. Try again later.";
    draft.portal.users = [{ username, passwordHash, role: "org_admin" }];
    draft.portal.site = {
      status: "creating",
      completesAt: Date.now() + rt.options.portalCreateDelayMs,
      administrator: {
        username,
        fullname,
        email,
        description: req.params.get("description") ?? "",
        // DSC and Python send the index, Chef `securityQuestion`; the answer is never kept.
        securityQuestionIdx:
          req.params.get("securityQuestionIdx") ?? req.params.get("securityQuestion") ?? null,
        userLicenseTypeId: req.params.get("userLicenseTypeId") ?? null,
      },
      contentStore,
    };
    return draft.portal.site;
  });
  if (typeof started === "string") throw new SharingError(400, started);
  rt.log(`portal site creation started for administrator '${username}'`);
  await finishPortalSiteLater(rt, started);
  // Python's docstring: a dictionary indicating 'success' (assumption: `status`, as the
  // portaladmin's other operations answer).
  return json({ status: "success" });
}

/**
 * Completes the portal's site once its delay has passed; also used at start-up to resume a
 * creation a restart interrupted. If the emulator closes first, the site stays `creating`.
 */
export async function finishPortalSiteLater(rt: Runtime, site: PortalSite): Promise<void> {
  await rt.delay(Math.max(0, (site.completesAt ?? 0) - Date.now()));
  const done = await rt.store.update((draft) => {
    if (draft.portal.site.status !== "creating") return false;
    draft.portal.site.status = "ready";
    return true;
  });
  if (done) rt.log("portal site created");
}

/**
 * `GET portaladmin/healthCheck`, without a token: HTTP 200 and `{"status":"success"}` once the
 * portal's site exists; before, "messaging other than HTTP 200"
 * (https://developers.arcgis.com/rest/enterprise-administration/portal/health-check-portal.htm).
 * Chef's `providers/webadaptor.rb` `:configure_with_portal` and DSC's `ArcGIS_WebAdaptor` wait
 * for it through the portal's Web Adaptor. Assumption: the unavailable answer is HTTP 503 with
 * the "not initialized" document (the page says an HTML page).
 */
export function portalHealthCheck(rt: Runtime): Reply {
  if (portalSiteReady(rt)) return json({ status: "success" });
  return { kind: "json", body: NOT_INITIALIZED_DOCUMENT, status: 503 };
}

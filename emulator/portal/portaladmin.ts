/**
 * The portal's administrative API under {@link PORTALADMIN_PREFIX} (`{portal}/portaladmin`): its
 * federation resource (portal/federation.ts) and its keystore's root certificates
 * (portal/certificates.ts), its registered Web Adaptors (portal/web-adaptors.ts), and createNewSite, which creates the portal's own site
 * (portal/site.ts). Errors are in the sharing API's form, which Chef's
 * `validate_response` reads (`error.message`), for both APIs of the portal.
 */
import { json, SharingError, type ApiRequest, type Reply } from "../core/http";
import { PORTAL_VERSION } from "../core/products";
import type { Runtime } from "../core/runtime";
import { handleCertificates } from "./certificates";
import { handleFederation } from "./federation";
import { createPortalSite, portalHealthCheck } from "./site";
import { requireAdmin } from "./users";
import { handlePortalWebAdaptors } from "./web-adaptors";

/** Path of the portal's administrative root. */
export const PORTALADMIN_PREFIX = "/portal/portaladmin";

/** Handles one request under {@link PORTALADMIN_PREFIX}. */
export async function handlePortalAdmin(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const [first, ...rest] = req.segments;
  if (first === undefined) {
    // https://developers.arcgis.com/rest/enterprise-administration/portal/portal-administration-root
    // (`resources`, `version`); only the resources the emulator serves are listed (assumption).
    requireAdmin(rt, req);
    return json({ resources: ["federation", "system"], version: `${PORTAL_VERSION}.0` });
  }
  if (first === "createNewSite" && rest.length === 0) return createPortalSite(rt, req);
  if (first === "healthCheck" && rest.length === 0) return portalHealthCheck(rt);
  if (first === "federation") {
    requireAdmin(rt, req);
    return handleFederation(rt, req, rest);
  }
  // https://developers.arcgis.com/rest/enterprise-administration/portal/system: its child
  // resources; only the one the emulator serves is listed (assumption), as at the root. The
  // ArcGIS API for Python's `gis.admin.system` reads it before `web_adaptors`.
  if (first === "system" && rest.length === 0) {
    requireAdmin(rt, req);
    return json({ resources: ["webadaptors"] });
  }
  if (first === "system" && rest[0] === "webadaptors") {
    requireAdmin(rt, req);
    return handlePortalWebAdaptors(rt, req, rest.slice(1));
  }
  if (first === "security" && rest[0] === "sslCertificates") {
    requireAdmin(rt, req);
    return handleCertificates(rt, req, rest.slice(1));
  }
  throw new SharingError(
    404,
    `Could not find resource or operation '${req.segments.at(-1) ?? ""}' on the system.`,
  );
}

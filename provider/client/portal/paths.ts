import { withoutTrailingSlash } from "../../url";

/**
 * Path of a collaboration under the sharing root, with the ids URL-encoded.
 *
 * @param portalId - the host portal's id.
 * @param collaborationId - the collaboration's id.
 * @returns e.g. `portals/abc/collaborations/123`.
 * @example
 * ```ts
 * collaborationPath("abc", "123") // "portals/abc/collaborations/123"
 * ```
 * Maps to: `{sharing}/portals/<portal_id>/collaborations/<collaboration_id>`.
 *
 * @internal
 */
export function collaborationPath(portalId: string, collaborationId: string): string {
  return `portals/${encodeURIComponent(portalId)}/collaborations/${encodeURIComponent(collaborationId)}`;
}

/**
 * The portal's administrative root beside its sharing root: `…/sharing/rest` becomes
 * `…/portaladmin` (as Chef's PortalAdminClient builds both from one portal URL).
 *
 * @param sharingUrl - e.g. `https://portal.example.com/portal/sharing/rest`.
 * @returns e.g. `https://portal.example.com/portal/portaladmin`.
 * @example
 * ```ts
 * portalAdminUrlOf("https://p/portal/sharing/rest/") // "https://p/portal/portaladmin"
 * ```
 * Sends no request.
 *
 * @internal
 */
export function portalAdminUrlOf(sharingUrl: string): string {
  const sharing = withoutTrailingSlash(sharingUrl);
  const root = sharing.replace(/\/sharing\/rest$/i, "/portaladmin");
  if (root === sharing) {
    throw new TypeError(
      `The sharing URL ${sharing} does not end in /sharing/rest, so the portal's ` +
        "administrative root (…/portaladmin) cannot be derived from it.",
    );
  }
  return root;
}

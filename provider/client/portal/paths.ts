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

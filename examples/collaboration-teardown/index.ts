/**
 * Tearing down distributed collaborations with the stack: `pulumi up` only confirms that each
 * collaboration exists and records this portal's role; `pulumi destroy` then
 * - deletes a collaboration this portal hosts (for every participant), and
 * - removes this portal's participation from one it joined as a guest (`leaveAsGuest: true`;
 *   a guest cannot delete a collaboration, and without the flag the resource refuses it at once
 *   rather than fail at destroy time).
 *
 * The portal's connection is the package's stack config (docs/connection.md):
 * `arcgis-admin:sharingUrl`, `arcgis-admin:portalUsername` and `arcgis-admin:portalPassword` (a
 * portal administrator; or `arcgis-admin:portalToken`), optionally `arcgis-admin:caCert`; or the
 * `ARCGIS_ADMIN_*` environment variables. This project's own keys name the collaborations.
 */
import * as pulumi from "@pulumi/pulumi";
import { Collaboration } from "pulumi-arcgis-admin";

const config = new pulumi.Config();

/** Hosted by this portal: destroy deletes it. */
const hosted = new Collaboration("hosted", {
  collaborationId: config.require("hostedCollaborationId"),
});

/** Hosted by another portal: destroy leaves it (removeParticipation), the others stay in. */
const joined = new Collaboration("joined", {
  collaborationId: config.require("joinedCollaborationId"),
  leaveAsGuest: true,
});

export const hostedCollaboration = pulumi.interpolate`${hosted.name} (${hosted.role})`;
export const joinedCollaboration = pulumi.interpolate`${joined.name} (${joined.role}, host ${joined.hostPortalId})`;

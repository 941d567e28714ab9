/**
 * Tearing down distributed collaborations with the stack: `pulumi up` only confirms that each
 * collaboration exists and records this portal's role; `pulumi destroy` then
 * - deletes a collaboration this portal hosts (for every participant), and
 * - removes this portal's participation from one it joined as a guest (`leaveAsGuest: true`;
 *   a guest cannot delete a collaboration, and without the flag the resource refuses it at once
 *   rather than fail at destroy time).
 */
import * as pulumi from "@pulumi/pulumi";
import { Collaboration } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const caCert = config.get("caCert");
const portal = {
  sharingUrl: config.require("sharingUrl"),
  username: config.require("portalAdminUsername"),
  password: config.requireSecret("portalAdminPassword"),
  ...(caCert === undefined ? {} : { tls: { caCert } }),
};

/** Hosted by this portal: destroy deletes it. */
const hosted = new Collaboration("hosted", {
  ...portal,
  collaborationId: config.require("hostedCollaborationId"),
});

/** Hosted by another portal: destroy leaves it (removeParticipation), the others stay in. */
const joined = new Collaboration("joined", {
  ...portal,
  collaborationId: config.require("joinedCollaborationId"),
  leaveAsGuest: true,
});

export const hostedCollaboration = pulumi.interpolate`${hosted.name} (${hosted.role})`;
export const joinedCollaboration = pulumi.interpolate`${joined.name} (${joined.role}, host ${joined.hostPortalId})`;

/**
 * Quick start: a mission-server site, a backup of its configuration downloaded to this machine,
 * and a portal collaboration whose deletion the stack owns.
 *
 * This is the program of the repository's root Pulumi.yaml, which `npm start` deploys against the
 * local emulator. Everything it needs comes from stack config (`npm start` sets it from the
 * emulator's ready line); against a real ArcGIS Enterprise, set the same keys yourself:
 *
 * - `adminUrl`: the mission server's admin root, e.g. `https://gis.example.com:6443/arcgis/admin`;
 * - `sharingUrl`: the portal's sharing root, e.g. `https://gis.example.com/portal/sharing/rest`;
 * - `caCert` (optional): the PEM of the CA that signed the servers' certificates;
 * - `siteAdminUsername`, `siteAdminPassword` (secret): the primary administrator to create;
 * - `portalAdminUsername`, `portalAdminPassword` (secret): a portal administrator;
 * - `collaborationId`: a collaboration this portal hosts;
 * - `portalId` (optional): this portal's id, looked up when omitted;
 * - `downloadDir` (optional): where the backup goes, default `site-exports`.
 *
 * Set secrets with `pulumi config set --secret siteAdminPassword`, which prompts for the value
 * (or reads it from stdin), so that it never shows in the shell history.
 */
import * as pulumi from "@pulumi/pulumi";
import { Collaboration, Site, SiteExport } from "pulumi-arcgis-admin";

const config = new pulumi.Config();

// A CA certificate (PEM) to trust; unset, the system's trusted CAs apply.
const caCert = config.get("caCert");
const tls = caCert === undefined ? {} : { tls: { caCert } };
const portalId = config.get("portalId");

/** Creates the site on a machine that is in no site yet (and leaves it running on destroy). */
const site = new Site("site", {
  adminUrl: config.require("adminUrl"),
  username: config.require("siteAdminUsername"),
  password: config.requireSecret("siteAdminPassword"),
  ...tls,
});

/**
 * Exports the site configuration once the site exists, and streams the archive to a local folder.
 * The path stays relative (to the project folder, where Pulumi.yaml is): an absolute path differs
 * between machines and CI runners, and a changed downloadTo would export again.
 */
const backup = new SiteExport("site-backup", {
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  downloadTo: config.get("downloadDir") ?? "site-exports",
  ...tls,
});

/** Confirms the collaboration now; `pulumi destroy` deletes it (this portal is its host). */
const collaboration = new Collaboration("partners", {
  sharingUrl: config.require("sharingUrl"),
  collaborationId: config.require("collaborationId"),
  username: config.require("portalAdminUsername"),
  password: config.requireSecret("portalAdminPassword"),
  ...(portalId === undefined ? {} : { portalId }),
  ...tls,
});

export const siteAdminUrl = site.adminUrl;
export const siteState = site.state;
export const siteMachines = site.machines;
export const backupFile = backup.localPath;
export const backupSizeBytes = backup.sizeBytes;
export const backupSha256 = backup.sha256;
export const collaborationName = collaboration.name;
export const collaborationRole = collaboration.role;

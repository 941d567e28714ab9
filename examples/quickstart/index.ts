/**
 * Quick start: a mission-server site, a backup of its configuration downloaded to this machine,
 * and a portal collaboration whose deletion the stack owns.
 *
 * This is the program of the repository's root Pulumi.yaml, which `npm start` deploys against the
 * local emulator. Everything it needs comes from stack config (`npm start` sets it from the
 * emulator's ready line); against a real ArcGIS Enterprise, set the same keys yourself. The
 * connections are the package's keys (docs/connection.md; or the `ARCGIS_ADMIN_*` environment
 * variables):
 *
 * - `arcgis-admin:adminUrl`: the mission server's admin root, e.g.
 *   `https://gis.example.com:6443/arcgis/admin`;
 * - `arcgis-admin:username`, `arcgis-admin:password` (secret): the primary administrator to create;
 * - `arcgis-admin:sharingUrl`: the portal's sharing root, e.g.
 *   `https://gis.example.com/portal/sharing/rest`;
 * - `arcgis-admin:portalUsername`, `arcgis-admin:portalPassword` (secret): a portal administrator;
 * - `arcgis-admin:caCert` (optional): the PEM of the CA that signed the servers' certificates;
 *
 * and this project's own:
 *
 * - `collaborationId`: a collaboration this portal hosts;
 * - `portalId` (optional): this portal's id, looked up when omitted;
 * - `downloadDir` (optional): where the backup goes, default `site-exports`;
 * - `adoptExistingSite` (optional): adopt a site already on the machine (docs/troubleshooting.md,
 *   after a killed run).
 *
 * Set secrets with `pulumi config set --secret arcgis-admin:password`, which prompts for the value
 * (or reads it from stdin), so that it never shows in the shell history.
 */
import * as pulumi from "@pulumi/pulumi";
import { Collaboration, Site, SiteExport } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const portalId = config.get("portalId");

/**
 * Creates the site on a machine that is in no site yet (and leaves it running on destroy). Its
 * adminUrl, administrator and TLS settings (a CA certificate to trust; unset, the system's trusted
 * CAs apply) are the arcgis-admin:* stack config.
 */
const site = new Site("site", {
  // Set by `npm start` after a killed run only: the site on the machine is the one that run created.
  adoptExisting: config.getBoolean("adoptExistingSite") ?? false,
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
});

/**
 * Confirms the collaboration now; `pulumi destroy` deletes it (this portal is its host). The
 * portal and its administrator are the arcgis-admin:* stack config.
 */
const collaboration = new Collaboration("partners", {
  collaborationId: config.require("collaborationId"),
  ...(portalId === undefined ? {} : { portalId }),
});

export const siteAdminUrl = site.adminUrl;
export const siteState = site.state;
export const siteVersion = site.serverVersion;
export const backupFile = backup.localPath;
export const backupSizeBytes = backup.sizeBytes;
export const backupSha256 = backup.sha256;
export const collaborationName = collaboration.name;
export const collaborationRole = collaboration.role;

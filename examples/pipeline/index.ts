/**
 * A site as a release pipeline manages it: created once with its configuration store,
 * directories and log settings, then backed up again on every release.
 *
 * `SiteExport` exports when it is created and never again by itself; a change to `triggers`
 * replaces it, i.e. exports anew. Here the trigger is the release from stack config, which the
 * pipeline sets before `pulumi up`:
 *
 *     pulumi config set release "$CI_PIPELINE_ID"   # or a tag, a date...
 *     pulumi up --yes
 *
 * Each release's archive is kept (deleting a SiteExport never deletes its archive).
 *
 * The server's connection is the package's stack config (docs/connection.md):
 * `arcgis-admin:adminUrl`, `arcgis-admin:username`, `arcgis-admin:password` (secret) and
 * optionally `arcgis-admin:caCert`, or the `ARCGIS_ADMIN_*` environment variables. This project's
 * own keys say what the pipeline does: `release`, `sharedFolder` and `backupDir`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Site, SiteExport } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const release = config.require("release");
// A share every machine of the site can reach, e.g. \\fileserver\arcgis.
const share = config.get("sharedFolder") ?? "\\\\fileserver\\arcgis";

const site = new Site("site", {
  // Mission Server (the default); "arcgis-server", "notebook-server" or "video-server" for the
  // other products, each with its own directory types.
  serverType: "mission-server",
  // adminUrl, username (the primary administrator to create), password and tls: arcgis-admin:*.
  configStoreConnection: {
    type: "FILESYSTEM",
    connectionString: `${share}\\config-store`,
  },
  directories: [
    { name: "arcgissystem", physicalPath: `${share}\\system`, directoryType: "SYSTEM" },
    { name: "arcgisjobs", physicalPath: `${share}\\jobs`, directoryType: "JOBS" },
    { name: "arcgisoutput", physicalPath: `${share}\\output`, directoryType: "OUTPUT" },
  ],
  logSettings: {
    logLevel: "WARNING",
    logDir: `${share}\\logs`,
    maxErrorReportsCount: 10,
    maxLogFileAge: 90,
  },
  // Creation takes minutes on a real install; give it more than the pipeline's usual step.
  timeouts: { createMs: 45 * 60_000 },
});

// The site's outputs as the connection, so that the backup waits for the site; tls: arcgis-admin:*.
const backup = new SiteExport("backup", {
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  // Kept as an artifact of the pipeline run. Relative to this project's folder, so that every
  // runner records the same path; and a runner that no longer has the file does not export again.
  downloadTo: config.get("backupDir") ?? "backups",
  allowMissingDownload: true,
  triggers: [release],
  // Includes the wait for another export (or administrative change) to finish.
  timeouts: { exportMs: 20 * 60_000 },
});

export const siteAdminUrl = site.adminUrl;
export const backedUpRelease = release;
export const backupFile = backup.localPath;
export const backupSha256 = backup.sha256;
export const backupExportedAt = backup.exportedAt;

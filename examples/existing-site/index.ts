/**
 * A site that already exists (made by hand, by Chef or DSC, or by another stack) brought under
 * this stack: with `adoptExisting: true`, a machine that is already in a site is recorded as
 * adopted (state "adopted") instead of failing, after checking that the given administrator can
 * sign in. No createNewSite is sent, so nothing about the site changes.
 *
 * `deleteSiteOnDestroy` stays false (the default): destroying the stack forgets the site and
 * leaves it running. A backup is taken at adoption, a baseline before managing the site further.
 *
 * The site's connection is the package's stack config (docs/connection.md):
 * `arcgis-admin:adminUrl`, `arcgis-admin:username` and `arcgis-admin:password` (an administrator
 * of the existing site: its primary administrator or another one), optionally
 * `arcgis-admin:caCert`; or the `ARCGIS_ADMIN_*` environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import { Site, SiteExport } from "pulumi-arcgis-admin";

const config = new pulumi.Config();

const site = new Site("site", { adoptExisting: true });

// The site's outputs as the connection, so that the backup waits for the site; tls: arcgis-admin:*.
const baseline = new SiteExport("baseline", {
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  downloadTo: config.get("backupDir") ?? "backups",
});

/** "adopted" for a site that existed, "created" if the machine was in no site after all. */
export const siteState = site.state;
export const siteMachines = site.machines;
export const baselineBackup = baseline.localPath;

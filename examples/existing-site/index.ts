/**
 * A site that already exists (made by hand, by Chef or DSC, or by another stack) brought under
 * this stack: with `adoptExisting: true`, a machine that is already in a site is recorded as
 * adopted (state "adopted") instead of failing, after checking that the given administrator can
 * sign in. No createNewSite is sent, so nothing about the site changes.
 *
 * `deleteSiteOnDestroy` stays false (the default): destroying the stack forgets the site and
 * leaves it running. A backup is taken at adoption, a baseline before managing the site further.
 */
import * as pulumi from "@pulumi/pulumi";
import { Site, SiteExport } from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const caCert = config.get("caCert");
const tls = caCert === undefined ? {} : { tls: { caCert } };

const site = new Site("site", {
  adminUrl: config.require("adminUrl"),
  // An administrator of the existing site (its primary administrator or another one).
  username: config.require("siteAdminUsername"),
  password: config.requireSecret("siteAdminPassword"),
  adoptExisting: true,
  ...tls,
});

const baseline = new SiteExport("baseline", {
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  downloadTo: config.get("backupDir") ?? "backups",
  ...tls,
});

/** "adopted" for a site that existed, "created" if the machine was in no site after all. */
export const siteState = site.state;
export const siteMachines = site.machines;
export const baselineBackup = baseline.localPath;

"use strict";
/**
 * A Site, its SiteExport (downloaded to `downloadDir`) and its LogSettings (`logLevel: WARNING`),
 * the two taking the Site's outputs and running side by side, as a fleet's site does
 * (docs/fleet.md). Stack config: adminUrl, caCert, sitePassword (secret), downloadDir.
 */
const pulumi = require("@pulumi/pulumi");
const { LogSettings, Site, SiteExport } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const tls = { caCert: config.require("caCert") };
  const site = new Site("site", {
    adminUrl: config.require("adminUrl"),
    username: "siteadmin",
    password: config.requireSecret("sitePassword"),
    tls,
  });
  const connection = {
    adminUrl: site.adminUrl,
    username: site.username,
    password: site.password,
    tls,
  };
  const backup = new SiteExport("backup", {
    ...connection,
    downloadTo: config.require("downloadDir"),
  });
  const logs = new LogSettings("logs", { ...connection, logLevel: "WARNING" });
  return { backupFile: backup.localPath, logLevel: logs.logLevel };
};

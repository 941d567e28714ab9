"use strict";
/**
 * The program of the real-engine LogSettings and SiteImport lifecycle, copied into the consumer
 * project: a Site on a fresh machine, a SiteImport that restores a local archive into it (uploaded
 * first), and a LogSettings applied after the restore (the restore replaces the log settings).
 * Stack config: serverType, adminUrl, caCert, siteUsername, sitePassword (secret), archive (a
 * local .agssite), logLevel, restoreOnDestroy ("true"/"false"), triggers (JSON array, optional),
 * archiveSha256 (optional), adminUrlSuffix (optional: appended to the site's URL where SiteImport
 * and LogSettings name it, e.g. "/", another spelling of the same server).
 */
const pulumi = require("@pulumi/pulumi");
const { LogSettings, Site, SiteImport } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const tls = { caCert: config.require("caCert") };
  const serverType = config.require("serverType");
  const site = new Site("site", {
    serverType,
    adminUrl: config.require("adminUrl"),
    username: config.require("siteUsername"),
    password: config.requireSecret("sitePassword"),
    tls,
  });
  // Site outputs: unknown during the first preview, so both resources are checked with unknowns.
  // SiteImport takes them as arguments, LogSettings as a connection declared once.
  const suffix = config.get("adminUrlSuffix") ?? "";
  const connection = {
    adminUrl: site.adminUrl.apply((url) => url + suffix),
    username: site.username,
    password: site.password,
    tls,
  };
  const restore = new SiteImport("restore", {
    serverType: site.serverType,
    ...connection,
    localArchive: config.require("archive"),
    ...(config.get("archiveSha256") === undefined
      ? {}
      : { archiveSha256: config.get("archiveSha256") }),
    ...(config.getObject("triggers") === undefined
      ? {}
      : { triggers: config.getObject("triggers") }),
  });
  const logs = new LogSettings(
    "logs",
    {
      serverType: site.serverType,
      connection,
      logLevel: config.require("logLevel"),
      restoreOnDestroy: config.getBoolean("restoreOnDestroy") ?? false,
    },
    { dependsOn: [restore] },
  );
  return {
    fingerprint: restore.fingerprint,
    outcome: restore.outcome,
    logLevel: logs.logLevel,
    previousLogLevel: logs.previousSettings.apply((p) => p.logLevel),
  };
};

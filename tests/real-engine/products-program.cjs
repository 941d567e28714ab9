"use strict";
/**
 * The program of the real-engine LogSettings and SiteImport lifecycle on every product at once,
 * copied into the consumer project: for each product, a Site on a fresh machine, a SiteImport that
 * restores a local archive of the product into it (uploaded first), and a LogSettings applied
 * after the restore (the restore replaces the log settings). One stack declares them all, so each
 * `pulumi` run covers every product.
 * Stack config: products (JSON array of { serverType, adminUrl, caCert, archive }), siteUsername,
 * sitePassword (secret), logLevel, restoreOnDestroy ("true"/"false").
 * Outputs, per product `<serverType>`: `<serverType>-fingerprint`, `-outcome`, `-logLevel`,
 * `-previousLogLevel`.
 */
const pulumi = require("@pulumi/pulumi");
const { LogSettings, Site, SiteImport } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const outputs = {};
  for (const { serverType, adminUrl, caCert, archive } of config.requireObject("products")) {
    const tls = { caCert };
    const site = new Site(`site-${serverType}`, {
      serverType,
      adminUrl,
      username: config.require("siteUsername"),
      password: config.requireSecret("sitePassword"),
      tls,
    });
    // Site outputs: unknown during the first preview, so both resources are checked with unknowns.
    const connection = {
      adminUrl: site.adminUrl,
      username: site.username,
      password: site.password,
      tls,
    };
    const restore = new SiteImport(`restore-${serverType}`, {
      serverType: site.serverType,
      ...connection,
      localArchive: archive,
    });
    const logs = new LogSettings(
      `logs-${serverType}`,
      {
        serverType: site.serverType,
        connection,
        logLevel: config.require("logLevel"),
        restoreOnDestroy: config.getBoolean("restoreOnDestroy") ?? false,
      },
      { dependsOn: [restore] },
    );
    outputs[`${serverType}-fingerprint`] = restore.fingerprint;
    outputs[`${serverType}-outcome`] = restore.outcome;
    outputs[`${serverType}-logLevel`] = logs.logLevel;
    outputs[`${serverType}-previousLogLevel`] = logs.previousSettings.apply((p) => p.logLevel);
  }
  return outputs;
};

"use strict";
/**
 * A site's upgrade and its system properties, on a site that exists already: a SiteUpgrade, and a
 * SystemProperties that waits for it (the site serves nothing while an upgrade is due). Stack
 * config: adminUrl, serverType, caCert (none for plain http), sitePassword (secret), properties
 * (JSON), restoreOnDestroy, upgradeMs.
 */
const pulumi = require("@pulumi/pulumi");
const { SiteUpgrade, SystemProperties } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const caCert = config.get("caCert");
  const connection = {
    serverType: config.require("serverType"),
    adminUrl: config.require("adminUrl"),
    username: "siteadmin",
    password: config.requireSecret("sitePassword"),
    ...(caCert === undefined ? {} : { tls: { caCert } }),
  };
  const upgrade = new SiteUpgrade("upgrade", {
    ...connection,
    timeouts: { upgradeMs: Number(config.get("upgradeMs") ?? 120000) },
  });
  const properties = new SystemProperties(
    "properties",
    {
      ...connection,
      properties: JSON.parse(config.require("properties")),
      restoreOnDestroy: config.getBoolean("restoreOnDestroy") ?? false,
    },
    { dependsOn: upgrade },
  );
  return {
    outcome: upgrade.outcome,
    upgradesSent: upgrade.upgradesSent,
    toVersion: upgrade.toVersion,
    properties: properties.properties,
    previousProperties: properties.previousProperties,
    addedProperties: properties.addedProperties,
    adminUrls: [upgrade.adminUrl, properties.adminUrl],
  };
};

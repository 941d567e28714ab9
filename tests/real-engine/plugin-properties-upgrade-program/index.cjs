/**
 * The plugin program of tests/real-engine/properties-upgrade.test.ts: a SiteUpgrade and a
 * SystemProperties through the provider plugin `pulumi-resource-arcgis-admin` (found on PATH),
 * declared by their type tokens as any language's SDK declares them. The administrator's
 * credentials come from the provider's configuration (`arcgis-admin:username`, the secret
 * `arcgis-admin:password`). Stack config: adminUrl, caCert, properties (JSON).
 */
"use strict";
const pulumi = require("@pulumi/pulumi");

module.exports = async () => {
  const config = new pulumi.Config();
  const connection = {
    serverType: "arcgis-server",
    adminUrl: config.require("adminUrl"),
    tls: { caCert: config.require("caCert") },
  };
  const upgrade = new pulumi.CustomResource("arcgis-admin:index:SiteUpgrade", "upgrade", {
    ...connection,
    outcome: undefined,
    upgradesSent: undefined,
  });
  const properties = new pulumi.CustomResource(
    "arcgis-admin:index:SystemProperties",
    "properties",
    {
      ...connection,
      properties: JSON.parse(config.require("properties")),
      restoreOnDestroy: true,
      previousProperties: undefined,
    },
    { dependsOn: upgrade },
  );
  return {
    outcome: upgrade.outcome,
    upgradesSent: upgrade.upgradesSent,
    previousProperties: properties.previousProperties,
  };
};

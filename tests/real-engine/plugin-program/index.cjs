/**
 * The program of tests/real-engine/plugin.test.ts: a Site through the provider plugin
 * `pulumi-resource-arcgis-admin` (found on PATH), declared by its type token as any language's
 * SDK declares it. The administrator's credentials come from the provider's configuration
 * (stack config `arcgis-admin:username` and the secret `arcgis-admin:password`), the connection
 * defaults that YAML and Python programs use.
 */
"use strict";
const pulumi = require("@pulumi/pulumi");

module.exports = async () => {
  const config = new pulumi.Config();
  const site = new pulumi.CustomResource("arcgis-admin:index:Site", "site", {
    adminUrl: config.require("adminUrl"),
    tls: { caCert: config.require("caCert") },
    configStoreConnection: { type: "FILESYSTEM", connectionString: config.require("configStore") },
    // A site whose defining inputs change is replaced only when it may be deleted.
    deleteSiteOnDestroy: true,
    state: undefined,
    createdAt: undefined,
  });
  return { state: site.state, createdAt: site.createdAt };
};

/**
 * A Site and its Federation through the provider plugin `pulumi-resource-arcgis-admin` (found on
 * PATH), declared by their type tokens as any language's SDK declares them. Stack config:
 * adminUrl, sharingUrl, serverFunction, sitePassword and portalPassword (secrets).
 */
"use strict";
const pulumi = require("@pulumi/pulumi");

module.exports = async () => {
  const config = new pulumi.Config();
  const site = new pulumi.CustomResource("arcgis-admin:index:Site", "site", {
    adminUrl: config.require("adminUrl"),
    username: "siteadmin",
    password: config.requireSecret("sitePassword"),
    state: undefined,
  });
  const federation = new pulumi.CustomResource("arcgis-admin:index:Federation", "federation", {
    sharingUrl: config.require("sharingUrl"),
    username: "portaladmin",
    password: config.requireSecret("portalPassword"),
    serverType: "mission-server",
    adminUrl: site.adminUrl,
    serverUsername: "siteadmin",
    serverPassword: config.requireSecret("sitePassword"),
    serverFunction: config.require("serverFunction"),
    state: undefined,
    serverId: undefined,
  });
  return { state: federation.state, serverId: federation.serverId };
};

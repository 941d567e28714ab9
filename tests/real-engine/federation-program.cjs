"use strict";
/**
 * The program of the real-engine Federation lifecycle, copied into the consumer project: for each
 * server in stack config `servers` (JSON: name, serverType, adminUrl, caCert), a Site and its
 * Federation with one portal (sharingUrl, portalCaCert, portalUsername, portalPassword secret).
 * Also: sitePassword (secret); `<name>Function` and `<name>Role` (optional) set that server's
 * function and role; `adoptSites` and `<name>Adopt` (booleans) set the Sites' and that
 * Federation's adoptExisting.
 */
const pulumi = require("@pulumi/pulumi");
const { Federation, Site } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const outputs = {};
  for (const server of config.requireObject("servers")) {
    const site = new Site(server.name, {
      serverType: server.serverType,
      adminUrl: server.adminUrl,
      username: "siteadmin",
      password: config.requireSecret("sitePassword"),
      ...(server.caCert === undefined ? {} : { tls: { caCert: server.caCert } }),
      adoptExisting: config.getBoolean("adoptSites") ?? false,
    });
    const federation = new Federation(`${server.name}-federation`, {
      sharingUrl: config.require("sharingUrl"),
      username: config.require("portalUsername"),
      password: config.requireSecret("portalPassword"),
      ...(config.get("portalCaCert") === undefined
        ? {}
        : { tls: { caCert: config.get("portalCaCert") } }),
      serverType: site.serverType,
      adminUrl: site.adminUrl,
      serverUsername: site.username,
      serverPassword: site.password,
      adoptExisting: config.getBoolean(`${server.name}Adopt`) ?? false,
      ...(config.get(`${server.name}Role`) === undefined
        ? {}
        : { serverRole: config.get(`${server.name}Role`) }),
      ...(config.get(`${server.name}Function`) === undefined
        ? {}
        : { serverFunction: config.get(`${server.name}Function`) }),
    });
    outputs[`${server.name}ServerId`] = federation.serverId;
    outputs[`${server.name}State`] = federation.state;
  }
  return outputs;
};

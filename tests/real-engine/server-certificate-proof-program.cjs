"use strict";
/**
 * The program of the real-engine proof of ServerCertificate's certificate, copied into the
 * consumer project: a Site (adminUrl, sitePassword secret) and, for each name of `declared` (a
 * JSON list of { name, webServerUrlFromSite }), a ServerCertificate of its machine whose PKCS #12
 * file and password are `certs[name]` (one secret JSON object), with the organisation's root
 * (orgRootPem) as its CA certificate. Its webServerUrl is `webServerUrl`, or, with
 * webServerUrlFromSite, the same URL taken from the Site's id: another resource's output, unknown
 * at preview while the Site is still to be created.
 */
const pulumi = require("@pulumi/pulumi");
const { ServerCertificate, Site } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const site = new Site("site", {
    serverType: "arcgis-server",
    adminUrl: config.require("adminUrl"),
    username: "siteadmin",
    password: config.requireSecret("sitePassword"),
  });
  const webServerUrl = config.require("webServerUrl");
  const certs = config.requireSecretObject("certs");
  for (const { name, webServerUrlFromSite } of config.requireObject("declared")) {
    new ServerCertificate(name, {
      serverType: site.serverType,
      adminUrl: site.adminUrl,
      webServerUrl: webServerUrlFromSite ? site.id.apply(() => webServerUrl) : webServerUrl,
      username: site.username,
      password: site.password,
      machineName: config.require("machineName"),
      caCertificates: [{ alias: "orgroot", pem: config.require("orgRootPem") }],
      pkcs12: certs.apply((all) => all[name].pkcs12),
      certPassword: certs.apply((all) => all[name].certPassword),
      alias: name,
    });
  }
};

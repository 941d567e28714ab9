"use strict";
/**
 * The program of the real-engine proof of ServerCertificate's certificate, copied into the
 * consumer project: a Site (adminUrl, sitePassword secret) and, for each name of `declared` (a
 * JSON list of { name, webServerUrlAfter }), a ServerCertificate of its machine whose PKCS #12
 * file and password are `certs[name]` (one secret JSON object), with the organisation's root
 * (orgRootPem) as its CA certificate. Its webServerUrl is `webServerUrl`, or, with
 * webServerUrlAfter, the same URL taken from the outputs of the Site and of the certificates
 * declared before it: other resources' outputs, unknown at preview while they are to be created,
 * and known at up only once they are.
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
  const before = [site.id];
  for (const { name, webServerUrlAfter } of config.requireObject("declared")) {
    const certificate = new ServerCertificate(name, {
      serverType: site.serverType,
      adminUrl: site.adminUrl,
      webServerUrl: webServerUrlAfter
        ? pulumi.all([...before]).apply(() => webServerUrl)
        : webServerUrl,
      username: site.username,
      password: site.password,
      machineName: config.require("machineName"),
      caCertificates: [{ alias: "orgroot", pem: config.require("orgRootPem") }],
      pkcs12: certs.apply((all) => all[name].pkcs12),
      certPassword: certs.apply((all) => all[name].certPassword),
      alias: name,
    });
    before.push(certificate.id);
  }
};

"use strict";
/**
 * The program of the real-engine ServerCertificate lifecycle, copied into the consumer project: a
 * Site (adminUrl, machineName, caCert: the certificates to trust, sitePassword secret) and the
 * ServerCertificate of its machine (orgRootPem, pfxBase64 and pfxPassword secret; rebind: true
 * sets rebindPreviousOnDestroy). certificateAdminUrl (else the site's adminUrl) and webServerUrl
 * let the certificate's admin calls go through a fault proxy while its TLS check reaches the
 * machine itself.
 *
 * With `declared` (a JSON list of { name, webServerUrlAfter }), the ServerCertificates are those
 * instead, each named so, its PKCS #12 file and password from `certs[name]` (one secret JSON
 * object). Its webServerUrl is `webServerUrl`, or, with webServerUrlAfter, the same URL taken from
 * the outputs of the Site and of the certificates declared before it: other resources' outputs,
 * unknown at preview while they are to be created, and known at up only once they are.
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
    tls: { caCert: config.require("caCert") },
  });
  const certificate = (name, args) =>
    new ServerCertificate(name, {
      serverType: site.serverType,
      adminUrl: config.get("certificateAdminUrl") ?? site.adminUrl,
      webServerUrl: config.get("webServerUrl"),
      username: site.username,
      password: site.password,
      tls: site.tls,
      machineName: config.require("machineName"),
      caCertificates: [{ alias: "orgroot", pem: config.require("orgRootPem") }],
      ...args,
    });
  const declared = config.getObject("declared");
  if (declared !== undefined) {
    const certs = config.requireSecretObject("certs");
    const before = [site.id];
    for (const { name, webServerUrlAfter } of declared) {
      const url = config.require("webServerUrl");
      const declaredOne = certificate(name, {
        webServerUrl: webServerUrlAfter ? pulumi.all([...before]).apply(() => url) : url,
        pkcs12: certs.apply((all) => all[name].pkcs12),
        certPassword: certs.apply((all) => all[name].certPassword),
        alias: name,
      });
      before.push(declaredOne.id);
    }
    return {};
  }
  const https = certificate("https", {
    pkcs12: config.requireSecret("pfxBase64"),
    certPassword: config.requireSecret("pfxPassword"),
    alias: "gis",
    rebindPreviousOnDestroy: config.getBoolean("rebind") ?? false,
  });
  return {
    certificateAlias: https.certificateAlias,
    sha256Fingerprint: https.sha256Fingerprint,
    previousAlias: https.previousAlias,
  };
};

"use strict";
/**
 * The program of the real-engine ServerCertificate lifecycle, copied into the consumer project: a
 * Site (adminUrl, machineName, caCert: the certificates to trust, sitePassword secret) and the
 * ServerCertificate of its machine (orgRootPem, pfxBase64 and pfxPassword secret; rebind: true
 * sets rebindPreviousOnDestroy). certificateAdminUrl (else the site's adminUrl) and webServerUrl
 * let the certificate's admin calls go through a fault proxy while its TLS check reaches the
 * machine itself.
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
  const https = new ServerCertificate("https", {
    serverType: site.serverType,
    adminUrl: config.get("certificateAdminUrl") ?? site.adminUrl,
    webServerUrl: config.get("webServerUrl"),
    username: site.username,
    password: site.password,
    tls: site.tls,
    machineName: config.require("machineName"),
    caCertificates: [{ alias: "orgroot", pem: config.require("orgRootPem") }],
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

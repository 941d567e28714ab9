"use strict";
/**
 * The three day-three resources on one existing ArcGIS Server site, for the killed-run and
 * Ctrl-C suite (day-three-recovery.test.ts): a SiteUpgrade, a SystemProperties and the
 * ServerCertificate of the site's machine. None waits for another, so that one signal lands
 * while all three are mid-call; the test holds the other two until the upgrade is done (a real
 * program would give them `dependsOn: upgrade`). Stack config: adminUrl (the admin calls),
 * webServerUrl (the TLS check), machineName, orgRootPem, properties (JSON), and secrets (secret
 * JSON: sitePassword, pfxPassword, pfx.first and pfx.renewed). With DAY_THREE_RENEWAL=true in the
 * environment it declares the renewal and another WebContextURL, so that the test changes the
 * declaration without a config command.
 */
const pulumi = require("@pulumi/pulumi");
const { ServerCertificate, SiteUpgrade, SystemProperties } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const secrets = config.requireSecretObject("secrets");
  const connection = {
    serverType: "arcgis-server",
    adminUrl: config.require("adminUrl"),
    username: "siteadmin",
    password: secrets.apply((s) => s.sitePassword),
  };
  const upgrade = new SiteUpgrade("upgrade", connection);
  const renewal = process.env.DAY_THREE_RENEWAL === "true";
  const declared = JSON.parse(config.require("properties"));
  const properties = new SystemProperties("properties", {
    ...connection,
    properties: renewal
      ? { ...declared, WebContextURL: "https://gis2.example.com/server" }
      : declared,
    restoreOnDestroy: true,
  });
  const certificate = renewal ? "renewed" : "first";
  const https = new ServerCertificate("https", {
    ...connection,
    webServerUrl: config.require("webServerUrl"),
    machineName: config.require("machineName"),
    caCertificates: [{ alias: "orgroot", pem: config.require("orgRootPem") }],
    pkcs12: secrets.apply((s) => s.pfx[certificate]),
    certPassword: secrets.apply((s) => s.pfxPassword),
    alias: "gis",
    rebindPreviousOnDestroy: true,
  });
  return {
    outcome: upgrade.outcome,
    upgradesSent: upgrade.upgradesSent,
    properties: properties.properties,
    previousProperties: properties.previousProperties,
    addedProperties: properties.addedProperties,
    certificateAlias: https.certificateAlias,
    previousAlias: https.previousAlias,
    sha256Fingerprint: https.sha256Fingerprint,
  };
};

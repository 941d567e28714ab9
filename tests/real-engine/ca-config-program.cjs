"use strict";
/**
 * A Site that names the stack config key `arcgis-admin:caCert` for its CA certificate
 * (`tls.caCertConfig`), and its LogSettings, which names the project's key `caCert`, or with
 * `logsInline` gives that certificate itself (`tls.caCert`), and puts back on destroy what it
 * wrote. Stack config: adminUrl, sitePassword (secret), caCert, logsInline, arcgis-admin:caCert.
 */
const pulumi = require("@pulumi/pulumi");
const { LogSettings, Site } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const site = new Site("site", {
    adminUrl: config.require("adminUrl"),
    username: "siteadmin",
    password: config.requireSecret("sitePassword"),
    tls: { caCertConfig: "arcgis-admin:caCert" },
  });
  const logs = new LogSettings("logs", {
    adminUrl: site.adminUrl,
    username: site.username,
    password: site.password,
    tls: config.getBoolean("logsInline")
      ? { caCert: config.require("caCert") }
      : { caCertConfig: "caCert" },
    logLevel: "DEBUG",
    restoreOnDestroy: true,
  });
  return { logLevel: logs.logLevel };
};

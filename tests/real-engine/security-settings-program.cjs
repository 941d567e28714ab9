/**
 * The program of tests/real-engine/security-settings.test.ts: one SecuritySettings, declared
 * through the package's class (the dynamic path) or, with `viaPlugin`, by its type token through
 * the provider plugin `pulumi-resource-arcgis-admin` (found on PATH). The administrator's
 * credentials come from the stack config `arcgis-admin:username` and the secret
 * `arcgis-admin:password`, which both paths read. Stack config: server (JSON: serverType,
 * adminUrl, caCert), settings (JSON: the SecuritySettings inputs to declare), viaPlugin.
 */
"use strict";
const pulumi = require("@pulumi/pulumi");
const { SecuritySettings } = require("pulumi-arcgis-admin");

module.exports = async () => {
  const config = new pulumi.Config();
  const server = JSON.parse(config.require("server"));
  const args = {
    serverType: server.serverType,
    adminUrl: server.adminUrl,
    ...(server.caCert === undefined ? {} : { tls: { caCert: server.caCert } }),
    ...JSON.parse(config.require("settings")),
  };
  const security =
    config.getBoolean("viaPlugin") === true
      ? new pulumi.CustomResource("arcgis-admin:index:SecuritySettings", "security", {
          ...args,
          previousSettings: undefined,
          writtenSettings: undefined,
          serverSecuritySettings: undefined,
        })
      : new SecuritySettings("security", args);
  return {
    previousSettings: security.previousSettings,
    writtenSettings: security.writtenSettings,
    serverSecuritySettings: security.serverSecuritySettings,
  };
};

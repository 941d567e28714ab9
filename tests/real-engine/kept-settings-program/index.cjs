/**
 * The program of tests/real-engine/kept-settings.test.ts: on each target server, a LogSettings
 * and a SystemProperties with `restoreOnDestroy`, declared through the package's classes (the
 * dynamic path) or, with `viaPlugin`, by their type tokens through the provider plugin
 * `pulumi-resource-arcgis-admin` (found on PATH), as any language's SDK declares them. The
 * administrator's credentials come from the stack config `arcgis-admin:username` and the secret
 * `arcgis-admin:password`, which both paths read. Stack config: targets (JSON: name, adminUrl,
 * caCert of each), logLevel, webContextUrl, viaPlugin.
 */
"use strict";
const pulumi = require("@pulumi/pulumi");
const { LogSettings, SystemProperties } = require("pulumi-arcgis-admin");

module.exports = async () => {
  const config = new pulumi.Config();
  const viaPlugin = config.getBoolean("viaPlugin") ?? false;
  // A CustomResource has the outputs its arguments name: the record is asked for by name.
  const declare = (type, Class, name, args, output) =>
    viaPlugin
      ? new pulumi.CustomResource(`arcgis-admin:index:${type}`, name, {
          ...args,
          [output]: undefined,
        })
      : new Class(name, args);
  const out = {};
  for (const target of JSON.parse(config.require("targets"))) {
    const connection = {
      serverType: "mission-server",
      adminUrl: target.adminUrl,
      tls: { caCert: target.caCert },
      restoreOnDestroy: true,
    };
    const logs = declare(
      "LogSettings",
      LogSettings,
      `${target.name}-logs`,
      {
        ...connection,
        logLevel: config.require("logLevel"),
      },
      "writtenSettings",
    );
    const properties = declare(
      "SystemProperties",
      SystemProperties,
      `${target.name}-props`,
      {
        ...connection,
        properties: { WebContextURL: config.require("webContextUrl") },
      },
      "writtenProperties",
    );
    out[target.name] = {
      writtenSettings: logs.writtenSettings,
      writtenProperties: properties.writtenProperties,
    };
  }
  return out;
};

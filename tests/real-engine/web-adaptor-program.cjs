"use strict";
/**
 * The program of the real-engine WebAdaptor suite, copied into the consumer project: one
 * WebAdaptor in front of a site made beforehand. Stack config: webAdaptorUrl, adminUrl, caCert,
 * username, password; `adminAccess`, `adoptExisting`, `unregisterAdoptedOnDestroy`
 * (booleans, optional).
 */
const pulumi = require("@pulumi/pulumi");
const { WebAdaptor } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const optional = (key) =>
    config.getBoolean(key) === undefined ? {} : { [key]: config.getBoolean(key) };
  const adaptor = new WebAdaptor("wa", {
    webAdaptorUrl: config.require("webAdaptorUrl"),
    adminUrl: config.require("adminUrl"),
    username: config.require("username"),
    // Plain here: the WebAdaptor itself keeps it secret in state.
    password: config.require("password"),
    tls: { caCert: config.require("caCert") },
    ...optional("adminAccess"),
    ...optional("adoptExisting"),
    ...optional("unregisterAdoptedOnDestroy"),
  });
  return {
    state: adaptor.state,
    webAdaptorId: adaptor.webAdaptorId,
    registeredUrl: adaptor.registeredUrl,
    isAdminEnabled: adaptor.isAdminEnabled,
  };
};

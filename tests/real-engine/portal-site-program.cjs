"use strict";
/**
 * The program of the real-engine PortalSite suite, copied into the consumer project: one
 * PortalSite. Stack config: sharingUrl, caCert (optional), portalPassword and securityAnswer
 * (secrets; the answer read as plain text), adopt (boolean: adoptExisting), createMs (optional: timeouts.createMs).
 */
const pulumi = require("@pulumi/pulumi");
const { PortalSite } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const caCert = config.get("caCert");
  const createMs = config.getNumber("createMs");
  const portal = new PortalSite("portal", {
    sharingUrl: config.require("sharingUrl"),
    username: "portaladmin",
    password: config.requireSecret("portalPassword"),
    fullName: "Portal Administrator",
    email: "gis-admins@example.com",
    description: "The portal's first administrator",
    securityQuestionIdx: 1,
    // Given as plain text: the class stores it as a secret (the definition's `secret`).
    securityAnswer: config.require("securityAnswer"),
    contentStore: {
      type: "fileStore",
      provider: "FileSystem",
      connectionString: "/arcgis/content",
    },
    userLicenseTypeId: "creatorUT",
    adoptExisting: config.getBoolean("adopt") ?? false,
    ...(caCert === undefined ? {} : { tls: { caCert } }),
    ...(createMs === undefined ? {} : { timeouts: { createMs } }),
  });
  return { state: portal.state, portalAdminUrl: portal.portalAdminUrl, username: portal.username };
};

/**
 * The program of the plugin case of tests/real-engine/portal-site.test.ts: a PortalSite through
 * the provider plugin `pulumi-resource-arcgis-admin` (found on PATH), declared by its type token
 * as any language's SDK declares it. The portal and its administrator come from the provider's
 * configuration (stack config `arcgis-admin:sharingUrl`, `arcgis-admin:portalUsername` and the
 * secret `arcgis-admin:portalPassword`), the connection defaults that YAML and Python programs
 * use.
 */
"use strict";
const pulumi = require("@pulumi/pulumi");

module.exports = async () => {
  const portal = new pulumi.CustomResource("arcgis-admin:index:PortalSite", "portal", {
    fullName: "Portal Administrator",
    email: "gis-admins@example.com",
    contentStore: {
      type: "fileStore",
      provider: "FileSystem",
      connectionString: "/arcgis/content",
    },
    state: undefined,
    portalAdminUrl: undefined,
  });
  return { state: portal.state, portalAdminUrl: portal.portalAdminUrl };
};

"use strict";
/**
 * The TypeScript-path program of tests/real-engine/wording.test.ts: the package's classes through
 * Pulumi's dynamic-provider host, one scenario per run (stack config `scenario`):
 * - `missing-password`: a Site with adminUrl and username and no password anywhere;
 * - `null-server-password`: a Federation whose serverPassword resolves to nothing at run time;
 * - `portal-password`: a Collaboration whose portal password is wrong;
 * - `server-password`: a Federation whose server password is wrong;
 * - `untrusted`: a Site without tls.caCert against a server of a private CA;
 * - `site`: a Site with `caCert` (the diff test changes it).
 * Other stack config: adminUrl, sharingUrl, caCert, password (secret), portalPassword (secret).
 */
const pulumi = require("@pulumi/pulumi");
const { Collaboration, Federation, Site } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const scenario = config.require("scenario");
  const caCert = config.get("caCert");
  const tls = caCert === undefined ? {} : { tls: { caCert } };
  const adminUrl = config.require("adminUrl");
  switch (scenario) {
    case "missing-password":
      new Site("site", { adminUrl, username: "siteadmin", ...tls });
      return {};
    case "missing-password-async":
      return (async () => {
        await new Promise((r) => setTimeout(r, 10));
        new Site("site", { adminUrl, username: "siteadmin", ...tls });
        return {};
      })();
    case "null-password":
      new Site("site", { adminUrl, username: "siteadmin", password: pulumi.output(undefined), ...tls });
      return {};
    case "untrusted":
      new Site("site", { adminUrl, username: "siteadmin", password: config.requireSecret("password") });
      return {};
    case "site":
      new Site("site", { adminUrl, username: "siteadmin", password: config.requireSecret("password"), ...tls });
      return {};
    case "null-server-password":
    case "server-password":
      new Federation("federation", {
        sharingUrl: config.require("sharingUrl"),
        username: "gisadmin",
        password: config.requireSecret("portalPassword"),
        adminUrl,
        serverUsername: "siteadmin",
        serverPassword:
          scenario === "server-password"
            ? pulumi.secret("wrong-Server-Pass-1")
            : config.getSecret("serverPasswordNowhere"),
        ...tls,
      });
      return {};
    case "portal-password":
      new Collaboration("partners", {
        sharingUrl: config.require("sharingUrl"),
        collaborationId: "hosted1",
        username: "gisadmin",
        password: pulumi.secret("wrong-Portal-Pass-1"),
        ...tls,
      });
      return {};
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
};

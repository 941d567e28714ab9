"use strict";
/**
 * The Pulumi program of the real-engine suite, copied into the consumer project (so that
 * `pulumi-arcgis-admin` resolves to the packed package installed there). It is the quick start's
 * shape (a Site, its SiteExport downloaded to a folder, a Collaboration), driven by stack config:
 * - adminUrl, sharingUrl, caCert, siteUsername, sitePassword (secret), portalUsername,
 *   portalPassword (secret), collaborationId, downloadDir;
 * - connectionSecret (secret): a cloud config store whose credentials are this secret;
 * - siteExtra (object): more Site inputs (bad ones for the preview tests, a changed one for the
 *   diff test); siteOnly (boolean): the Site alone (and the SiteMachine below, if configured);
 * - secondAdminUrl, secondMachineName: a second machine joining the site (SiteMachine "second");
 * - siteOptions (object): resource options of the Site (e.g. aliases);
 * - legacyType (boolean): register the Site as versions before 0.2 did, under Pulumi's default
 *   dynamic type `pulumi-nodejs:dynamic:Resource` (same provider, inputs and options).
 */
const pulumi = require("@pulumi/pulumi");
const {
  Collaboration,
  Site,
  SiteExport,
  SiteMachine,
  siteProvider,
} = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const caCert = config.get("caCert");
  const tls = caCert === undefined ? {} : { tls: { caCert } };
  const connectionSecret = config.getSecret("connectionSecret");
  const siteArgs = {
    adminUrl: config.require("adminUrl"),
    username: config.require("siteUsername"),
    password: config.requireSecret("sitePassword"),
    ...tls,
    ...(connectionSecret === undefined
      ? {}
      : {
          configStoreConnection: {
            type: "AZURE",
            connectionString: "DefaultEndpointsProtocol=https;AccountName=arcgisstore",
            connectionSecret,
          },
        }),
    ...(config.getObject("siteExtra") ?? {}),
  };
  const siteOptions = config.getObject("siteOptions") ?? {};
  const site =
    config.getBoolean("legacyType") === true
      ? new pulumi.dynamic.Resource(
          siteProvider,
          "site",
          {
            ...siteArgs,
            password: pulumi.secret(siteArgs.password),
            state: undefined,
            createdAt: undefined,
            machines: undefined,
            serverVersion: undefined,
            serverLogSettings: undefined,
          },
          { ...siteOptions, additionalSecretOutputs: ["password"] },
        )
      : new Site("site", siteArgs, siteOptions);
  const outputs = {
    siteState: site.state,
    siteVersion: site.serverVersion,
    siteAdminUrl: site.adminUrl,
  };
  const secondAdminUrl = config.get("secondAdminUrl");
  if (secondAdminUrl !== undefined) {
    const second = new SiteMachine("second", {
      adminUrl: secondAdminUrl,
      siteAdminUrl: site.adminUrl,
      machineName: config.require("secondMachineName"),
      username: site.username,
      password: site.password,
      ...tls,
    });
    outputs.secondState = second.state;
    outputs.secondMachines = second.machines;
  }
  if (config.getBoolean("siteOnly") === true) return outputs;

  const backup = new SiteExport("backup", {
    adminUrl: site.adminUrl,
    username: site.username,
    password: site.password,
    downloadTo: config.require("downloadDir"),
    ...tls,
  });
  const collaboration = new Collaboration("partners", {
    sharingUrl: config.require("sharingUrl"),
    collaborationId: config.require("collaborationId"),
    username: config.require("portalUsername"),
    password: config.requireSecret("portalPassword"),
    ...tls,
  });
  return {
    ...outputs,
    backupFile: backup.localPath,
    backupSha256: backup.sha256,
    collaborationName: collaboration.name,
  };
};

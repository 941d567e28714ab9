"use strict";
/**
 * The four creates of killed-run.test.ts in one program, so that one killed `pulumi up` finds
 * all four mid-call: a Site on its own machine ("site"), a SiteMachine ("second") joining
 * another machine to a site the program creates ("machine-site"), a LogSettings of that site
 * ("machine-logs", DEBUG, with restoreOnDestroy), and a Federation ("mission-federation") of a
 * third site ("mission") with that machine's portal. None waits for another. Stack config:
 * sitePassword (secret); site, machine and mission (JSON: adminUrl, caCert; machine also
 * secondAdminUrl, secondMachineName and logsAdminUrl; mission also sharingUrl);
 * portalUsername, portalPassword (secret); siteAdopt and missionAdopt (booleans) set the first
 * Site's and the Federation's adoptExisting.
 */
const pulumi = require("@pulumi/pulumi");
const { Federation, LogSettings, Site, SiteMachine } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const password = config.requireSecret("sitePassword");
  const siteOf = (name, { adminUrl, caCert }, extra = {}) =>
    new Site(name, { adminUrl, username: "siteadmin", password, tls: { caCert }, ...extra });

  const target = config.requireObject("site");
  const site = siteOf("site", target, { adoptExisting: config.getBoolean("siteAdopt") ?? false });

  const machine = config.requireObject("machine");
  const machineSite = siteOf("machine-site", machine);
  const second = new SiteMachine("second", {
    adminUrl: machine.secondAdminUrl,
    siteAdminUrl: machineSite.adminUrl,
    machineName: machine.secondMachineName,
    username: machineSite.username,
    password: machineSite.password,
    tls: { caCert: machine.caCert },
  });
  // The log settings of that site, through the test's plain-HTTP proxy of its machine.
  const machineLogs = new LogSettings(
    "machine-logs",
    {
      adminUrl: machine.logsAdminUrl,
      username: machineSite.username,
      password: machineSite.password,
      logLevel: "DEBUG",
      restoreOnDestroy: true,
    },
    { dependsOn: [machineSite] },
  );

  const mission = config.requireObject("mission");
  const missionSite = siteOf("mission", mission, { serverType: "mission-server" });
  const federation = new Federation("mission-federation", {
    sharingUrl: mission.sharingUrl,
    username: config.require("portalUsername"),
    password: config.requireSecret("portalPassword"),
    tls: { caCert: mission.caCert },
    serverType: missionSite.serverType,
    adminUrl: missionSite.adminUrl,
    serverUsername: missionSite.username,
    serverPassword: missionSite.password,
    adoptExisting: config.getBoolean("missionAdopt") ?? false,
  });

  return {
    siteState: site.state,
    machineSiteState: machineSite.state,
    secondState: second.state,
    machineLogLevel: machineLogs.logLevel,
    missionState: federation.state,
    missionServerId: federation.serverId,
  };
};

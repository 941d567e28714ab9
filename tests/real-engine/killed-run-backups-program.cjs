"use strict";
/**
 * The creates of killed-run-backups.test.ts in one program, so that one killed `pulumi up` finds
 * them all mid-call. On one machine ("restore"): a mission-server Site ("import-site"), a
 * SiteImport of a local archive ("restore") and a LogSettings applied after it ("import-logs").
 * On another machine and its portal: a Site ("site"), its SiteExport ("backup", downloaded to a
 * folder), a Collaboration ("partners") and a LogSettings ("logs", INFO: not the site's
 * default, so it has an edit to make) that runs beside the export, as a fleet's site does
 * (docs/fleet.md). Stack config: sitePassword (secret); restore (JSON: adminUrl, caCert,
 * archive); export (JSON: adminUrl, caCert, sharingUrl, downloadDir, collaborationId);
 * portalUsername, portalPassword (secret).
 */
const pulumi = require("@pulumi/pulumi");
const { Collaboration, LogSettings, Site, SiteExport, SiteImport } = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const password = config.requireSecret("sitePassword");

  const restore = config.requireObject("restore");
  const importSite = new Site("import-site", {
    serverType: "mission-server",
    adminUrl: restore.adminUrl,
    username: "siteadmin",
    password,
    tls: { caCert: restore.caCert },
  });
  const restoring = {
    adminUrl: importSite.adminUrl,
    username: importSite.username,
    password: importSite.password,
    tls: { caCert: restore.caCert },
  };
  const imported = new SiteImport("restore", {
    serverType: importSite.serverType,
    ...restoring,
    localArchive: restore.archive,
  });
  const importLogs = new LogSettings(
    "import-logs",
    { serverType: importSite.serverType, connection: restoring, logLevel: "WARNING" },
    { dependsOn: [imported] },
  );

  const exported = config.requireObject("export");
  const tls = { caCert: exported.caCert };
  // The test reaches this machine and its portal through a plain-HTTP proxy of its own (no TLS
  // then).
  const siteTls = exported.adminUrl.startsWith("https:") ? { tls } : {};
  const site = new Site("site", {
    adminUrl: exported.adminUrl,
    username: "siteadmin",
    password,
    ...siteTls,
  });
  const connection = {
    adminUrl: site.adminUrl,
    username: site.username,
    password: site.password,
    ...siteTls,
  };
  const backup = new SiteExport("backup", { ...connection, downloadTo: exported.downloadDir });
  const collaboration = new Collaboration("partners", {
    sharingUrl: exported.sharingUrl,
    collaborationId: exported.collaborationId,
    username: config.require("portalUsername"),
    password: config.requireSecret("portalPassword"),
    ...(exported.sharingUrl.startsWith("https:") ? { tls } : {}),
  });
  const logs = new LogSettings("logs", { ...connection, logLevel: "INFO" });

  return {
    outcome: imported.outcome,
    importLogLevel: importLogs.logLevel,
    siteState: site.state,
    backupFile: backup.localPath,
    collaborationName: collaboration.name,
    collaborationState: collaboration.state,
    logLevel: logs.logLevel,
  };
};

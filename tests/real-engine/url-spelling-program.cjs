"use strict";
/**
 * The program of url-spelling.test.ts, copied into the consumer project: every resource with a
 * URL input, each URL given as a plain string from config (not another resource's output), so
 * that one change of `suffix` respells every URL input of every resource in one run. On machine
 * "a": a mission-server Site ("site"), the SiteImport of a local archive ("restore"), then its
 * LogSettings ("logs"), SystemProperties ("properties"), SiteUpgrade ("upgrade"), a SiteMachine
 * joining machine "b" ("second"), the Federation of the site with machine a's portal
 * ("federation"), a Collaboration of that portal ("partners") and, last, a SiteExport downloaded to
 * a folder ("backup"). On machine "c": an arcgis-server Site ("cert-site") and its
 * ServerCertificate ("https"). Stack config: sitePassword, portalPassword, pfxBase64 and
 * pfxPassword (secrets); portalUsername; a (JSON: adminUrl, sharingUrl, caCert, archive,
 * downloadDir, collaborationId), b (JSON: adminUrl, machineName), c (JSON: adminUrl, caCert,
 * orgRootPem, machineName); suffix (appended to every URL, e.g. "/"); siteAdminUrl (optional: the
 * Site "site"'s own adminUrl, to move it to another server).
 */
const pulumi = require("@pulumi/pulumi");
const arcgis = require("pulumi-arcgis-admin");

module.exports = () => {
  const config = new pulumi.Config();
  const suffix = config.get("suffix") ?? "";
  const spell = (url) => url + suffix;
  const password = config.requireSecret("sitePassword");
  const account = { username: "siteadmin", password };

  const a = config.requireObject("a");
  const tls = { caCert: a.caCert };
  const server = { serverType: "mission-server", adminUrl: spell(a.adminUrl), ...account, tls };
  const site = new arcgis.Site("site", {
    ...server,
    adminUrl: config.get("siteAdminUrl") ?? server.adminUrl,
  });
  const restore = new arcgis.SiteImport(
    "restore",
    { ...server, localArchive: a.archive },
    { dependsOn: [site] },
  );
  const after = { dependsOn: [restore] };
  const logs = new arcgis.LogSettings("logs", { ...server, logLevel: "WARNING" }, after);
  const properties = new arcgis.SystemProperties(
    "properties",
    { ...server, properties: { WebContextURL: "https://gis.example.com/server" } },
    after,
  );
  const upgrade = new arcgis.SiteUpgrade("upgrade", server, after);
  const b = config.requireObject("b");
  const second = new arcgis.SiteMachine(
    "second",
    {
      serverType: "mission-server",
      adminUrl: spell(b.adminUrl),
      siteAdminUrl: spell(a.adminUrl),
      machineName: b.machineName,
      ...account,
      tls,
    },
    after,
  );
  const portal = {
    sharingUrl: spell(a.sharingUrl),
    username: config.require("portalUsername"),
    password: config.requireSecret("portalPassword"),
    tls,
  };
  const federation = new arcgis.Federation(
    "federation",
    {
      ...portal,
      serverType: "mission-server",
      adminUrl: spell(a.adminUrl),
      serverUrl: spell(a.adminUrl.replace(/\/admin$/, "")),
      serverUsername: account.username,
      serverPassword: password,
    },
    after,
  );
  const partners = new arcgis.Collaboration(
    "partners",
    { ...portal, collaborationId: a.collaborationId },
    after,
  );
  const backup = new arcgis.SiteExport(
    "backup",
    { ...server, downloadTo: a.downloadDir },
    { dependsOn: [logs, properties, upgrade, second, federation] },
  );

  const c = config.requireObject("c");
  const certTls = { caCert: `${c.caCert}\n${c.orgRootPem}` };
  const certSite = new arcgis.Site("cert-site", {
    serverType: "arcgis-server",
    adminUrl: spell(c.adminUrl),
    ...account,
    tls: certTls,
  });
  const https = new arcgis.ServerCertificate(
    "https",
    {
      serverType: "arcgis-server",
      adminUrl: spell(c.adminUrl),
      webServerUrl: spell(new URL(c.adminUrl).origin),
      ...account,
      tls: certTls,
      machineName: c.machineName,
      caCertificates: [{ alias: "orgroot", pem: c.orgRootPem }],
      pkcs12: config.requireSecret("pfxBase64"),
      certPassword: config.requireSecret("pfxPassword"),
      alias: "gis",
    },
    { dependsOn: [certSite] },
  );

  return {
    outcome: restore.outcome,
    logLevel: logs.logLevel,
    secondState: second.state,
    federationState: federation.state,
    collaborationName: partners.name,
    backupFile: backup.localPath,
    certificateAlias: https.certificateAlias,
  };
};

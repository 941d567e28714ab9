/**
 * The program of tests/real-engine/compat.test.ts: every resource the package exports, declared
 * as a user of an earlier release declared them, so that a stack written by that release can be
 * previewed and destroyed with the package of this tree. On the main machine (adminUrl): a Site,
 * its ServerCertificate, and after the bind a SiteMachine (the second machine joining),
 * a SiteExport downloaded to a folder, a LogSettings and a SystemProperties that restore on
 * destroy, and a Federation with the portal of that machine; a Collaboration of that portal; a
 * SiteUpgrade of another site whose software is newer; a Site on a fresh machine and a SiteImport
 * that restores an archive into it. Stack config: adminUrl, caCert (every machine's CA and the
 * organisation's), machineName, orgRootPem, pfxBase64 and pfxPassword (secrets), sitePassword
 * (secret), secondAdminUrl, secondMachineName, downloadDir, sharingUrl, portalUsername,
 * portalPassword (secret), collaborationId, upgradeAdminUrl, freshAdminUrl, archive.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  Collaboration,
  Federation,
  LogSettings,
  ServerCertificate,
  Site,
  SiteExport,
  SiteImport,
  SiteMachine,
  SiteUpgrade,
  SystemProperties,
} from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const tls = { caCert: config.require("caCert") };
const password = config.requireSecret("sitePassword");
const serverType = "arcgis-server" as const;

const site = new Site("site", {
  serverType,
  adminUrl: config.require("adminUrl"),
  username: "siteadmin",
  password,
  tls,
});
const onSite = {
  serverType: site.serverType,
  adminUrl: site.adminUrl,
  username: site.username,
  password: site.password,
  tls,
};
const certificate = new ServerCertificate("https", {
  ...onSite,
  machineName: config.require("machineName"),
  caCertificates: [{ alias: "orgroot", pem: config.require("orgRootPem") }],
  pkcs12: config.requireSecret("pfxBase64"),
  certPassword: config.requireSecret("pfxPassword"),
  alias: "gis",
});
// The machine's web server restarts with the new certificate: the rest waits for the bind.
const afterBind = { dependsOn: [certificate] };

const second = new SiteMachine(
  "second",
  {
    serverType,
    adminUrl: config.require("secondAdminUrl"),
    siteAdminUrl: site.adminUrl,
    machineName: config.require("secondMachineName"),
    username: site.username,
    password: site.password,
    tls,
  },
  afterBind,
);
const backup = new SiteExport(
  "backup",
  { ...onSite, downloadTo: config.require("downloadDir") },
  afterBind,
);
const logs = new LogSettings(
  "logs",
  { ...onSite, logLevel: "SEVERE", maxLogFileAge: 30, restoreOnDestroy: true },
  afterBind,
);
const properties = new SystemProperties(
  "properties",
  {
    ...onSite,
    properties: { WebContextURL: "https://gis.example.com/server" },
    restoreOnDestroy: true,
  },
  afterBind,
);
const portal = {
  sharingUrl: config.require("sharingUrl"),
  username: config.require("portalUsername"),
  password: config.requireSecret("portalPassword"),
  tls,
};
const federation = new Federation(
  "federation",
  {
    ...portal,
    serverType: site.serverType,
    adminUrl: site.adminUrl,
    serverUsername: site.username,
    serverPassword: site.password,
  },
  afterBind,
);
const collaboration = new Collaboration("partners", {
  ...portal,
  collaborationId: config.require("collaborationId"),
});

const upgrade = new SiteUpgrade("upgrade", {
  serverType,
  adminUrl: config.require("upgradeAdminUrl"),
  username: "siteadmin",
  password,
  tls,
});

const fresh = new Site("fresh", {
  serverType,
  adminUrl: config.require("freshAdminUrl"),
  username: "siteadmin",
  password,
  tls,
});
const restore = new SiteImport("restore", {
  serverType: fresh.serverType,
  adminUrl: fresh.adminUrl,
  username: fresh.username,
  password: fresh.password,
  tls,
  localArchive: config.require("archive"),
});

export const siteState = site.state;
export const fingerprint = certificate.sha256Fingerprint;
export const machines = second.machines;
export const backupFile = backup.localPath;
export const logLevel = logs.logLevel;
export const webContextUrl = properties.properties;
export const serverId = federation.serverId;
export const collaborationName = collaboration.name;
export const upgradeOutcome = upgrade.outcome;
export const restoreOutcome = restore.outcome;

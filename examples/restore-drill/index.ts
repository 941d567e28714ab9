/**
 * A restore drill: proves that a backup can be restored.
 *
 * 1. `SiteExport` backs up the production site and downloads the archive.
 * 2. `Site` creates a site on a fresh machine (deleted again by `pulumi destroy`).
 * 3. `SiteImport` restores the archive onto it (uploaded first, fingerprinted by its SHA-256).
 * 4. The program reads the log settings of both sites and compares them: the stack outputs say
 *    whether the restored configuration matches the production one.
 *
 * Production is the package's connection from stack config (docs/connection.md):
 * `arcgis-admin:adminUrl`, `arcgis-admin:username`, `arcgis-admin:password` (secret) and
 * optionally `arcgis-admin:caCert`, or the `ARCGIS_ADMIN_*` environment variables. The drill
 * machine is a `ServerConnection` of its own, from this project's `drillAdminUrl`,
 * `drillUsername`, `drillPassword` (secret) and optionally `drillCaCert`.
 *
 * Run it again with another `drill` value (a date, a pipeline id) to drill again with a fresh
 * backup: `drill` is the trigger of the export and of the import.
 *
 *     pulumi config set drill "$(date +%Y-%m-%d)"
 *     pulumi up --yes && pulumi stack output logSettingsMatch
 *     pulumi destroy --yes      # deletes the drill site; the archive stays
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import {
  createAdminSession,
  getLogSettings,
  type ServerConnection,
  type ServerResource,
  type ServerType,
  Site,
  SiteExport,
  SiteImport,
} from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const serverType: ServerType = config.get<ServerType>("serverType") ?? "mission-server";
const drill = config.require("drill");

/** The fresh machine the drill restores onto, and the primary administrator its site gets. */
const drillCaCert = config.get("drillCaCert");
const drillMachine: ServerConnection = {
  adminUrl: config.require("drillAdminUrl"),
  username: config.require("drillUsername"),
  password: config.requireSecret("drillPassword"),
  ...(drillCaCert === undefined ? {} : { tls: { caCert: drillCaCert } }),
};

// 1. The backup under test, taken again for every drill; production's connection: arcgis-admin:*.
const backup = new SiteExport("production-backup", {
  serverType,
  downloadTo: path.resolve(config.get("backupDir") ?? "drill-backups"),
  triggers: [drill],
});

// 2. A fresh machine: its own site, deleted when the drill stack is destroyed.
const drillSite = new Site("drill-site", {
  serverType,
  connection: drillMachine,
  deleteSiteOnDestroy: true,
});

// 3. The restore, once per archive and drill; the Site's adminUrl makes it wait for the site.
const restore = new SiteImport("restore", {
  serverType,
  connection: drillMachine,
  adminUrl: drillSite.adminUrl,
  localArchive: backup.localPath.apply((file) => {
    if (file === undefined) throw new Error("the backup was not downloaded");
    return file;
  }),
  // What the export recorded: the download must hash to it before anything is sent.
  archiveSha256: backup.sha256,
  triggers: [drill],
});

// 4. The comparison, once the restore has run (never during a preview): each site's log
// settings, read with the connection its resource recorded.
const fields = ["logLevel", "logDir", "maxErrorReportsCount", "maxLogFileAge"] as const;
const logSettingsOf = (resource: ServerResource) =>
  pulumi
    .all([
      restore.importedAt,
      resource.adminUrl,
      resource.username,
      resource.password,
      resource.tls,
    ])
    .apply(([, adminUrl, username, password, tls]) =>
      getLogSettings(
        createAdminSession({ adminUrl, username, password, ...(tls === undefined ? {} : { tls }) }),
      ),
    );
const differences = pulumi.unsecret(
  pulumi
    .all([logSettingsOf(backup), logSettingsOf(drillSite)])
    .apply(([production, restored]) =>
      fields
        .filter((f) => production[f] !== restored[f])
        .map(
          (f) =>
            `${f}: production ${JSON.stringify(production[f])}, restored ${JSON.stringify(restored[f])}`,
        ),
    ),
);

export const backupFile = backup.localPath;
export const backupSha256 = backup.sha256;
export const restoreOutcome = restore.outcome;
export const restoredFingerprint = restore.fingerprint;
export const logSettingsDifferences = differences;
export const logSettingsMatch = differences.apply((d) => d.length === 0);

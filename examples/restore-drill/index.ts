/**
 * A restore drill: proves that a backup can be restored.
 *
 * 1. `SiteExport` backs up the production site and downloads the archive.
 * 2. `Site` creates a site on a fresh machine (deleted again by `pulumi destroy`).
 * 3. `SiteImport` restores the archive onto it (uploaded first, fingerprinted by its SHA-256).
 * 4. The program reads the log settings of both sites and compares them: the stack outputs say
 *    whether the restored configuration matches the production one.
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
  Site,
  SiteExport,
  SiteImport,
  type ServerType,
} from "pulumi-arcgis-admin";

const config = new pulumi.Config();
const serverType: ServerType = config.get<ServerType>("serverType") ?? "mission-server";
// Each machine's CA certificate (PEM), when it is self-signed.
const productionCa = config.get("productionCaCert");
const drillCa = config.get("drillCaCert");
const productionTls = productionCa === undefined ? {} : { tls: { caCert: productionCa } };
const drillTls = drillCa === undefined ? {} : { tls: { caCert: drillCa } };
const drill = config.require("drill");
const productionAdminUrl = config.require("productionAdminUrl");
const productionUsername = config.require("productionUsername");
const productionPassword = config.requireSecret("productionPassword");

// 1. The backup under test, taken again for every drill.
const backup = new SiteExport("production-backup", {
  serverType,
  adminUrl: productionAdminUrl,
  username: productionUsername,
  password: productionPassword,
  downloadTo: path.resolve(config.get("backupDir") ?? "drill-backups"),
  triggers: [drill],
  ...productionTls,
});

// 2. A fresh machine: its own site, deleted when the drill stack is destroyed.
const drillSite = new Site("drill-site", {
  serverType,
  adminUrl: config.require("drillAdminUrl"),
  username: config.require("drillUsername"),
  password: config.requireSecret("drillPassword"),
  deleteSiteOnDestroy: true,
  ...drillTls,
});

// 3. The restore, once per archive and drill.
const restore = new SiteImport("restore", {
  serverType,
  adminUrl: drillSite.adminUrl,
  username: drillSite.username,
  password: drillSite.password,
  localArchive: backup.localPath.apply((file) => {
    if (file === undefined) throw new Error("the backup was not downloaded");
    return file;
  }),
  archiveSha256: backup.sha256.apply((sha) => sha ?? ""),
  triggers: [drill],
  ...drillTls,
});

// 4. The comparison, once the restore has run (never during a preview).
const fields = ["logLevel", "logDir", "maxErrorReportsCount", "maxLogFileAge"] as const;
const differences = pulumi.unsecret(
  pulumi
    .all([restore.importedAt, productionPassword, drillSite.adminUrl, drillSite.password])
    .apply(async ([, prodPassword, drillAdminUrl, drillPassword]) => {
      const read = (adminUrl: string, username: string, password: string, caCert?: string) =>
        getLogSettings(
          createAdminSession({
            adminUrl,
            username,
            password,
            ...(caCert === undefined ? {} : { tls: { caCert } }),
          }),
        );
      const production = await read(
        productionAdminUrl,
        productionUsername,
        prodPassword,
        productionCa,
      );
      const restored = await read(
        drillAdminUrl,
        config.require("drillUsername"),
        drillPassword,
        drillCa,
      );
      return fields
        .filter((f) => production[f] !== restored[f])
        .map(
          (f) =>
            `${f}: production ${JSON.stringify(production[f])}, restored ${JSON.stringify(restored[f])}`,
        );
    }),
);

export const backupFile = backup.localPath;
export const backupSha256 = backup.sha256;
export const restoreOutcome = restore.outcome;
export const restoredFingerprint = restore.fingerprint;
export const logSettingsDifferences = differences;
export const logSettingsMatch = differences.apply((d) => d.length === 0);

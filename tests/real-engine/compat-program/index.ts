/**
 * The program of tests/real-engine/compat.test.ts: every resource the package exports, declared
 * as a user of an earlier release declared them, so that a stack written by that release can be
 * previewed and destroyed with the package of this tree. On the main machine (adminUrl): a Site,
 * its ServerCertificate, and after the bind a SiteMachine (the second machine joining),
 * a SiteExport downloaded to a folder, a LogSettings and a SystemProperties that restore on
 * destroy, and a Federation with the portal of that machine; a Collaboration of that portal; a
 * SiteUpgrade of another site whose software is newer; a Site on a fresh machine and a SiteImport
 * that restores an archive into it. With `viaPlugin`, each is declared by its type token instead
 * of its class, as any language's SDK declares it, through the provider plugin
 * `pulumi-resource-arcgis-admin` (found on PATH). Stack config: adminUrl, caCert (every machine's
 * CA and the organisation's), machineName, orgRootPem, pfxBase64 and pfxPassword (secrets),
 * sitePassword (secret), secondAdminUrl, secondMachineName, downloadDir, sharingUrl,
 * portalUsername, portalPassword (secret), collaborationId, upgradeAdminUrl, freshAdminUrl,
 * archive, viaPlugin; after the upgrade, siteCreateMs (the Site's `timeouts.createMs`).
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
const viaPlugin = config.getBoolean("viaPlugin") ?? false;

/** A resource declared by its type token (CustomResource itself is abstract). */
class ByToken extends pulumi.CustomResource {}

/**
 * A resource of the package: its class, or its type token (the class's name) through the plugin,
 * where a CustomResource has the outputs its arguments name (`outputs`).
 */
function declare<A extends object>(
  Class: new (name: string, args: A, options?: pulumi.CustomResourceOptions) => pulumi.Resource,
  name: string,
  args: NoInfer<A>,
  options: pulumi.CustomResourceOptions = {},
  outputs: readonly string[] = [],
): pulumi.Resource {
  if (!viaPlugin) return new Class(name, args, options);
  const declared = { ...args, ...Object.fromEntries(outputs.map((key) => [key, undefined])) };
  return new ByToken(`arcgis-admin:index:${Class.name}`, name, declared, options);
}

/** An output of a resource {@link declare} made. */
function output(resource: pulumi.Resource, key: string): pulumi.Output<unknown> {
  return (resource as unknown as Record<string, pulumi.Output<unknown>>)[key]!;
}

const tls = { caCert: config.require("caCert") };
const password = config.requireSecret("sitePassword");
const server = { serverType: "arcgis-server" as const, username: "siteadmin", password, tls };
const onSite = { ...server, adminUrl: config.require("adminUrl") };

// Set only after the upgrade: a change that updates the Site's state alone, with the new package.
const createMs = config.getNumber("siteCreateMs");
const site = declare(
  Site,
  "site",
  createMs === undefined ? onSite : { ...onSite, timeouts: { createMs } },
);
const certificate = declare(
  ServerCertificate,
  "https",
  {
    ...onSite,
    machineName: config.require("machineName"),
    caCertificates: [{ alias: "orgroot", pem: config.require("orgRootPem") }],
    pkcs12: config.requireSecret("pfxBase64"),
    certPassword: config.requireSecret("pfxPassword"),
    alias: "gis",
  },
  { dependsOn: [site] },
  ["sha256Fingerprint"],
);
// The machine's web server restarts with the new certificate: the rest waits for the bind.
const afterBind = { dependsOn: [certificate] };

declare(
  SiteMachine,
  "second",
  {
    ...server,
    adminUrl: config.require("secondAdminUrl"),
    siteAdminUrl: onSite.adminUrl,
    machineName: config.require("secondMachineName"),
  },
  afterBind,
);
const backup = declare(
  SiteExport,
  "backup",
  { ...onSite, downloadTo: config.require("downloadDir") },
  afterBind,
  ["localPath"],
);
declare(
  LogSettings,
  "logs",
  { ...onSite, logLevel: "SEVERE", maxLogFileAge: 30, restoreOnDestroy: true },
  afterBind,
);
declare(
  SystemProperties,
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
declare(
  Federation,
  "federation",
  {
    ...portal,
    serverType: server.serverType,
    adminUrl: onSite.adminUrl,
    serverUsername: server.username,
    serverPassword: password,
  },
  afterBind,
);
declare(Collaboration, "partners", {
  ...portal,
  collaborationId: config.require("collaborationId"),
});

declare(SiteUpgrade, "upgrade", { ...server, adminUrl: config.require("upgradeAdminUrl") });

const freshMachine = { ...server, adminUrl: config.require("freshAdminUrl") };
const fresh = declare(Site, "fresh", freshMachine);
declare(
  SiteImport,
  "restore",
  { ...freshMachine, localArchive: config.require("archive") },
  { dependsOn: [fresh] },
);

export const fingerprint = output(certificate, "sha256Fingerprint");
export const backupFile = output(backup, "localPath");

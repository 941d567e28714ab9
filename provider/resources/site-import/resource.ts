/**
 * The `SiteImport` resource as a Pulumi program declares it: its arguments and its class, and
 * what a restore leaves out. The lifecycle is in `site-import.ts`, the inputs in
 * `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection";
import { registration } from "../common/registration";
import { ServerResource, serverResourceFrame } from "../common/server-resource";
import type { ServerResourceArgs } from "../common/server-resource";
import { lazyProvider } from "../common/lazy-provider";

/**
 * The serialized provider of `SiteImport`: about 3 KB that load `implementation` from the released
 * module path `dist/provider/resources/site-import.js` when the engine calls it.
 */
export const siteImportProvider = lazyProvider("site-import");

/**
 * What a SiteImport registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE_IMPORT = serverResourceFrame("SiteImport", siteImportProvider, {
  fromArguments: ["location", "localArchive", "archiveSha256", "triggers"],
  outputOnly: ["fingerprint", "uploadedItemId", "outcome", "importedAt", "report"],
});

/** What the restore leaves out (the spec's "Excluded from the export"). */
export const NOT_RESTORED = [
  "Cache tiles and tiling schemes",
  "Data used by services, unless it was copied to the server automatically at publish time",
  "Dynamically generated map images and other temporary output",
  "Log messages, including geoprocessing job statuses and messages",
  "Statistics data",
  "Web adaptor configurations",
  "The primary site administrator's name and password (the one in place at the restore stays)",
] as const;

/**
 * Arguments of a {@link SiteImport}. Every field accepts a `pulumi.Input`. The administrator
 * (`username`, `password`) stays the administrator after the restore.
 */
export interface SiteImportArgs extends ServerResourceArgs {
  /**
   * Administrative root of a machine of the site, direct (importSite is not available through a
   * web adaptor, Esri's docs say). Default: `connection.adminUrl`, stack config
   * `arcgis-admin:adminUrl`, `ARCGIS_ADMIN_URL`.
   */
  adminUrl?: pulumi.Input<string>;
  /** The archive as the server reads it: a path (e.g. a SiteExport's `location`) or an uploaded item's id. */
  location?: pulumi.Input<string>;
  /** A local archive (e.g. a SiteExport's `localPath`), uploaded to the server first. */
  localArchive?: pulumi.Input<string>;
  /** The archive's SHA-256 (e.g. a SiteExport's `sha256`): checked against localArchive, and the fingerprint of a location. */
  archiveSha256?: pulumi.Input<string>;
  /** Any values: a change imports again (as `triggers` in pulumi-command). */
  triggers?: pulumi.Input<pulumi.Input<unknown>[]>;
  /** How long the import may take, including waiting while an export holds the site. */
  timeouts?: pulumi.Input<{ importMs?: pulumi.Input<number> }>;
}

/**
 * A restore of a site's configuration from an exportSite archive, with
 * `POST {admin_root}/importSite`: the site's configuration (services, security, log settings, ...)
 * is replaced by the archive's. Runs once per archive and site. Does not bring back: cache tiles
 * and tiling schemes, service data not copied to the server at publish time, generated images and
 * temporary output, log messages, statistics data, web adaptor configurations, and the primary
 * administrator's credentials (see {@link NOT_RESTORED}).
 *
 * @example
 * ```ts
 * new SiteImport("restore", {
 *   adminUrl: freshSite.adminUrl,
 *   username: freshSite.username,
 *   password: freshSite.password,
 *   localArchive: backup.localPath,
 *   archiveSha256: backup.sha256,
 * });
 * ```
 */
export class SiteImport extends ServerResource<{ importMs: number }> {
  /** The archive as the server read it, when given. */
  declare public readonly location: pulumi.Output<string | undefined>;
  /** The local archive uploaded, when given. */
  declare public readonly localArchive: pulumi.Output<string | undefined>;
  /** The archive's SHA-256, when given. */
  declare public readonly archiveSha256: pulumi.Output<string | undefined>;
  /** The values whose change imports again. */
  declare public readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** What identifies the imported archive (`sha256:<hex>` or `location:<...>`). */
  declare public readonly fingerprint: pulumi.Output<string>;
  /** `imported`, or `answer-lost` when importSite was sent once and its answer lost. */
  declare public readonly outcome: pulumi.Output<"imported" | "answer-lost">;
  /** When the import ended (ISO 8601). */
  declare public readonly importedAt: pulumi.Output<string>;
  /** With localArchive: the uploaded item's id. */
  declare public readonly uploadedItemId: pulumi.Output<string | undefined>;
  /** The server's report (JSON text), when it gave one. */
  declare public readonly report: pulumi.Output<string | undefined>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - which site and which archive; see {@link SiteImportArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteImportArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("SiteImport", name, args);
    super(...registration(SITE_IMPORT, name, args, connection, opts));
  }
}

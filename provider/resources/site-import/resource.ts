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
import { type InputsOf } from "../common/tls";
import type { ObjectStoreCredentials, ObjectStoreOptions } from "../common/object-store-inputs";

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
  fromArguments: [
    "location",
    "localArchive",
    "archiveObject",
    "objectStore",
    "objectStoreCredentials",
    "archiveSha256",
    "triggers",
  ],
  outputOnly: ["fingerprint", "uploadedItemId", "outcome", "importedAt", "report"],
  secretOutputs: ["objectStoreCredentials"],
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
  /**
   * An archive in S3-compatible object storage, `s3://bucket/key` (e.g. a SiteExport's
   * `objectUrl`): streamed from the store to the server as an uploaded item (never held whole,
   * never written to disk), then imported. Requires `archiveSha256`: its content must hash to it
   * before it is imported (the object's own `sha256` metadata is no proof: whoever can write the
   * bucket sets it). Another URL of the same content is no new import.
   */
  archiveObject?: pulumi.Input<string>;
  /** With archiveObject: the store's endpoint, region and path style (default: AWS S3). */
  objectStore?: pulumi.Input<InputsOf<ObjectStoreOptions>>;
  /**
   * With archiveObject: static credentials of the store, always stored as a secret. Default: the
   * AWS SDK's chain, as the AWS CLI (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE and
   * ~/.aws/config, SSO, an instance role).
   */
  objectStoreCredentials?: pulumi.Input<InputsOf<ObjectStoreCredentials>>;
  /**
   * The archive's SHA-256 as the stack recorded it (e.g. a SiteExport's `sha256`): checked against
   * localArchive and archiveObject (required with archiveObject: absent or empty is refused), and
   * the fingerprint of a location. A value that resolves to undefined counts as absent.
   */
  archiveSha256?: pulumi.Input<string | undefined>;
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
  /** The archive object streamed to the server, when given. */
  declare public readonly archiveObject: pulumi.Output<string | undefined>;
  /** The store's endpoint, region and path style as given. */
  declare public readonly objectStore: pulumi.Output<ObjectStoreOptions | undefined>;
  /** The store's static credentials as given (a secret). */
  declare public readonly objectStoreCredentials: pulumi.Output<ObjectStoreCredentials | undefined>;
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
  /** With localArchive or archiveObject: the uploaded item's id. */
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
    // The store's credentials are a secret in the inputs Pulumi stores, as in the outputs.
    const credentials =
      args.objectStoreCredentials === undefined
        ? {}
        : { objectStoreCredentials: pulumi.secret(args.objectStoreCredentials) };
    super(...registration(SITE_IMPORT, name, args, { ...connection, ...credentials }, opts));
  }
}

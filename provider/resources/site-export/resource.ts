/**
 * The `SiteExport` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `site-export.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "../common/registration";
import { ServerResource, serverResourceFrame } from "../common/server-resource";
import type { ServerResourceArgs } from "../common/server-resource";
import { type InputsOf } from "../common/tls";
import { resolveServerConnection } from "../common/connection";
import { lazyProvider } from "../common/lazy-provider";
import type { SiteExportTimeouts } from "./inputs";
import type { ObjectStoreCredentials, ObjectStoreOptions } from "../common/object-store-inputs";

/**
 * The serialized provider of `SiteExport`: about 3 KB that load `implementation` from the released
 * module path `dist/provider/resources/site-export.js` when the engine calls it.
 */
export const siteExportProvider = lazyProvider("site-export");

/**
 * What a SiteExport registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE_EXPORT = serverResourceFrame("SiteExport", siteExportProvider, {
  fromArguments: [
    "location",
    "requestedLocation",
    "downloadTo",
    "uploadTo",
    "objectStore",
    "objectStoreCredentials",
    "deleteBackupOnDestroy",
    "triggers",
    "allowMissingDownload",
    "maxDownloadBytes",
  ],
  outputOnly: [
    "fileName",
    "exportedAt",
    "localPath",
    "objectUrl",
    "sizeBytes",
    "sha256",
    "serverVersion",
  ],
  secretOutputs: ["objectStoreCredentials"],
});

/** Arguments of a {@link SiteExport}. Every field accepts a `pulumi.Input`. */
export interface SiteExportArgs extends ServerResourceArgs {
  /** A folder on the server to write the archive to; omitted, the server answers a download URL. */
  location?: pulumi.Input<string>;
  /**
   * A local folder to stream the archive to (only without `location`). A relative path is
   * relative to the project folder (where Pulumi.yaml is): prefer it to an absolute path, which
   * differs between CI runners, and a change of `downloadTo` exports again.
   */
  downloadTo?: pulumi.Input<string>;
  /**
   * With downloadTo: on refresh, accept that the local copy is missing (default false: missing
   * means gone, and the next `pulumi up` exports again). For ephemeral CI runners, where the
   * download folder does not outlive the run. A copy that is present but changed still counts as
   * gone.
   */
  allowMissingDownload?: pulumi.Input<boolean>;
  /**
   * An S3-compatible destination, `s3://bucket/prefix` (only without `location` and
   * `downloadTo`): the archive is streamed from the server to the store (multipart, never held
   * whole) under `<prefix><fileName>` (`-1`, `-2`, ... appended when that key is taken), with its
   * SHA-256 as the object's `sha256` metadata. A change exports again.
   */
  uploadTo?: pulumi.Input<string>;
  /** With uploadTo: the store's endpoint, region and path style (default: AWS S3). */
  objectStore?: pulumi.Input<InputsOf<ObjectStoreOptions>>;
  /**
   * With uploadTo: static credentials of the store, always stored as a secret. Default: the AWS
   * SDK's chain, as the AWS CLI (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE and
   * ~/.aws/config, SSO, an instance role).
   */
  objectStoreCredentials?: pulumi.Input<InputsOf<ObjectStoreCredentials>>;
  /**
   * With uploadTo: whether `pulumi destroy` (or a replacement) deletes the uploaded object
   * (default false: backups outlive stacks, and the object is kept).
   */
  deleteBackupOnDestroy?: pulumi.Input<boolean>;
  /** Largest archive downloadTo accepts, in bytes (default 4 GiB); a larger one fails. */
  maxDownloadBytes?: pulumi.Input<number>;
  /** Any values: a change exports again (as `triggers` in pulumi-command). */
  triggers?: pulumi.Input<pulumi.Input<unknown>[]>;
  /** How long an export may take, including waiting for another export to finish. */
  timeouts?: pulumi.Input<InputsOf<Partial<SiteExportTimeouts>>>;
}

/**
 * An export of a site's configuration (a backup), made with `POST {admin_root}/exportSite`.
 *
 * @example
 * ```ts
 * const backup = new SiteExport("backup", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   downloadTo: "./backups",
 *   triggers: [release],
 * });
 * ```
 */
export class SiteExport extends ServerResource<SiteExportTimeouts> {
  /** The `location` argument (a server folder), when one was given. */
  declare public readonly requestedLocation: pulumi.Output<string | undefined>;
  /** The local folder of the download, when one was given. */
  declare public readonly downloadTo: pulumi.Output<string | undefined>;
  /** Whether a missing local copy is accepted on refresh. */
  declare public readonly allowMissingDownload: pulumi.Output<boolean | undefined>;
  /** The triggers as given. */
  declare public readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** The largest archive a download accepts, in bytes. */
  declare public readonly maxDownloadBytes: pulumi.Output<number | undefined>;
  /** The archive's path on the server, or the URL it was downloaded from. */
  declare public readonly location: pulumi.Output<string>;
  /** The archive's file name (`YYYYMMDD-HHMMSS-UTC.agssite`). */
  declare public readonly fileName: pulumi.Output<string>;
  /** When the export was made (ISO 8601). */
  declare public readonly exportedAt: pulumi.Output<string>;
  /** With downloadTo: where the archive was written locally. */
  declare public readonly localPath: pulumi.Output<string | undefined>;
  /** The S3-compatible destination as given. */
  declare public readonly uploadTo: pulumi.Output<string | undefined>;
  /** The store's endpoint, region and path style as given. */
  declare public readonly objectStore: pulumi.Output<ObjectStoreOptions | undefined>;
  /** The store's static credentials as given (a secret). */
  declare public readonly objectStoreCredentials: pulumi.Output<ObjectStoreCredentials | undefined>;
  /** Whether destroy deletes the uploaded object. */
  declare public readonly deleteBackupOnDestroy: pulumi.Output<boolean | undefined>;
  /** With uploadTo: the uploaded object, `s3://bucket/key`. */
  declare public readonly objectUrl: pulumi.Output<string | undefined>;
  /** With downloadTo or uploadTo: the archive's size in bytes. */
  declare public readonly sizeBytes: pulumi.Output<number | undefined>;
  /** With downloadTo or uploadTo: the archive's SHA-256 (hex). */
  declare public readonly sha256: pulumi.Output<string | undefined>;
  /** The server's version as rest/info reports it. */
  declare public readonly serverVersion: pulumi.Output<string | undefined>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - what to export and where; see {@link SiteExportArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteExportArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("SiteExport", name, args);
    // The store's credentials are a secret in the inputs Pulumi stores, as in the outputs.
    const credentials =
      args.objectStoreCredentials === undefined
        ? {}
        : { objectStoreCredentials: pulumi.secret(args.objectStoreCredentials) };
    super(...registration(SITE_EXPORT, name, args, { ...connection, ...credentials }, opts));
  }
}

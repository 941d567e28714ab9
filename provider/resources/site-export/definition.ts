/**
 * Every input and output of a `SiteExport`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/site-export.md's
 * table are derived from it.
 */
import { z } from "zod";
import { DEFAULT_MAX_DOWNLOAD_BYTES } from "../../client";
import { adminInputs, adminTlsInput, timeoutsWithDocs } from "../common/inputs/admin";
import { type CheckFailure, defineResource, named } from "../common/inputs/definition";
import { nonEmpty } from "../common/inputs/schemas";
import {
  objectStoreCredentialsSchema,
  objectStoreSchema,
  objectUrlSchema,
} from "../common/inputs/object-store";
import { resourceFrame } from "../common/pulumi/frame";
import type { SiteExportInputs } from "./generated";

/** Default bound on an export (waiting for another one, the export and the download). */
export const DEFAULT_EXPORT_MS = 30 * 60_000;

const admin = adminInputs();

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
 *
 * @internal
 */
export const SITE_EXPORT_DEFINITION = defineResource({
  type: "SiteExport",
  folder: "site-export",
  doc: "An export of a site's configuration (exportSite), optionally downloaded.",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link SiteExport}: the server's connection ({@link ServerResourceArgs}) " +
    "and where the archive goes. Every field accepts a `pulumi.Input`.",
  inputs: {
    serverType: {
      ...admin.serverType,
      doc:
        "The product (typically a Site's `serverType`): decides the oldest version with " +
        "exportSite.",
      stateOnly: true,
    },
    adminUrl: { ...admin.adminUrl, replaces: true },
    username: admin.username,
    password: admin.password,
    location: {
      schema: () => nonEmpty().optional(),
      doc:
        "A folder on the server to write the archive to (its path is then the `location` " +
        "output); omitted, the server answers a download URL.",
      outputDoc: "The `location` argument (a server folder), when one was given.",
      replaces: true,
    },
    downloadTo: {
      schema: () => nonEmpty().optional(),
      doc:
        "A local folder to stream the archive to (only without `location`): never held in " +
        "memory, written under a temporary name, verified as a readable zip and renamed into " +
        "place. A relative path is relative to the project folder (where Pulumi.yaml is): prefer " +
        "it to an absolute path, which differs between CI runners, and a change of `downloadTo` " +
        "exports again.",
      outputDoc: "The local folder of the download, when one was given.",
      replaces: true,
    },
    uploadTo: {
      schema: () => objectUrlSchema().optional(),
      doc:
        "An S3-compatible destination, `s3://bucket/prefix` (only without `location` and " +
        "`downloadTo`): the archive is streamed from the server to the store (multipart, never " +
        "held whole) under `<prefix><fileName>` (`-1`, `-2`, ... appended when that key is " +
        "taken), with its SHA-256 as the object's `sha256` metadata. A change exports again.",
      outputDoc: "The S3-compatible destination as given.",
      replaces: true,
    },
    objectStore: {
      schema: objectStoreSchema,
      doc: "With uploadTo: the store's endpoint, region and path style (default: AWS S3).",
      outputDoc: "The store's endpoint, region and path style as given.",
      defaultText: "AWS S3",
      replaces: true,
      url: ["endpoint"],
    },
    objectStoreCredentials: {
      schema: objectStoreCredentialsSchema,
      doc:
        "With uploadTo: static credentials of the store, always stored as a secret. Default: " +
        "the AWS SDK's chain, as the AWS CLI (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, " +
        "AWS_PROFILE and ~/.aws/config, SSO, an instance role).",
      outputDoc: "The store's static credentials as given (a secret).",
      defaultText: "the AWS SDK's chain",
      secret: true,
      stateOnly: true,
    },
    deleteBackupOnDestroy: {
      schema: () => z.boolean().optional(),
      doc:
        "With uploadTo: whether `pulumi destroy` (or a replacement) deletes the uploaded object " +
        "(default false: backups outlive stacks, and the object is kept).",
      outputDoc: "Whether destroy deletes the uploaded object.",
      defaultText: "`false`",
      stateOnly: true,
    },
    triggers: {
      schema: () => z.array(z.unknown()).optional(),
      doc: "Any values: a change exports again (as `triggers` in pulumi-command).",
      outputDoc: "The triggers as given.",
      replaces: true,
    },
    allowMissingDownload: {
      schema: () => z.boolean().optional(),
      doc:
        "With downloadTo: on refresh, accept that the local copy is missing (default false: " +
        "missing means gone, and the next `pulumi up` exports again). For ephemeral CI runners, " +
        "where the download folder does not outlive the run. A copy that is present but changed " +
        "still counts as gone.",
      outputDoc: "Whether a missing local copy is accepted on refresh.",
      defaultText: "`false`",
      stateOnly: true,
    },
    maxDownloadBytes: {
      schema: () =>
        z
          .number()
          .int()
          .positive({ message: "must be a positive number of bytes" })
          .default(DEFAULT_MAX_DOWNLOAD_BYTES),
      doc:
        "Largest archive downloadTo accepts, in bytes (default 4 GiB); a larger (or endless) " +
        "body fails, naming the limit, and nothing is kept.",
      outputDoc: "The largest archive a download accepts, in bytes.",
      optionalInState: true,
      stateOnly: true,
    },
    tls: adminTlsInput(),
    timeouts: {
      schema: () =>
        named(
          timeoutsWithDocs({
            exportMs: {
              ms: DEFAULT_EXPORT_MS,
              doc:
                "How long the whole export may take, in ms: waiting for another export to " +
                "release the site, the export and the download (default 1 800 000: 30 minutes).",
            },
          }).unwrap(),
          { name: "SiteExportTimeouts" },
        ).default({ exportMs: DEFAULT_EXPORT_MS }),
      doc: "How long an export may take, including waiting for another export to finish.",
      outputDoc: "The time limits in effect, defaults filled in (milliseconds).",
      inherited: "base",
      own: true,
      stateOnly: true,
    },
  },
  outputs: {
    location: {
      type: "string",
      doc: "The archive's path on the server, or the URL it was downloaded from.",
    },
    requestedLocation: {
      type: "string",
      optional: true,
      registeredAsArgument: true,
      doc: "The `location` input (a server folder), when one was given.",
    },
    fileName: {
      type: "string",
      doc: "The archive's file name (`YYYYMMDD-HHMMSS-UTC.agssite`).",
    },
    exportedAt: { type: "string", doc: "When the export was made (ISO 8601)." },
    localPath: {
      type: "string",
      optional: true,
      doc: "With downloadTo: where the archive was written locally.",
    },
    objectUrl: {
      type: "string",
      optional: true,
      doc: "With uploadTo: the uploaded object, `s3://bucket/key`.",
    },
    sizeBytes: {
      type: "number",
      optional: true,
      doc: "With downloadTo or uploadTo: the archive's size in bytes.",
    },
    sha256: {
      type: "string",
      optional: true,
      doc: "With downloadTo or uploadTo: the archive's SHA-256 (hex).",
    },
    serverVersion: {
      type: "string",
      optional: true,
      doc: "The server's version as `rest/info` reports it, when it could be read.",
    },
  },
  operation: "`POST {admin_root}/exportSite`",
  summary: "Exports the site configuration (a backup).",
  connection: "server",
  crossChecks: siteExportCrossChecks,
  // In outputs, `location` is the server's answer and the input is `requestedLocation`.
  fromOutputs: (values) => {
    if (values.requestedLocation !== undefined) values.location = values.requestedLocation;
    else if (values.fileName !== undefined) delete values.location;
    delete values.requestedLocation;
  },
});

/**
 * Rules across fields, reported together with the per-field problems.
 *
 * @internal
 */
export function siteExportCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const key of ["downloadTo", "uploadTo"] as const) {
    if (values.location !== undefined && values[key] !== undefined) {
      failures.push({
        property: key,
        reason:
          "cannot be combined with location: the server answers a download URL only when " +
          "location is omitted",
      });
    }
  }
  if (values.downloadTo !== undefined && values.uploadTo !== undefined) {
    failures.push({
      property: "uploadTo",
      reason: "cannot be combined with downloadTo: give one destination for the archive",
    });
  }
  if (values.uploadTo === undefined) {
    for (const key of ["objectStore", "objectStoreCredentials", "deleteBackupOnDestroy"]) {
      if (values[key] !== undefined) {
        failures.push({ property: key, reason: "applies only with uploadTo" });
      }
    }
  }
  return failures;
}

/**
 * The frame of a `SiteExport`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SITE_EXPORT = resourceFrame<SiteExportInputs>()(SITE_EXPORT_DEFINITION);

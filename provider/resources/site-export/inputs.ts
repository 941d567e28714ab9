/**
 * The inputs of a `SiteExport`: their types, the zod schema that checks them, the rule across
 * fields, and which inputs replace the export and which only update state.
 */
import { z } from "zod";
import { DEFAULT_MAX_DOWNLOAD_BYTES, type ServerType } from "../../client";
import { ACCESS_INPUTS, adminInputsSchema } from "../common/admin-inputs";
import { type CheckFailure } from "../common/input-check";
import { nonEmpty } from "../common/input-schemas";
import {
  objectStoreCredentialsSchema,
  objectStoreSchema,
  objectUrlSchema,
  type ObjectStoreCredentials,
  type ObjectStoreOptions,
} from "../common/object-store-inputs";
import { type TlsSettings } from "../common/tls";
import { inputReader, type InputRules } from "../common/implementation";
import type { Assert, ParsesTo } from "../common/schema-match";
import { SITE_EXPORT } from "./resource";

/**
 * Default bound on an export, including the time spent waiting for a lock held by another.
 *
 * @internal
 */
export const DEFAULT_EXPORT_MS = 30 * 60_000;

/** Inputs of a `SiteExport` whose values are known. */
export interface SiteExportInputs {
  /** The product: `mission-server`, `arcgis-server`, `notebook-server` or `video-server`. */
  serverType: ServerType;
  /** The administrative root of the server. */
  adminUrl: string;
  /** An administrator of the site. */
  username: string;
  /** That administrator's password (a secret). */
  password: string;
  /** A folder on the server the archive is written to. */
  location?: string;
  /** A local folder the archive is downloaded to. */
  downloadTo?: string;
  /** An S3-compatible destination, `s3://bucket/prefix`, the archive is streamed to. */
  uploadTo?: string;
  /** With uploadTo: how to reach the store. */
  objectStore?: ObjectStoreOptions;
  /** With uploadTo: static credentials of the store (a secret); default the AWS SDK's chain. */
  objectStoreCredentials?: ObjectStoreCredentials;
  /** With uploadTo: whether destroy deletes the uploaded object (default false: kept). */
  deleteBackupOnDestroy?: boolean;
  /** Any values: a change exports again. */
  triggers?: unknown[];
  /** With downloadTo: whether a missing local copy is accepted on refresh (ephemeral runners). */
  allowMissingDownload?: boolean;
  /**
   * The largest archive `downloadTo` accepts, in bytes (default 4 GiB). Filled in by check();
   * absent in state written before it existed.
   */
  maxDownloadBytes?: number;
  /** How the server's certificate is checked. */
  tls?: TlsSettings;
  /** Time limits, in milliseconds. */
  timeouts: SiteExportTimeouts;
}

/** Time limits of a `SiteExport` (the `timeouts` argument and output). */
export interface SiteExportTimeouts {
  /**
   * How long the whole export may take, in ms: waiting for another export to release the site,
   * the export and the download (default 1 800 000: 30 minutes).
   */
  exportMs: number;
}

/** Outputs of a `SiteExport` as stored in state. */
export interface SiteExportOutputs extends SiteExportInputs {
  /** The server path of the archive, or the URL it can be downloaded from. */
  location: string;
  /** The `location` input (a server folder), when one was given. */
  requestedLocation?: string;
  /** The archive's file name, e.g. `20250101-120000-UTC.agssite`. */
  fileName: string;
  /** When the export was made (ISO 8601). */
  exportedAt: string;
  /** With downloadTo: the downloaded archive's local path. */
  localPath?: string;
  /** With uploadTo: the uploaded object, `s3://bucket/key`. */
  objectUrl?: string;
  /** With downloadTo or uploadTo: the archive's size in bytes. */
  sizeBytes?: number;
  /** With downloadTo or uploadTo: the archive's SHA-256 (hex). */
  sha256?: string;
  /** The server's version as `rest/info` reports it, when it could be read. */
  serverVersion?: string;
}

/**
 * The zod schema of the SiteExport inputs.
 *
 * @internal
 */
export function siteExportInputsSchema() {
  return adminInputsSchema(
    {
      location: nonEmpty().optional(),
      downloadTo: nonEmpty().optional(),
      uploadTo: objectUrlSchema().optional(),
      objectStore: objectStoreSchema(),
      objectStoreCredentials: objectStoreCredentialsSchema(),
      deleteBackupOnDestroy: z.boolean().optional(),
      triggers: z.array(z.unknown()).optional(),
      allowMissingDownload: z.boolean().optional(),
      maxDownloadBytes: z
        .number()
        .int()
        .positive({ message: "must be a positive number of bytes" })
        .default(DEFAULT_MAX_DOWNLOAD_BYTES),
    },
    { exportMs: DEFAULT_EXPORT_MS },
  );
}

/**
 * The hand-written {@link SiteExportInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type SiteExportInputsMatch = Assert<
  ParsesTo<ReturnType<typeof siteExportInputsSchema>, SiteExportInputs>
>;

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
 * The SiteExport's input rules.
 *
 * @internal
 */
export const SITE_EXPORT_INPUTS: InputRules = {
  frame: SITE_EXPORT,
  // In outputs, `location` is the server's answer and the input is `requestedLocation`.
  fromOutputs: (values) => {
    if (values.requestedLocation !== undefined) values.location = values.requestedLocation;
    else if (values.fileName !== undefined) delete values.location;
    delete values.requestedLocation;
  },
  schema: siteExportInputsSchema,
  crossChecks: siteExportCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given (inputs, or outputs read
 * back as inputs).
 *
 * @internal
 */
export const parseSiteExportInputs = inputReader<SiteExportInputs>(SITE_EXPORT_INPUTS);

/**
 * Inputs whose change means a new export (a replacement).
 *
 * @internal
 */
export const REPLACING_INPUTS = [
  "adminUrl",
  "location",
  "downloadTo",
  "uploadTo",
  "objectStore",
  "triggers",
] as const;

/**
 * Inputs whose change only updates state.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = [
  ...ACCESS_INPUTS,
  "serverType",
  "maxDownloadBytes",
  "allowMissingDownload",
  "objectStoreCredentials",
  "deleteBackupOnDestroy",
] as const;

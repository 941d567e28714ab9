/**
 * The inputs of a `SiteImport`: their types, the zod schema that checks them, the rule across
 * fields, and which inputs only update state (another archive, site or triggers is a new import).
 */
import * as fs from "node:fs";
import { z } from "zod";
import { objectUrlProblem, type ServerType } from "../../client";
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
import { inputReader, type InputRules } from "../common/implementation";
import type { Assert, ParsesTo } from "../common/schema-match";
import { SITE_IMPORT } from "./resource";

/**
 * Default bound on an import, including waiting while an export or import holds the site.
 *
 * @internal
 */
export const DEFAULT_IMPORT_MS = 60 * 60_000;

/** Inputs of a `SiteImport` whose values are known. */
export interface SiteImportInputs {
  serverType: ServerType;
  adminUrl: string;
  username: string;
  password: string;
  /** The archive as the server reads it: a path, or the id of an uploaded item. */
  location?: string;
  /** A local archive, uploaded first. */
  localArchive?: string;
  /** An archive in S3-compatible object storage, `s3://bucket/key`, streamed to the server first. */
  archiveObject?: string;
  /** With archiveObject: how to reach the store. */
  objectStore?: ObjectStoreOptions;
  /** With archiveObject: static credentials of the store (a secret); default the AWS SDK's chain. */
  objectStoreCredentials?: ObjectStoreCredentials;
  /** SHA-256 (hex) of the archive, when known (e.g. a SiteExport's `sha256`). */
  archiveSha256?: string;
  triggers?: unknown[];
  tls?: { caCert?: string; insecureSkipVerify?: boolean };
  timeouts: { importMs: number };
}

/** Outputs of a `SiteImport` as stored in state. */
export interface SiteImportOutputs extends SiteImportInputs {
  /** What identifies the archive: `sha256:<hex>`, or `location:<path or id>` without a hash. */
  fingerprint: string;
  /** With localArchive or archiveObject: the id of the uploaded item the import read. */
  uploadedItemId?: string;
  /** `imported` (the server answered success) or `answer-lost` (sent once, answer lost). */
  outcome: "imported" | "answer-lost";
  importedAt: string;
  /** The server's answer without `status` (its report; shape undocumented), as JSON text. */
  report?: string;
}

/**
 * The zod schema of the SiteImport inputs.
 *
 * @internal
 */
export function siteImportInputsSchema() {
  return adminInputsSchema(
    {
      location: nonEmpty().optional(),
      localArchive: nonEmpty().optional(),
      archiveObject: objectUrlSchema().optional(),
      objectStore: objectStoreSchema(),
      objectStoreCredentials: objectStoreCredentialsSchema(),
      archiveSha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/i, {
          error: (issue) =>
            issue.input === ""
              ? "is empty: give the archive's SHA-256 as the stack recorded it (a SiteExport's sha256 output); an empty value proves nothing"
              : "must be a SHA-256 in hex (64 digits)",
        })
        .optional(),
      triggers: z.array(z.unknown()).optional(),
    },
    { importMs: DEFAULT_IMPORT_MS },
  );
}

/**
 * The hand-written {@link SiteImportInputs} and the schema agree (a build error otherwise).
 *
 * @internal
 */
export type SiteImportInputsMatch = Assert<
  ParsesTo<ReturnType<typeof siteImportInputsSchema>, SiteImportInputs>
>;

/**
 * Exactly one archive; a local archive that exists must be a regular file (a device or a FIFO
 * would be read forever); an archive object names an object (not a bare bucket or prefix) and
 * comes with its expected SHA-256; the store's settings only with an archive object.
 *
 * @internal
 */
export function siteImportCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const { localArchive } = values;
  if (typeof localArchive === "string") {
    let stats: fs.Stats | undefined;
    try {
      stats = fs.statSync(localArchive);
    } catch {
      stats = undefined; // not there yet: made by an earlier step of the run, or reported by create
    }
    if (stats !== undefined && !stats.isFile()) {
      return [
        {
          property: "localArchive",
          reason: `must be a regular file (an archive made by exportSite); ${localArchive} is ${
            stats.isDirectory()
              ? "a folder"
              : stats.isFIFO()
                ? "a FIFO"
                : "a device or special file"
          }`,
        },
      ];
    }
  }
  const failures: CheckFailure[] = [];
  const given = ["location", "localArchive", "archiveObject"].filter(
    (key) => values[key] !== undefined,
  );
  if (given.length !== 1) {
    failures.push({
      property: "location",
      reason:
        "give exactly one of location (a path the server can read, or an uploaded item's id), " +
        "localArchive (a local file, uploaded first) and archiveObject (s3://bucket/key, " +
        "streamed to the server first)",
    });
  }
  const { archiveObject } = values;
  if (typeof archiveObject === "string" && objectUrlProblem(archiveObject) === undefined) {
    const key = archiveObject.slice("s3://".length).split("/").slice(1).join("/");
    if (key === "" || key.endsWith("/")) {
      failures.push({
        property: "archiveObject",
        reason: `must name an object, s3://bucket/key (e.g. a SiteExport's objectUrl), not a bucket or a prefix (got ${archiveObject})`,
      });
    }
  }
  if (archiveObject !== undefined && values.archiveSha256 === undefined) {
    // The object's own sha256 metadata is no proof: anyone who can write the bucket sets it.
    failures.push({
      property: "archiveSha256",
      reason:
        "is required with archiveObject: the archive's SHA-256 as the stack recorded it (a " +
        "SiteExport's sha256 output), which the object's content must hash to before it is " +
        "imported; the object's own sha256 metadata is no proof",
    });
  }
  if (archiveObject === undefined) {
    for (const key of ["objectStore", "objectStoreCredentials"]) {
      if (values[key] !== undefined) {
        failures.push({ property: key, reason: "applies only with archiveObject" });
      }
    }
  }
  return failures;
}

/**
 * The SiteImport's input rules.
 *
 * @internal
 */
export const SITE_IMPORT_INPUTS: InputRules = {
  frame: SITE_IMPORT,
  schema: siteImportInputsSchema,
  crossChecks: siteImportCrossChecks,
};

/**
 * Reads the inputs from what create, update, read and delete are given.
 *
 * @internal
 */
export const parseSiteImportInputs = inputReader<SiteImportInputs>(SITE_IMPORT_INPUTS);

/**
 * Inputs whose change only updates state (with the archive's, when it names the same content; how
 * the store is reached is never a new archive).
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = [
  ...ACCESS_INPUTS,
  "adminUrl",
  "serverType",
  "location",
  "localArchive",
  "archiveObject",
  "archiveSha256",
  "objectStore",
  "objectStoreCredentials",
] as const;

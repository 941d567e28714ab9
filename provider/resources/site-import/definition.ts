/**
 * Every input and output of a `SiteImport`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the state-only list, the plugin schema and docs/site-import.md's
 * table are derived from it. What replaces it is decided by the archive's fingerprint (diff).
 */
import * as fs from "node:fs";
import { z } from "zod";
import { objectUrlProblem } from "../../client";
import { adminInputs, adminTlsInput, timeoutsInput } from "../common/inputs/admin";
import { type CheckFailure, defineResource } from "../common/inputs/definition";
import { nonEmpty } from "../common/inputs/schemas";
import {
  objectStoreCredentialsSchema,
  objectStoreSchema,
  objectUrlSchema,
} from "../common/inputs/object-store";
import { resourceFrame } from "../common/pulumi/frame";
import type { SiteImportInputs } from "./generated";

/** Default bound on an import, including the waits before and after it. */
export const DEFAULT_IMPORT_MS = 60 * 60_000;

const admin = adminInputs();

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
 *
 * @internal
 */
export const SITE_IMPORT_DEFINITION = defineResource({
  type: "SiteImport",
  folder: "site-import",
  doc: "An import of an exported site configuration (importSite): a one-shot.",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link SiteImport}: the site to restore into ({@link ServerResourceArgs}; " +
    "its administrator stays the administrator) and exactly one archive. Every field accepts a " +
    "`pulumi.Input`.",
  inputs: {
    serverType: { ...admin.serverType, stateOnly: true },
    adminUrl: {
      ...admin.adminUrl,
      doc:
        "Administrative root of a machine of the site, direct (importSite is not available " +
        "through a web adaptor, Esri's docs say). Default: `connection.adminUrl`, stack config " +
        "`arcgis-admin:adminUrl`, `ARCGIS_ADMIN_URL`.",
      own: true,
      stateOnly: true,
    },
    username: admin.username,
    password: admin.password,
    location: {
      schema: () => nonEmpty().optional(),
      doc:
        "The archive as the server reads it: a path (e.g. a SiteExport's `location`) or an " +
        "uploaded item's id. Exactly one of `location`, `localArchive` and `archiveObject`.",
      outputDoc: "The archive as the server read it, when given.",
      stateOnly: true,
    },
    localArchive: {
      schema: () => nonEmpty().optional(),
      doc: "A local archive (e.g. a SiteExport's `localPath`), uploaded to the server first.",
      outputDoc: "The local archive uploaded, when given.",
      stateOnly: true,
    },
    archiveObject: {
      schema: () => objectUrlSchema().optional(),
      doc:
        "An archive in S3-compatible object storage, `s3://bucket/key` (e.g. a SiteExport's " +
        "`objectUrl`): streamed from the store to the server as an uploaded item (never held " +
        "whole, never written to disk), then imported. Requires `archiveSha256`: its content " +
        "must hash to it before it is imported (the object's own `sha256` metadata is no proof: " +
        "whoever can write the bucket sets it). Another URL of the same content is no new import.",
      outputDoc: "The archive object streamed to the server, when given.",
      stateOnly: true,
    },
    objectStore: {
      schema: objectStoreSchema,
      doc: "With archiveObject: the store's endpoint, region and path style (default: AWS S3).",
      outputDoc: "The store's endpoint, region and path style as given.",
      defaultText: "AWS S3",
      stateOnly: true,
      url: ["endpoint"],
    },
    objectStoreCredentials: {
      schema: objectStoreCredentialsSchema,
      doc:
        "With archiveObject: static credentials of the store, always stored as a secret. " +
        "Default: the AWS SDK's chain, as the AWS CLI (AWS_ACCESS_KEY_ID and " +
        "AWS_SECRET_ACCESS_KEY, AWS_PROFILE and ~/.aws/config, SSO, an instance role).",
      outputDoc: "The store's static credentials as given (a secret).",
      defaultText: "the AWS SDK's chain",
      secret: true,
      stateOnly: true,
    },
    archiveSha256: {
      schema: () =>
        z
          .string()
          .regex(/^[0-9a-f]{64}$/i, {
            error: (issue) =>
              issue.input === ""
                ? "is empty: give the archive's SHA-256 as the stack recorded it (a SiteExport's sha256 output); an empty value proves nothing"
                : "must be a SHA-256 in hex (64 digits)",
          })
          .optional(),
      doc:
        "The archive's SHA-256 as the stack recorded it (e.g. a SiteExport's `sha256`): checked " +
        "against localArchive and archiveObject (required with archiveObject: absent or empty " +
        "is refused), and the fingerprint of a location. A value that resolves to undefined " +
        "counts as absent.",
      outputDoc: "The archive's SHA-256, when given.",
      // A SiteExport's `sha256` output, which is unset without a download, may be passed as is.
      argType: "pulumi.Input<string | undefined>",
      stateOnly: true,
    },
    triggers: {
      schema: () => z.array(z.unknown()).optional(),
      doc: "Any values: a change imports again (as `triggers` in pulumi-command).",
      outputDoc: "The values whose change imports again.",
    },
    tls: adminTlsInput(),
    timeouts: timeoutsInput(
      {
        importMs: {
          ms: DEFAULT_IMPORT_MS,
          doc:
            "How long the import may take, including waiting while an export holds the site " +
            "and, after a lost answer, for the site to be ready again.",
        },
      },
      "How long the import may take, including waiting while an export holds the site.",
    ),
  },
  outputs: {
    fingerprint: {
      type: "string",
      doc: "What identifies the archive: `sha256:<hex>`, or `location:<path or id>` without a hash.",
    },
    uploadedItemId: {
      type: "string",
      optional: true,
      doc: "With localArchive or archiveObject: the id of the uploaded item the import read.",
    },
    outcome: {
      type: '"imported" | "answer-lost"',
      doc: "`imported` (the server answered success) or `answer-lost` (sent once, answer lost).",
    },
    importedAt: { type: "string", doc: "When the import ended (ISO 8601)." },
    report: {
      type: "string",
      optional: true,
      doc: "The server's answer without `status` (its report; shape undocumented), as JSON text.",
    },
  },
  operation: "`POST {admin_root}/importSite`",
  summary: "Restores a site configuration from an exportSite archive, once.",
  connection: "server",
  crossChecks: siteImportCrossChecks,
});

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
 * The frame of a `SiteImport`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SITE_IMPORT = resourceFrame<SiteImportInputs>()(SITE_IMPORT_DEFINITION);

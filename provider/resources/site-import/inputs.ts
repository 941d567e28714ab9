/**
 * The inputs of a `SiteImport`: their types, the zod schema that checks them, the rule across
 * fields, and which inputs only update state (another archive, site or triggers is a new import).
 */
import * as fs from "node:fs";
import { objectUrlProblem } from "../../client";
import { inputsSchema, inputsWith } from "../common/inputs/definition";
import { type CheckFailure } from "../common/inputs/check";
import { inputReader, type InputRules } from "../common/pulumi/implementation";
import type { Assert, ParsesTo } from "../common/inputs/schema-match";
import { SITE_IMPORT_DEFINITION } from "./definition";
import type { SiteImportInputs } from "./generated";
import { SITE_IMPORT } from "./resource";

export type { SiteImportInputs, SiteImportOutputs } from "./generated";
export { DEFAULT_IMPORT_MS } from "./definition";

/**
 * The zod schema of the SiteImport inputs.
 *
 * @internal
 */
export function siteImportInputsSchema() {
  return inputsSchema(SITE_IMPORT_DEFINITION);
}

/**
 * The generated {@link SiteImportInputs} and the schema agree (a build error otherwise).
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
export const STATE_ONLY_INPUTS = inputsWith(SITE_IMPORT_DEFINITION, "stateOnly");

/**
 * `SiteImport`: restores a site's configuration from an archive made by exportSite
 * (`importSite`), as a Pulumi dynamic resource. Reads top-down as its lifecycle: check (the input
 * rules), diff, create (fingerprint, upload, import, a lost answer), read, update, delete; then
 * the implementation the host loads from this module's path, and the provider that loads it.
 * Its inputs, class and frame derive from `definition.ts` (`generated.ts`); what a restore leaves
 * out is listed there.
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, promises as fsp } from "node:fs";
import type * as pulumi from "@pulumi/pulumi";
import {
  type AdminSession,
  answerMayBeLost,
  deleteUploadedItem,
  importSite,
  isNotFoundError,
  ObjectStoreError,
  retryWhile,
  uploadItem,
  uploadItemFromObject,
  waitForImport,
} from "../../client";
import { adminSessionFor, isHeldByExportOrImport } from "../common/connection/admin";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { implementationOf } from "../common/pulumi/implementation";
import { explained, failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { ProgressReporter } from "../common/messages/progress";
import { inputChanged, sameValue, stateOnlyUpdate } from "../common/pulumi/state-diff";
import { SITE_IMPORT_DEFINITION, SITE_IMPORT } from "./definition";
import { transportFor } from "../common/connection/tls";
import { objectStoreSettings } from "../common/inputs/object-store";
import { attemptMark, earlierAttempt, forgetAttempt } from "./attempt";
import { withoutTrailingSlash } from "../../url";
import type { SiteImportInputs, SiteImportOutputs } from "./generated";

/**
 * diff: importing again (a replacement) only for another site, another archive (by fingerprint: a
 * local archive is hashed again, so a moved file with the same content is the same archive) or
 * changed triggers. Another spelling of the same site URL, a checksum added to the same archive,
 * `serverType`, credentials, `tls` and `timeouts` only update state: a restore is never run twice
 * for the same archive on the same site unless `triggers` ask for it. A replacement says in the
 * preview what it will do on the server.
 */
async function diff(_id: string, olds: SiteImportOutputs, rawNews: unknown) {
  const news = withoutProvider(rawNews);
  const replaces: string[] = [];
  if (inputChanged(SITE_IMPORT_DEFINITION, "adminUrl", olds, news)) replaces.push("adminUrl");
  if (!sameValue(olds.triggers, news.triggers)) replaces.push("triggers");
  const archiveChanged = !(await sameArchive(olds, news));
  if (archiveChanged) {
    replaces.push(
      news.localArchive !== undefined
        ? "localArchive"
        : news.archiveObject !== undefined
          ? "archiveObject"
          : "location",
    );
  }
  if (replaces.length > 0) {
    logWarn(
      `SiteImport on ${String(news.adminUrl)}: ${replaces.join(", ")} changed, so this ` +
        "replacement sends importSite again: the site's configuration is replaced by the " +
        "archive's, undoing every change made to the site since. Revert the change to keep the " +
        "site as it is.",
    );
    return { changes: true, replaces };
  }
  return { changes: SITE_IMPORT.changes(olds, news).updates.length > 0 };
}

/**
 * Whether the new inputs name the archive that was imported (by fingerprint where possible). An
 * archive object is named by its `archiveSha256`, at whatever URL: its content is not read again,
 * and its own metadata is no proof of what it holds.
 */
async function sameArchive(
  olds: SiteImportOutputs,
  news: Record<string, unknown>,
): Promise<boolean> {
  const { localArchive, location, archiveSha256 } = news;
  if (typeof localArchive === "string") {
    try {
      return `sha256:${await sha256Of(localArchive)}` === olds.fingerprint;
    } catch {
      // Unreadable now (moved, or unknown during a preview): compare what is declared.
      return localArchive === olds.localArchive;
    }
  }
  if (olds.localArchive === undefined && location !== undefined && location === olds.location) {
    // The same path or item the server read: adding (or removing) its checksum is no new archive.
    if (typeof archiveSha256 !== "string" || !olds.fingerprint.startsWith("sha256:")) return true;
  }
  if (typeof archiveSha256 === "string") {
    return `sha256:${archiveSha256.toLowerCase()}` === olds.fingerprint;
  }
  return false;
}

/**
 * create: fingerprints the archive, uploads a local one (once) or streams an archive object to
 * the server (once, checked against its SHA-256 before its last byte), sends importSite once
 * (retried only while an export or another import holds the site, which the server refuses
 * without acting), and records the outcome. After a lost answer importSite is never sent again: the
 * import may
 * still run. The site is watched until it is ready again, and the outcome recorded as
 * `answer-lost`, with a warning.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = SITE_IMPORT.parse(raw);
  const session = adminSessionFor(inputs);
  let fingerprint = await fingerprintOf(inputs);
  const deadline = Date.now() + inputs.timeouts.importMs;
  const progress = new ProgressReporter(
    `importSite on ${inputs.adminUrl}`,
    inputs.timeouts.importMs,
  );
  let location = inputs.location;
  let uploadedItemId: string | undefined;
  const mark = attemptMark(inputs, fingerprint);
  if (inputs.location === undefined) {
    const earlier = await earlierAttempt(session, mark);
    if (earlier !== undefined) return afterInterruptedAttempt(inputs, fingerprint, earlier.itemID);
  }
  // A failure known to come before importSite took effect takes this attempt's upload with it.
  const forgetUpload = async (error: unknown): Promise<never> => {
    await forgetAttempt(session, mark);
    throw error;
  };
  if (inputs.archiveObject !== undefined) {
    const object = inputs.archiveObject;
    const expectedSha256 = inputs.archiveSha256;
    // check() requires it; a value unknown at the preview is only known here.
    if (expectedSha256 === undefined) {
      throw new Error(
        `archiveSha256 is required with archiveObject ${object}: the archive's SHA-256 as the ` +
          "stack recorded it (a SiteExport's sha256 output). Nothing was imported.",
      );
    }
    const item = await explained(
      () =>
        uploadItemFromObject(session, objectStoreSettings(inputs), object, {
          description: `pulumi-arcgis-admin site archive ${object} ${mark} upload ${randomUUID()}`,
          expectedSha256,
        }),
      (error) =>
        isObjectStoreError(error)
          ? `archiveObject ${object}: ${messageOf(error)} Nothing was imported.`
          : `${failureMessage("uploads/upload", inputs.adminUrl, error)} (streaming archiveObject ` +
            `${object}). Nothing was imported. A server that refuses the .agssite extension for ` +
            "uploads needs it in its allowed upload extensions.",
    ).catch(forgetUpload);
    uploadedItemId = item.itemID;
    location = item.itemID;
    fingerprint = `sha256:${item.sha256}`;
  }
  if (inputs.localArchive !== undefined) {
    uploadedItemId = await explained(
      () => uploadOnce(inputs, session, `${fingerprint} ${mark}`),
      (error) =>
        `${failureMessage("uploads/upload", inputs.adminUrl, error)} Nothing was imported. ` +
        "A server that refuses the .agssite extension for uploads needs it in its allowed " +
        "upload extensions, or give location (a path the server can read) instead.",
    ).catch(forgetUpload);
    location = uploadedItemId;
  }

  const outs: SiteImportOutputs = {
    ...inputs,
    fingerprint,
    outcome: "imported",
    importedAt: "",
    ...(uploadedItemId === undefined ? {} : { uploadedItemId }),
  };
  try {
    const answer = await retryWhile(
      isHeldByExportOrImport,
      {
        deadline,
        baseDelay: 1_000,
        maxDelay: 15_000,
        onRetry: () => progress.tick("the site is busy with an export or another import"),
      },
      () => importSite(session, { location: location!, serverType: inputs.serverType }),
    );
    const { status: _status, ...report } = answer;
    if (Object.keys(report).length > 0) outs.report = JSON.stringify(report);
  } catch (error) {
    if (isHeldByExportOrImport(error)) {
      await forgetAttempt(session, mark);
      throw new Error(
        `importSite on ${inputs.adminUrl} could not start within timeouts.importMs ` +
          `(${inputs.timeouts.importMs} ms): an export or another import held the site the ` +
          `whole time (${messageOf(error)}). Nothing was imported. Raise timeouts.importMs or run again.`,
        { cause: error },
      );
    }
    if (!answerMayBeLost(error)) {
      await forgetAttempt(session, mark);
      throw new Error(
        `${failureMessage("importSite", inputs.adminUrl, error)} Nothing was imported.`,
        { cause: error },
      );
    }
    logWarn(
      `The answer to importSite on ${inputs.adminUrl} was lost (${messageOf(error)}). It is not ` +
        "sent again: the import may still run. Waiting for the site to answer as ready.",
    );
    await waitForImport(
      {
        adminUrl: inputs.adminUrl,
        serverType: inputs.serverType,
        username: inputs.username,
        password: inputs.password,
        ...transportFor(inputs.adminUrl, inputs.tls),
      },
      {
        deadline: Math.max(deadline, Date.now() + 1_000),
        pollIntervalMs: 2_000,
        onStatus: (status) => progress.tick(status.detail),
      },
    ).catch((waitError: unknown) => {
      throw new Error(
        `The answer to importSite on ${inputs.adminUrl} was lost (${messageOf(error)}), and the ` +
          `site did not answer as ready within timeouts.importMs (${messageOf(waitError)}). ` +
          "importSite was not sent again. Check the site; the resource was not recorded.",
        { cause: waitError },
      );
    });
    logWarn(
      `The site at ${inputs.adminUrl} answers as ready again after the lost importSite answer. ` +
        "Whether the import ran cannot be read from the server: check the site's configuration. " +
        "Recorded as outcome answer-lost; change triggers to import again.",
    );
    outs.outcome = "answer-lost";
  }
  outs.importedAt = new Date().toISOString();
  return { id: `${withoutTrailingSlash(inputs.adminUrl)}/importSite#${fingerprint}`, outs };
}

/**
 * create, when an earlier attempt with the same inputs left its upload on the server: that run
 * was killed or lost its answer after the upload, so its importSite may have run. It is not sent
 * again; the outcome is recorded as unknown (`answer-lost`), with what to do.
 */
function afterInterruptedAttempt(
  inputs: SiteImportInputs,
  fingerprint: string,
  itemId: string,
): pulumi.dynamic.CreateResult {
  logWarn(
    `An earlier run's import of ${fingerprint} into ${inputs.adminUrl} ended after it had ` +
      `uploaded the archive (item ${itemId}); its importSite may have run, so it is not sent ` +
      "again. Check the site's configuration. Recorded as outcome answer-lost; to import " +
      "again, change triggers.",
  );
  const outs: SiteImportOutputs = {
    ...inputs,
    fingerprint,
    outcome: "answer-lost",
    importedAt: new Date().toISOString(),
    uploadedItemId: itemId,
  };
  return { id: `${withoutTrailingSlash(inputs.adminUrl)}/importSite#${fingerprint}`, outs };
}

/** SHA-256 of a local file, streamed; a device, FIFO or folder is refused before it is opened. */
async function sha256Of(file: string): Promise<string> {
  if (!(await fsp.stat(file)).isFile()) throw new Error(`${file} is not a regular file`);
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * The archive's fingerprint: its SHA-256 when it can be known (a local archive is hashed, and must
 * match `archiveSha256` when both are given; an archive object's is known once it is streamed),
 * else the location the server reads.
 */
async function fingerprintOf(inputs: SiteImportInputs): Promise<string> {
  if (inputs.localArchive !== undefined) {
    const file = inputs.localArchive;
    const actual = await explained(
      () => sha256Of(file),
      (error) => `Cannot read localArchive ${file}: ${messageOf(error)}`,
    );
    if (inputs.archiveSha256 !== undefined && inputs.archiveSha256.toLowerCase() !== actual) {
      throw new Error(
        `localArchive ${inputs.localArchive} has SHA-256 ${actual}, not archiveSha256 ` +
          `${inputs.archiveSha256}: it changed since it was made. Nothing was sent.`,
      );
    }
    return `sha256:${actual}`;
  }
  if (inputs.archiveSha256 !== undefined) return `sha256:${inputs.archiveSha256.toLowerCase()}`;
  return `location:${inputs.location ?? inputs.archiveObject ?? ""}`;
}

/**
 * Uploads the local archive and returns the new item's id. The archive is always uploaded by this
 * resource itself: an item already on the server is never imported, whatever its description
 * says, because the server cannot prove its content (anyone allowed to upload could have planted
 * it). The description names the archive's fingerprint, the attempt's mark and this upload's own
 * nonce.
 */
async function uploadOnce(
  inputs: SiteImportInputs,
  session: AdminSession,
  marked: string,
): Promise<string> {
  const description = `pulumi-arcgis-admin site archive ${marked} upload ${randomUUID()}`;
  const { itemID } = await uploadItem(session, { file: inputs.localArchive!, description });
  return itemID;
}

/** Whether a failure is the object store's (the object, its checksum, the credentials). */
function isObjectStoreError(e: unknown): e is ObjectStoreError {
  return e instanceof ObjectStoreError;
}

/** read (refresh): an import is an event in the past; nothing on the server can undo it. */
async function read(id: string, props: SiteImportOutputs): Promise<pulumi.dynamic.ReadResult> {
  return { id, props };
}

/** update: state only (an import is never repeated in place). */
const update = stateOnlyUpdate<SiteImportOutputs>(SITE_IMPORT.parse, SITE_IMPORT.stateOnly);

/**
 * delete: an import cannot be undone (restore another archive for that). The item this resource
 * uploaded is deleted from the server: an archive left there would be taken, by a later create
 * with the same inputs, for the trace of an interrupted attempt (see attempt.ts).
 */
async function remove(_id: string, props: SiteImportOutputs): Promise<void> {
  const item = props.uploadedItemId;
  if (item !== undefined) {
    await deleteUploadedItem(adminSessionFor(props), item).catch((error: unknown) => {
      if (!isNotFoundError(error)) {
        throw new Error(
          `${failureMessage("uploads/delete", props.adminUrl, error)} The uploaded archive ` +
            `(item ${item}) is still on the server; run \`pulumi destroy\` again.`,
          { cause: error },
        );
      }
    });
  }
  logInfo(
    `Forgot the import of ${props.fingerprint} into ${props.adminUrl}: an import cannot be ` +
      "undone." +
      (item === undefined ? "" : ` Deleted the uploaded archive (item ${item}) from the server.`),
  );
}

/**
 * The SiteImport implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(SITE_IMPORT.rules, {
  diff,
  create,
  read,
  update,
  delete: remove,
});

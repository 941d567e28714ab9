/**
 * `SiteExport`: a one-shot export of a site's configuration with `exportSite`, as a Pulumi dynamic
 * resource. Reads top-down as its lifecycle: check (the input rules), diff, create (version,
 * export, download or upload to object storage), read, update, delete; then the implementation the
 * host loads from this
 * module's path, and the provider that loads it. Its inputs, class and frame derive from
 * `definition.ts` (`generated.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import {
  type AdminSession,
  cleanUrl,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  deleteObject,
  downloadExport,
  headObject,
  objectLocation,
  uploadExport,
  exportSite,
  isArcGISRequestError,
  retryWhile,
  serverInfo,
  serverProduct,
  archiveDigest,
} from "../../client";
import { adminSessionFor, isHeldByExport } from "../common/connection/admin";
import { withoutProvider } from "../common/pulumi/lazy-provider";
import { failureMessage, messageOf } from "../common/messages/failures";
import { logInfo, logWarn } from "../common/messages/log";
import { ProgressReporter } from "../common/messages/progress";
import { stateOnlyUpdate } from "../common/pulumi/state-diff";
import { SITE_EXPORT } from "./definition";
import { transportFor } from "../common/connection/tls";
import { implementationOf } from "../common/pulumi/implementation";
import { objectStoreSettings } from "../common/inputs/object-store";
import type { SiteExportInputs, SiteExportOutputs } from "./generated";

/**
 * diff: another server, location, download folder or triggers is a new export (a replacement);
 * credentials, limits and `tls` only update state.
 */
function diff(_id: string, olds: SiteExportOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  // `location` in state is the server's answer; the user's input is kept as `requestedLocation`.
  const oldInputs: Record<string, unknown> = { ...olds, location: olds.requestedLocation };
  return SITE_EXPORT.diff(oldInputs, news);
}

/**
 * create: checks the server's version, sends exportSite (retried while another export or
 * administrative change holds the site, until timeouts.exportMs), and downloads the archive to
 * downloadTo, or streams it to the object store of uploadTo, when asked.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = SITE_EXPORT.parse(raw);
  const session = adminSessionFor(inputs);
  const progress = new ProgressReporter(
    `exportSite on ${inputs.adminUrl}`,
    inputs.timeouts.exportMs,
  );
  const version = await requireExportVersion(inputs, session);
  let answer: { location: string };
  try {
    answer = await retryWhile(
      isHeldByExport,
      {
        deadline: Date.now() + inputs.timeouts.exportMs,
        baseDelay: 500,
        maxDelay: 10_000,
        onRetry: () =>
          progress.tick("the site is busy with another export or administrative change"),
      },
      () => exportSite(session, inputs.location === undefined ? {} : { location: inputs.location }),
    );
  } catch (error) {
    if (!isHeldByExport(error)) {
      throw new Error(failureMessage("exportSite", inputs.adminUrl, error), { cause: error });
    }
    throw new Error(
      `exportSite on ${inputs.adminUrl} could not start within timeouts.exportMs ` +
        `(${inputs.timeouts.exportMs} ms): the site stayed busy with another export or ` +
        `administrative change (${messageOf(error)}). Raise timeouts.exportMs or run again.`,
      { cause: error },
    );
  }

  const isUrl = /^https?:\/\//i.test(answer.location);
  const { location: requested, ...rest } = inputs;
  const outs: SiteExportOutputs = {
    ...rest,
    location: answer.location,
    fileName: path.posix.basename(answer.location.replace(/\\/g, "/")),
    exportedAt: new Date().toISOString(),
  };
  if (version !== undefined) outs.serverVersion = version;
  // `location` in state is the server's answer; what the user asked for is kept for diff.
  if (requested !== undefined) outs.requestedLocation = requested;

  const destination = inputs.downloadTo !== undefined ? "downloadTo" : "uploadTo";
  if ((inputs.downloadTo !== undefined || inputs.uploadTo !== undefined) && !isUrl) {
    throw new Error(
      `exportSite on ${inputs.adminUrl} wrote ${answer.location} on the server instead of ` +
        `answering a download URL, so there is nothing to download to ${destination}.`,
    );
  }
  if (inputs.uploadTo !== undefined) {
    const object = await upload(
      inputs,
      inputs.uploadTo,
      session,
      answer.location,
      progress.elapsed(),
    );
    Object.assign(outs, {
      fileName: object.fileName,
      objectUrl: object.url,
      sizeBytes: object.sizeBytes,
      sha256: object.sha256,
    });
  }
  if (inputs.downloadTo !== undefined) {
    const local = await download(
      inputs,
      // Relative to the project folder (the provider's working directory), so that the input
      // stays the same string on every machine and a runner's own path never replaces the export.
      path.resolve(inputs.downloadTo),
      session,
      answer.location,
      progress.elapsed(),
    );
    Object.assign(outs, {
      fileName: local.fileName,
      localPath: local.path,
      sizeBytes: local.sizeBytes,
      sha256: local.sha256,
    });
  }
  return { id: answer.location, outs };
}

/**
 * Reads the server's version and refuses an export on a server older than exportSite (ArcGIS
 * Server 10.2, Mission Server 10.8, Notebook Server 10.7, Video Server 11.3). An unreadable
 * version is reported and the export goes on.
 */
async function requireExportVersion(
  inputs: SiteExportInputs,
  session: AdminSession,
): Promise<string | undefined> {
  const product = serverProduct(inputs.serverType);
  try {
    // A site exists: Video Server's rest/info then wants a token (its documentation).
    const info = await serverInfo(inputs.adminUrl, {
      ...transportFor(inputs.adminUrl, inputs.tls, { timeouts: { headersMs: 30_000 } }),
      // Best effort: without a token (no site yet, wrong credentials) rest/info still answers
      // on every product but a Video Server site, and exportSite then reports the real problem.
      token: await session.token().catch(() => undefined),
    });
    const version = info.fullVersion ?? String(info.currentVersion);
    if (info.currentVersion < product.exportSiteSince) {
      throw new Error(
        `The ${product.label} at ${inputs.adminUrl} is version ${version}; exportSite exists ` +
          `from ${product.exportSiteSince}. Nothing was sent. Upgrade the server, or check ` +
          "serverType.",
      );
    }
    return version;
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code === "TLS") throw error;
    logWarn(
      `Could not read the version of ${inputs.adminUrl} from rest/info (${error.message}); ` +
        "going on without checking that it has exportSite.",
    );
    return undefined;
  }
}

/**
 * Streams the archive to downloadTo, within what is left of timeouts.exportMs (it bounds the whole
 * export, download included: a server trickling a byte every few seconds never trips the idle
 * limit) and within maxDownloadBytes (an endless body must not fill the disk).
 */
async function download(
  inputs: SiteExportInputs,
  downloadTo: string,
  session: AdminSession,
  url: string,
  elapsedMs: number,
) {
  const remainingMs = Math.max(1, inputs.timeouts.exportMs - elapsedMs);
  const deadline = AbortSignal.timeout(remainingMs);
  try {
    return await downloadExport(
      session,
      url,
      downloadTo,
      transportFor(inputs.adminUrl, inputs.tls, {
        timeouts: { connectMs: 10_000, headersMs: 120_000, bodyMs: 300_000 },
        signal: deadline,
        maxDownloadBytes: inputs.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
      }),
    );
  } catch (error) {
    if (deadline.aborted) {
      throw new Error(
        `Downloading the export ${cleanUrl(url)} to ${downloadTo} did not complete within ` +
          `timeouts.exportMs (${inputs.timeouts.exportMs} ms), which bounds the whole export, ` +
          "download included. The partial file was removed. Raise timeouts.exportMs if the " +
          "server is just slow.",
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Streams the archive to the object store of uploadTo, within what is left of timeouts.exportMs
 * and maxDownloadBytes, as {@link download} does; a failure leaves no object under its final key.
 */
async function upload(
  inputs: SiteExportInputs,
  uploadTo: string,
  session: AdminSession,
  url: string,
  elapsedMs: number,
) {
  const remainingMs = Math.max(1, inputs.timeouts.exportMs - elapsedMs);
  const deadline = AbortSignal.timeout(remainingMs);
  try {
    return await uploadExport(
      session,
      url,
      uploadTo,
      objectStoreSettings(inputs),
      transportFor(inputs.adminUrl, inputs.tls, {
        timeouts: { connectMs: 10_000, headersMs: 120_000, bodyMs: 300_000 },
        signal: deadline,
        maxDownloadBytes: inputs.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
      }),
    );
  } catch (error) {
    if (deadline.aborted) {
      throw new Error(
        `Streaming the export ${cleanUrl(url)} to ${uploadTo} did not complete within ` +
          `timeouts.exportMs (${inputs.timeouts.exportMs} ms), which bounds the whole export, ` +
          "upload included. Nothing was left under the archive's name. Raise timeouts.exportMs " +
          "if the server or the store is just slow.",
        { cause: error },
      );
    }
    throw new Error(
      `Streaming the export ${cleanUrl(url)} to uploadTo (${uploadTo}) failed: ${messageOf(error)}`,
      { cause: error },
    );
  }
}

/**
 * read (refresh) with uploadTo: the object must still be there with the SHA-256 recorded (else
 * the resource is gone and the next `pulumi up` exports again). A store that cannot be asked is
 * an error, not a gone backup.
 */
async function readObject(
  id: string,
  props: SiteExportOutputs & { objectUrl: string },
): Promise<pulumi.dynamic.ReadResult> {
  const info = await headObject(objectStoreSettings(props), objectLocation(props.objectUrl));
  if (info === undefined) {
    logWarn(
      `The uploaded export ${props.objectUrl} is gone from the object store; the next ` +
        "`pulumi up` exports again.",
    );
    return {};
  }
  if (props.sha256 !== undefined && info.sha256 !== props.sha256) {
    logWarn(
      `The uploaded export ${props.objectUrl} is not the one uploaded (its sha256 metadata is ` +
        `${info.sha256 ?? "missing"}); the next \`pulumi up\` exports again.`,
    );
    return {};
  }
  return { id, props };
}

/**
 * read (refresh): with downloadTo, the local copy must still be there with the same SHA-256
 * (else the resource is gone and the next `pulumi up` exports again).
 */
async function read(id: string, props: SiteExportOutputs): Promise<pulumi.dynamic.ReadResult> {
  if (props.objectUrl !== undefined)
    return readObject(id, { ...props, objectUrl: props.objectUrl });
  if (props.localPath === undefined || props.sha256 === undefined) return { id, props };
  if (props.allowMissingDownload === true && !fs.existsSync(props.localPath)) {
    // On an ephemeral runner the download folder is gone with the runner; the export on the
    // server side is what was asked for, so it is kept rather than made again.
    logInfo(
      `The downloaded export ${props.localPath} is not on this machine; kept in state ` +
        "(allowMissingDownload).",
    );
    return { id, props };
  }
  try {
    // The same SHA-256 is the same bytes, checked as a zip when they arrived.
    const local = await archiveDigest(props.localPath);
    if (local.sha256 === props.sha256) return { id, props };
    logWarn(
      `The downloaded export ${props.localPath} changed since it was downloaded; the next ` +
        "`pulumi up` exports again.",
    );
  } catch (error) {
    logWarn(
      `The downloaded export ${props.localPath} is missing or unreadable (${messageOf(error)}); ` +
        "the next `pulumi up` exports again.",
    );
  }
  return {};
}

/** update: state only (an export is never repeated in place). */
const update = stateOnlyUpdate<SiteExportOutputs>(SITE_EXPORT.parse, SITE_EXPORT.stateOnly);

/**
 * delete: the archive is kept (backups must outlive stacks), unless deleteBackupOnDestroy opted
 * in for an uploaded one. One-shot register (ARCHITECTURE.md): only the object recorded in state
 * is deleted, and only while its sha256 metadata is the recorded one (another object that took
 * its key is not ours to delete).
 */
async function remove(_id: string, props: SiteExportOutputs): Promise<void> {
  if (props.objectUrl !== undefined && props.deleteBackupOnDestroy === true) {
    const settings = objectStoreSettings(props);
    const location = objectLocation(props.objectUrl);
    const info = await headObject(settings, location);
    if (info === undefined) {
      logInfo(`The uploaded export ${props.objectUrl} is already gone.`);
      return;
    }
    if (info.sha256 === undefined || info.sha256 !== props.sha256) {
      logWarn(
        `Kept ${props.objectUrl} although deleteBackupOnDestroy is set: it is not the archive ` +
          `this export uploaded (its sha256 metadata is ${info.sha256 ?? "missing"}, not ` +
          `${props.sha256 ?? "recorded"}).`,
      );
      return;
    }
    await deleteObject(settings, location);
    logInfo(`Deleted the uploaded export ${props.objectUrl} (deleteBackupOnDestroy).`);
    return;
  }
  const where = props.objectUrl ?? props.localPath ?? props.location;
  logInfo(
    `Kept the site export ${where}: backups must outlive stacks. Delete it yourself when it is ` +
      "no longer needed" +
      (props.objectUrl !== undefined ? ", or set deleteBackupOnDestroy." : "."),
  );
}

/**
 * The SiteExport implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = implementationOf(SITE_EXPORT.rules, {
  diff,
  create,
  read,
  update,
  delete: remove,
});

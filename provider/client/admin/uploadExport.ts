import type { AdminSession } from "../session";
import type { TransportOptions } from "../dispatcher";
import type { ObjectStoreSettings } from "../transfer/object-store";
import { canTransferOffThread, transferExportOffThread } from "../transfer/off-thread";
import { transferExport, type ExportTransfer } from "../transfer/export-transfer";
import type { UploadedExport } from "../transfer/uploaded-export";
import { withRetry } from "../retry";
import { exportDownloadUrl } from "./downloadExport";
import { definedFields, isHtmlInsteadOfFile } from "./export-download";

export type { UploadedExport } from "../transfer/uploaded-export";

/**
 * Streams a site archive that {@link exportSite} left on the server to S3-compatible object
 * storage, without writing it to disk: the same GET as downloadExport (token only to the
 * admin URL's origin, the same answers refused, the size limit), piped into a multipart upload
 * under a temporary key while it is hashed and checked as a zip; only a complete, checked archive
 * gets its final key `<prefix><file name>` (`-1`, `-2`, ... when taken) with its SHA-256 as the
 * object's `sha256` metadata. Transient failures of the download are retried (a GET; the upload
 * starts again).
 *
 * @param session - the admin session that exported the site.
 * @param url - the download URL exportSite answered.
 * @param destination - `s3://bucket/prefix`.
 * @param store - how to reach the store (endpoint, region, path style, credentials).
 * @param transport - overrides of the session's transport (e.g. a longer bodyMs, a signal).
 * @returns the object, its size and SHA-256.
 * @example
 * ```ts
 * const { location } = await exportSite(session);
 * const object = await uploadExport(session, location, "s3://backups/site-a", { region: "eu-west-1" });
 * ```
 * Maps to: `GET <download URL from exportSite>`, then S3 multipart upload, CopyObject and
 * DeleteObject (see uploadArchive).
 *
 * REST Documentation: as downloadExport.
 */
export async function uploadExport(
  session: AdminSession,
  url: string,
  destination: string,
  store: ObjectStoreSettings,
  transport: TransportOptions = {},
): Promise<UploadedExport> {
  const merged = { ...session.transport, ...definedFields(transport) };
  const fileUrl = exportDownloadUrl(session.adminUrl, url);
  return withRetry(
    () =>
      session.withToken((token) => {
        const transfer: ExportTransfer = {
          fileUrl,
          token,
          referer: session.referer,
          secrets: session.secrets(),
          transport: merged,
          destination,
          store,
        };
        // In a thread of its own when it can: see ../transfer/off-thread.ts for why (memory).
        return canTransferOffThread(merged)
          ? transferExportOffThread(transfer)
          : transferExport(transfer);
      }, isHtmlInsteadOfFile),
    session.retry,
    merged.signal,
  );
}

import type { AdminSession } from "../session";
import type { TransportOptions } from "../dispatcher";
import { verifyZipFile } from "../archive-check";
import { downloadToFile, type DownloadDestination, type DownloadResult } from "../download";
import type { ObjectStoreSettings } from "../object-store";
import { canTransferOffThread, transferExportOffThread } from "../off-thread";
import { transferExport, type ExportTransfer } from "./export-transfer";
import { ArcGISRequestError, isArcGISRequestError } from "../errors";
import { withRetry } from "../retry";

/**
 * Downloads a site archive that {@link exportSite} left on the server: streams it to a temporary
 * file in the destination folder while hashing, checks it is a readable zip, and only then gives
 * it its final name. The token travels in the X-Esri-Authorization header, never in the URL, and
 * only to the origin of the session's admin URL (the server's URL is rebased onto it). Both forms a
 * server may answer are accepted, decided by what comes back: a URL that serves the archive, or
 * an uploaded item (a JSON description) whose archive is at `.../download`. Transient failures
 * are retried (a GET), and a 498/499 renews the token once.
 *
 * @param session - the admin session that exported the site.
 * @param url - the download URL exportSite answered.
 * @param dest - a directory (name from Content-Disposition, else the URL's last segment plus
 *   `.agssite` when it has no extension), or `{ file }` for an exact path.
 * @param transport - overrides of the session's transport (e.g. a longer bodyMs, a signal).
 * @returns path, file name, size and SHA-256 of the archive.
 * @example
 * ```ts
 * const { location } = await exportSite(session);
 * const file = await downloadExport(session, location, { dir: "./backups" });
 * ```
 * Maps to: `GET <download URL from exportSite>`.
 *
 * REST Documentation: no Esri REST page found for the download itself; the URL comes from
 * exportSite (https://developers.arcgis.com/rest/enterprise-administration/server/exportsite), and
 * the uploaded-item form is described at
 * https://developers.arcgis.com/rest/enterprise-administration/server/uploadeditem.htm.
 */
export async function downloadExport(
  session: AdminSession,
  url: string,
  dest: DownloadDestination,
  transport: TransportOptions = {},
): Promise<DownloadResult> {
  const merged = { ...session.transport, ...definedFields(transport) };
  const fileUrl = exportDownloadUrl(session.adminUrl, url);
  return withRetry(
    () =>
      session.withToken(
        (token) =>
          downloadToFile({
            ...merged,
            url: fileUrl,
            operation: "downloadExport",
            token,
            referer: session.referer,
            secrets: session.secrets(),
            dest,
            defaultExtension: ".agssite",
            verify: verifyZipFile,
            fileOfItem: (itemUrl) => `${itemUrl.replace(/\/+$/, "")}/download`,
          }),
        isHtmlInsteadOfFile,
      ),
    session.retry,
    merged.signal,
  );
}

/** Where {@link uploadExport} put an archive. */
export interface UploadedExport {
  /** `s3://bucket/key`. */
  url: string;
  bucket: string;
  key: string;
  fileName: string;
  sizeBytes: number;
  /** Hex SHA-256 of the content, also the object's `sha256` metadata. */
  sha256: string;
}

/**
 * Streams a site archive that {@link exportSite} left on the server to S3-compatible object
 * storage, without writing it to disk: the same GET as {@link downloadExport} (token only to the
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
 * REST Documentation: as {@link downloadExport}.
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
        // In a thread of its own when it can: see off-thread.ts for why (memory).
        return canTransferOffThread(merged)
          ? transferExportOffThread(transfer)
          : transferExport(transfer);
      }, isHtmlInsteadOfFile),
    session.retry,
    merged.signal,
  );
}

/**
 * The URL to download an export from, on the origin of `adminUrl`: servers build the URL from
 * their own machine name, which a client behind a web adaptor or load balancer often cannot
 * reach, and which may name another scheme (an https admin URL answered with an http:// URL)
 * or host. The admin token goes only to the origin the user configured, so the same path below
 * the administrative root is fetched from `adminUrl` instead. A URL whose path is not below an
 * administrative root (`.../admin/...`) is refused.
 *
 * @param adminUrl - the administrative root the user configured.
 * @param url - the URL exportSite answered.
 * @returns the URL on `adminUrl`'s origin.
 * @example
 * ```ts
 * exportDownloadUrl("https://gis.example.com/server/admin", "http://MACHINE1:6080/arcgis/admin/uploads/i1")
 * // "https://gis.example.com/server/admin/uploads/i1"
 * ```
 * Sends no request: it computes the URL that downloadExport then fetches.
 *
 * @internal
 */
export function exportDownloadUrl(adminUrl: string, url: string): string {
  const admin = new URL(adminUrl);
  const adminPath = admin.pathname.replace(/\/+$/, "");
  const refuse = (why: string): never => {
    throw new ArcGISRequestError({
      code: "BAD_RESPONSE",
      operation: "downloadExport",
      url: adminUrl,
      detail: `exportSite answered the download URL ${cleanDisplay(url)}, ${why}; the admin token is not sent there.`,
    });
  };
  let answered: URL;
  try {
    answered = new URL(url);
  } catch {
    return refuse("which is not a URL");
  }
  if (answered.protocol !== "https:" && answered.protocol !== "http:") {
    return refuse("which is not an http(s) URL");
  }
  if (answered.origin === admin.origin && answered.pathname.startsWith(`${adminPath}/`)) {
    return `${admin.origin}${answered.pathname}`;
  }
  // The server's own context root (e.g. /arcgis/admin) may differ from a web adaptor's
  // (e.g. /server/admin): keep what follows the administrative root.
  const below = /^(?:\/[^/]+)*?\/admin(\/.+)$/i.exec(answered.pathname)?.[1];
  if (below === undefined || below === "/") {
    return refuse("whose path is outside the administrative root");
  }
  return `${admin.origin}${adminPath}${below}`;
}

function cleanDisplay(url: string): string {
  return url.replace(/[?#].*$/s, "");
}

/**
 * A download goes without f=json (which would describe the item instead of sending it), so a
 * server shows a token it no longer accepts as an HTML page (its error view or a login page) with
 * HTTP 200, not as a JSON 498: such an answer gets one renewal of the token too.
 */
function isHtmlInsteadOfFile(e: unknown): boolean {
  return (
    isArcGISRequestError(e) &&
    e.code === "BAD_RESPONSE" &&
    e.httpStatus === 200 &&
    e.message.includes("the server answered an HTML page")
  );
}

function definedFields(t: TransportOptions): TransportOptions {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined));
}

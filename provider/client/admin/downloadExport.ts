import type { AdminSession } from "../session";
import type { TransportOptions } from "../dispatcher";
import { verifyZipFile } from "../transfer/archive-check";
import {
  downloadToFile,
  type DownloadDestination,
  type DownloadResult,
} from "../transfer/download";
import { withRetry } from "../retry";
import { definedFields, exportDownloadUrl, isHtmlInsteadOfFile } from "./export-download";
import { withoutTrailingSlash } from "../url";

// The package has always exported exportDownloadUrl from this module.
export { exportDownloadUrl } from "./export-download";

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
            fileOfItem: (itemUrl) => `${withoutTrailingSlash(itemUrl)}/download`,
          }),
        isHtmlInsteadOfFile,
      ),
    session.retry,
    merged.signal,
  );
}

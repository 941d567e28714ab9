import type { AdminSession } from "../session";
import type { TransportOptions } from "../dispatcher";
import {
  downloadToFile,
  verifyZipFile,
  type DownloadDestination,
  type DownloadResult,
} from "../download";
import { isArcGISRequestError } from "../errors";
import { withRetry } from "../retry";

/**
 * Downloads a site archive that {@link exportSite} left on the server: streams it to a temporary
 * file in the destination folder while hashing, checks it is a readable zip, and only then gives
 * it its final name. The token travels in the X-Esri-Authorization header, never in the URL.
 * Transient failures are retried (a GET), and a 498/499 renews the token once.
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
 */
export async function downloadExport(
  session: AdminSession,
  url: string,
  dest: DownloadDestination,
  transport: TransportOptions = {},
): Promise<DownloadResult> {
  const merged = { ...session.transport, ...definedFields(transport) };
  return withRetry(
    () =>
      session.withToken(
        (token) =>
          downloadToFile({
            ...merged,
            url,
            operation: "downloadExport",
            token,
            referer: session.referer,
            secrets: session.secrets(),
            dest,
            defaultExtension: ".agssite",
            verify: verifyZipFile,
          }),
        isHtmlInsteadOfFile,
      ),
    session.retry,
    merged.signal,
  );
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

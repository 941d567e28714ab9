import type { AdminSession } from "../session";
import type { TransportOptions } from "../dispatcher";
import { verifyZipFile } from "../transfer/archive-check";
import {
  downloadToFile,
  type DownloadDestination,
  type DownloadResult,
} from "../transfer/download";
import { withRetry } from "../retry";
import { ArcGISRequestError } from "../errors";
import { definedFields, isHtmlInsteadOfFile } from "./export-download";
import { withoutTrailingSlash } from "../../url";

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
  const adminPath = withoutTrailingSlash(admin.pathname);
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

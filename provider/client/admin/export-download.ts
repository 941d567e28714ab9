/**
 * What downloadExport and uploadExport share: the URL an export is fetched from, and the answer
 * that earns the token one renewal.
 */
import { ArcGISRequestError, isArcGISRequestError } from "../errors";
import type { TransportOptions } from "../dispatcher";
import { withoutTrailingSlash } from "../url";

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

/**
 * A download goes without f=json (which would describe the item instead of sending it), so a
 * server shows a token it no longer accepts as an HTML page (its error view or a login page) with
 * HTTP 200, not as a JSON 498: such an answer gets one renewal of the token too.
 */
export function isHtmlInsteadOfFile(e: unknown): boolean {
  return (
    isArcGISRequestError(e) &&
    e.code === "BAD_RESPONSE" &&
    e.httpStatus === 200 &&
    e.message.includes("the server answered an HTML page")
  );
}

/** The transport overrides a caller actually set. */
export function definedFields(t: TransportOptions): TransportOptions {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined));
}

import { withoutTrailingSlash } from "../../../url";
/**
 * When two URL inputs name the same server: spellings that reach the same place are not a change
 * (host case, a default port written out, trailing slashes, `localhost` and the loopback
 * addresses), so that a cosmetic edit never replaces a resource, and a machine is recognised under
 * any of its spellings.
 */

/** Host names that all mean "this machine's loopback interface". */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * The canonical spelling of an http(s) URL: lower-case scheme and host, loopback hosts as
 * `localhost`, the default port left out, no trailing slash, no query or fragment. A value that is
 * not a URL is returned as it was.
 *
 * @internal
 */
export function canonicalUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  const host = LOOPBACK.has(url.hostname.toLowerCase()) ? "localhost" : url.hostname.toLowerCase();
  // The URL parser leaves a scheme's default port out (`https://h:443/` has port "").
  const port = url.port === "" ? "" : `:${url.port}`;
  const pathname = withoutTrailingSlash(url.pathname);
  return `${url.protocol}//${host}${port}${pathname}`;
}

/**
 * Whether two URL values name the same place (see {@link canonicalUrl}). Values that are not
 * strings (unknown during a preview, or absent) are compared as they are.
 *
 * @internal
 */
export function sameUrl(a: unknown, b: unknown): boolean {
  if (typeof a !== "string" || typeof b !== "string") return a === b;
  return canonicalUrl(a) === canonicalUrl(b);
}

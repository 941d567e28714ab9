/**
 * The one place the provider strips a URL's trailing slashes, so that a path is appended to a
 * root, or two spellings of one root compared, the same way everywhere (tests/package/
 * url-helper.test.ts keeps it the only copy). Beside the layers, not in the client, so that the
 * resource classes use it without loading any of the client.
 */

/**
 * The URL (or path) without its trailing slashes.
 *
 * @param url - a URL or a URL's path, as the user or the server wrote it.
 * @returns it without the slashes that end it; `""` for a path of slashes only.
 * @example `withoutTrailingSlash("https://gis.example.com/server/admin/") // ".../server/admin"`
 * @internal
 */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

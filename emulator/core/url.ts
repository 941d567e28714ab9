/**
 * The one place the emulator strips a URL's trailing slashes (it may not import provider/, which
 * has its own; tests/package/url-helper.test.ts keeps these two the only copies).
 */

/**
 * The URL (or path) without its trailing slashes.
 *
 * @param url - a URL or a URL's path, as a client sent it.
 * @returns it without the slashes that end it; `""` for a path of slashes only.
 * @example `withoutTrailingSlash("/arcgis/admin/") // "/arcgis/admin"`
 */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

import { withoutTrailingSlash } from "../url";
/**
 * The one error family of the client layer. Callers match on `code` (a stable string). Each class
 * carries a brand, a registered symbol (`Symbol.for`) unique to this package, that
 * `instanceof` and the guards check: so an error made by a second copy of this module (another
 * Jest module registry, a duplicated install) is still recognised, and another library's error of
 * the same `name` (arcgis-rest-js has an `ArcGISRequestError` too) is not taken for ours.
 *
 * A little over 300 lines: the class, its redaction of secrets and the guards stay in one file
 * because the guards rely on the brand and the fields that only this file defines.
 */

/** The brand of {@link ArcGISRequestError}: the same symbol in every copy of this package. */
const ARCGIS_REQUEST_ERROR = Symbol.for("pulumi-arcgis-admin.ArcGISRequestError");

/**
 * Stable classification of every failure the client layer reports.
 *
 * - `NETWORK`: no answer (connection refused or reset, DNS failure, socket closed).
 * - `TIMEOUT`: connect, headers or body timeout elapsed.
 * - `TLS`: the server's certificate was not trusted.
 * - `HTTP`: an HTTP status of 400 or more without an ArcGIS error body (e.g. a proxy's 502 page).
 * - `REDIRECT`: the server answered with a redirect (HTTP 3xx). It is never followed (the
 *   credentials must not go to another address), and waiting does not change it: final.
 * - `AUTH`: token missing, invalid or expired (498/499, HTTP 401) or permission denied (403).
 * - `SERVER`: any other ArcGIS error body (both the admin and the sharing format).
 * - `BAD_RESPONSE`: an answer that is not the JSON the operation needs.
 * - `TOO_LARGE`: a download grew past its size limit.
 * - `BAD_INPUT`: the request was refused before it was sent (credentials in the URL, a time
 *   limit that is not a positive number).
 * - `ABORTED`: the caller's AbortSignal fired.
 */
export type ArcGISErrorCode =
  | "NETWORK"
  | "TIMEOUT"
  | "TLS"
  | "HTTP"
  | "REDIRECT"
  | "AUTH"
  | "SERVER"
  | "BAD_RESPONSE"
  | "TOO_LARGE"
  | "BAD_INPUT"
  | "ABORTED";

/** What {@link ArcGISRequestError} is built from. */
export interface ArcGISRequestErrorInit {
  /** Stable classification. */
  code: ArcGISErrorCode;
  /** Operation name used in the message, e.g. `createNewSite`. */
  operation: string;
  /** URL that was called; query string, fragment and credentials are dropped. */
  url: string;
  /** Human-readable explanation appended after `failed...:`; redacted. */
  detail: string;
  /** The server's own error code (e.g. 500, 498, 409). */
  serverCode?: number | undefined;
  /** The server's messages (redacted before they are stored). */
  messages?: readonly string[] | undefined;
  /** HTTP status of the answer, when there was one. */
  httpStatus?: number | undefined;
  /** The original failure. */
  cause?: unknown;
  /** Values to redact from the message and messages (passwords, tokens). */
  secrets?: readonly string[] | undefined;
  /** Which error body the server answered, when it answered one (see {@link ErrorFormat}). */
  errorFormat?: ErrorFormat | undefined;
  /** Why waiting cannot fix this failure, when whoever made it knows (see {@link PermanentReason}). */
  permanent?: PermanentReason | undefined;
}

/**
 * Why waiting for a server cannot fix a failure, so that a wait ends at once instead of at its
 * deadline (readiness.ts `permanentReason` reads it, and words the rest):
 *
 * - `plain-http`: an `http://` URL on a port that speaks TLS;
 * - `no-tls`: an `https://` URL on a port that does not speak TLS (plain http);
 * - `not-found`: HTTP 404 at the URL (a path typo);
 * - `wrong-product`: another product than the one declared answers (or a portal, for a server);
 * - `tls-untrusted`, `tls-hostname`: the certificate is not trusted, or names another host;
 * - `tls-expired`, `tls-not-yet-valid`: the certificate (or one of its chain) is not valid now;
 * - `credentials`: generateToken refused the username and password;
 * - `redirect`: the URL redirects elsewhere (never followed);
 * - `aborted`: the caller stopped it.
 */
export type PermanentReason =
  | "plain-http"
  | "no-tls"
  | "not-found"
  | "wrong-product"
  | "tls-untrusted"
  | "tls-hostname"
  | "tls-expired"
  | "tls-not-yet-valid"
  | "credentials"
  | "redirect"
  | "aborted";

/**
 * The two error bodies of ArcGIS servers: `status` is `{"status":"error","code","messages"}`
 * (ArcGIS Server's admin API), `error` is `{"error":{"code","message"}}` (the sharing API, and the
 * admin API of Mission, Notebook and Video Server).
 */
export type ErrorFormat = "status" | "error";

/**
 * A failed ArcGIS REST call. Carries no request parameters, so printing it never shows a password.
 *
 * @example
 * ```ts
 * try { await exportSite(session, {}); }
 * catch (e) { if (isArcGISRequestError(e) && e.code === "AUTH") { ... } }
 * ```
 * Maps to: every REST operation of the admin and sharing APIs.
 */
export class ArcGISRequestError extends Error {
  /**
   * Recognises an error of this class by its brand, also one made by another copy of this module.
   *
   * @param instance - any value.
   * @returns whether it carries the brand.
   * @example
   * ```ts
   * if (e instanceof ArcGISRequestError) console.log(e.code);
   * ```
   */
  static override [Symbol.hasInstance](instance: unknown): boolean {
    return isArcGISRequestError(instance);
  }

  override readonly name = "ArcGISRequestError";
  /** Stable classification; match on this. */
  readonly code: ArcGISErrorCode;
  /** Operation that failed, e.g. `exportSite`. */
  readonly operation: string;
  /** URL that was called, without query string. */
  readonly url: string;
  /** The server's own error code, when it sent one. */
  readonly serverCode?: number;
  /** The server's messages, redacted. */
  readonly messages: string[];
  /** HTTP status of the answer, when there was one. */
  readonly httpStatus?: number;
  /** Which error body the server answered, when it answered one. */
  readonly errorFormat?: ErrorFormat;
  /** Why waiting cannot fix it, when the client established that (see {@link PermanentReason}). */
  readonly permanent?: PermanentReason;
  /** The underlying failure. */
  declare readonly cause?: unknown;

  /**
   * Builds the error and its message `<operation> on <target> failed (code N): <detail>`.
   *
   * @param init - classification, location and details; see {@link ArcGISRequestErrorInit}.
   * @example
   * ```ts
   * new ArcGISRequestError({ code: "SERVER", operation: "exportSite", url, detail: "Busy.", serverCode: 500 });
   * ```
   */
  constructor(init: ArcGISRequestErrorInit) {
    const secrets = init.secrets ?? [];
    const url = cleanUrl(init.url);
    const codePart = init.serverCode === undefined ? "" : ` (code ${init.serverCode})`;
    // The server's code is ours to print: redacting a password "500" out of "(code 500)" would
    // tell the reader the password.
    const target = redactSecrets(describeTarget(url, init.operation), secrets);
    const detail = redactSecrets(init.detail, secrets);
    const message = `${init.operation} on ${target} failed${codePart}: ${detail}`;
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.operation = init.operation;
    this.url = url;
    this.messages = (init.messages ?? []).map((m) => redactSecrets(m, secrets));
    if (init.serverCode !== undefined) this.serverCode = init.serverCode;
    if (init.httpStatus !== undefined) this.httpStatus = init.httpStatus;
    if (init.errorFormat !== undefined) this.errorFormat = init.errorFormat;
    if (init.permanent !== undefined) this.permanent = init.permanent;
  }
}

// On the prototype, not in the declarations: a getter that is not enumerable, as undici's errors
// carry theirs, so it is neither printed nor copied by a spread.
Object.defineProperty(ArcGISRequestError.prototype, ARCGIS_REQUEST_ERROR, {
  get: () => true,
  enumerable: false,
  configurable: false,
});

/**
 * Drops query string, fragment and user info from a URL, so an error never carries parameters.
 *
 * @param url - any absolute URL (returned unchanged if it cannot be parsed).
 * @returns origin plus path, without a trailing slash.
 * @example
 * ```ts
 * cleanUrl("https://h/arcgis/admin/?f=json") // "https://h/arcgis/admin"
 * ```
 *
 * @internal
 */
export function cleanUrl(url: string): string {
  try {
    const u = new URL(url);
    return withoutTrailingSlash(`${u.origin}${u.pathname}`);
  } catch {
    return url.replace(/[?#].*$/s, "");
  }
}

/** "createNewSite on https://h/arcgis/admin" reads better than ".../admin/createNewSite". */
function describeTarget(url: string, operation: string): string {
  const suffix = `/${operation}`;
  return url.endsWith(suffix) && url.length > suffix.length ? url.slice(0, -suffix.length) : url;
}

const REDACTED = "[REDACTED]";

/**
 * Characters that may stand right before a value: start of a form value (`=`, `&`), of a JSON
 * string or quoted word (quotes), of a header value or word (whitespace), of a list item or a
 * bracketed value. Not `/`, `.`, `:`, `-`, letters or digits: a secret glued to those is part of
 * other text (a path, an address, a port), and marking it there would tell the reader the secret.
 */
const BEFORE_VALUE = String.raw`(?<=^|[\s"'\x60=&,;()<>[\]{}])`;
/** After a value: the same, or a sentence's punctuation followed by a space or the end. */
const AFTER_VALUE = String.raw`(?=$|[\s"'\x60&,;()<>[\]{}]|[.:!?](?:\s|$))`;

/**
 * Redacts secrets where they occur as values: a form value (`password=…`), a JSON string value
 * (`"…"`), a header value (`Bearer …`), a quoted or whitespace-separated word, each in its raw,
 * URL-encoded and JSON-escaped form. A secret that is only part of other text is left alone: the
 * password `7` must not turn `127.0.0.1` into `12[REDACTED].0.0.1`, which would tell the reader
 * the password. Values of `token=`, `password=`, `"token":`, `"password":` and `Bearer` are
 * redacted whatever they are.
 *
 * @param text - text that may contain secrets.
 * @param secrets - passwords and tokens to hide; empty strings are ignored.
 * @returns the text with secrets replaced by `[REDACTED]`.
 * @example
 * ```ts
 * redactSecrets("token=abc&x=1", []) // "token=[REDACTED]&x=1"
 * redactSecrets("https://127.0.0.1/arcgis/admin: wrong password 7", ["7", "admin"])
 * // "https://127.0.0.1/arcgis/admin: wrong password [REDACTED]"
 * ```
 *
 * @internal
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (!s) continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(new URLSearchParams({ s }).toString().slice(2));
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a secret containing another is replaced whole.
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    out = out.replace(new RegExp(BEFORE_VALUE + escaped + AFTER_VALUE, "g"), REDACTED);
  }
  return out
    .replace(/\b(token|password)=[^&\s"'<>]*/gi, `$1=${REDACTED}`)
    .replace(/("(?:token|password)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi, `$1"${REDACTED}"`)
    .replace(/\bBearer\s+[^\s"',]+/g, `Bearer ${REDACTED}`);
}

/**
 * Tells whether a value is an {@link ArcGISRequestError} of this package, by its brand (any copy
 * of this package; never another library's error of the same name).
 *
 * @param e - any thrown value.
 * @example
 * ```ts
 * if (isArcGISRequestError(e)) console.log(e.code);
 * ```
 * A type guard; sends no request.
 */
export function isArcGISRequestError(e: unknown): e is ArcGISRequestError {
  return (
    typeof e === "object" &&
    e !== null &&
    (e as { [ARCGIS_REQUEST_ERROR]?: unknown })[ARCGIS_REQUEST_ERROR] === true
  );
}

// The guards below narrow to an intersection, not to ArcGISRequestError itself: a predicate on
// the bare class would make TypeScript treat the `false` branch as "not an ArcGISRequestError".

/**
 * Tells whether a failure is an authentication or permission failure (code `AUTH`).
 *
 * @param e - any thrown value.
 * @example
 * ```ts
 * if (isAuthError(e)) throw new Error("check the admin credentials");
 * ```
 * Maps to: answers 498, 499, 403 and HTTP 401 of any operation.
 */
export function isAuthError(e: unknown): e is ArcGISRequestError & { code: "AUTH" } {
  return isArcGISRequestError(e) && e.code === "AUTH";
}

/**
 * Tells whether a failure may go away on its own: no answer, a timeout, or HTTP 502/503/504.
 *
 * @param e - any thrown value.
 * @example
 * ```ts
 * if (isTransientError(e)) await sleep(5000);
 * ```
 * A type guard, used by the retry logic; sends no request.
 */
export function isTransientError(
  e: unknown,
): e is ArcGISRequestError & { code: "NETWORK" | "TIMEOUT" | "HTTP" } {
  if (!isArcGISRequestError(e)) return false;
  // Established as final where it was made (an http:// URL on a TLS port): no retry fixes it.
  if (e.permanent !== undefined) return false;
  if (e.code === "NETWORK" || e.code === "TIMEOUT") return true;
  return e.code === "HTTP" && [502, 503, 504].includes(e.httpStatus ?? 0);
}

/**
 * Tells whether a failure is an untrusted server certificate (code `TLS`).
 *
 * @param e - any thrown value.
 * @example
 * ```ts
 * if (isTlsError(e)) console.log("set tls.caCert");
 * ```
 * Maps to: the TLS handshake of any operation.
 */
export function isTlsError(e: unknown): e is ArcGISRequestError & { code: "TLS" } {
  return isArcGISRequestError(e) && e.code === "TLS";
}

/**
 * Tells whether a failure carries the given server error code.
 *
 * @param e - any thrown value.
 * @param serverCode - the server's code, e.g. 498.
 * @example
 * ```ts
 * hasServerCode(e, 499) // token required
 * ```
 * Maps to: the `code` of either ArcGIS error body.
 */
export function hasServerCode(
  e: unknown,
  serverCode: number,
): e is ArcGISRequestError & { serverCode: number } {
  return isArcGISRequestError(e) && e.serverCode === serverCode;
}

/**
 * Tells whether a sharing-API failure means "no such item" (code 404, or code 400 with a
 * message saying the item does not exist or was not found), as portals report an unknown
 * collaboration.
 *
 * @param e - any thrown value.
 * @example
 * ```ts
 * try { await getCollaboration(s, portalId, id); } catch (e) { if (isNotFoundError(e)) return undefined; throw e; }
 * ```
 * Maps to: `GET {sharing}/portals/<id>/collaborations/<id>` and similar item reads.
 */
export function isNotFoundError(e: unknown): e is ArcGISRequestError & { serverCode: 400 | 404 } {
  if (!isArcGISRequestError(e)) return false;
  if (e.serverCode === 404) return true;
  return (
    e.serverCode === 400 &&
    [...e.messages, e.message].some((m) => /does not exist|not found/i.test(m))
  );
}

/**
 * Tells whether the server rejected or missed the token (498 invalid/expired, 499 required):
 * the only answers after which a fresh token and one more attempt are safe, because the server
 * did not act.
 *
 * @param e - any thrown value.
 * @example
 * ```ts
 * if (isTokenRejectedError(e)) cache.invalidate(key, token);
 * ```
 * Maps to: answers 498 and 499 of any operation.
 */
export function isTokenRejectedError(
  e: unknown,
): e is ArcGISRequestError & { code: "AUTH"; serverCode: 498 | 499 } {
  return isAuthError(e) && (e.serverCode === 498 || e.serverCode === 499);
}

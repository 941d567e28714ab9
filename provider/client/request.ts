/**
 * Sending one ArcGIS REST request and reading its answer: the form, the token's place (body or
 * header, never the URL), the refusals before anything is sent, and the body read within its time
 * limit. Transport failures are classified in transport-error.ts, answers read in response.ts.
 * A few lines over 300, all of them the request's own steps.
 */
import type { Readable } from "node:stream";
import type { Dispatcher, FormData } from "undici";
import { request } from "./undici";
import { dispatcherFor, effectiveTimeouts, type TransportOptions } from "./dispatcher";
import { requestError, parseArcGISAnswer, type AnswerContext } from "./response";
import { inReadLane } from "./read-lane";
import { withRetry, type RetryPolicy } from "./retry";
import { confirmPlainHttp, describeError, transportError } from "./transport-error";

export type { TlsOptions, RequestTimeouts, TransportOptions } from "./dispatcher";

/**
 * Options of {@link arcgisRequest}.
 *
 * @internal
 */
export interface ArcGISRequestOptions extends TransportOptions {
  /** Full URL of the operation, e.g. `https://h:20443/arcgis/admin/exportSite`. */
  url: string;
  /** Name used in error messages, e.g. `exportSite`. */
  operation: string;
  /** Default POST. A GET carries the parameters in the URL, so never pass secrets to a GET. */
  method?: "POST" | "GET" | undefined;
  /** Form parameters; objects are JSON-encoded, undefined and null values are left out. */
  params?: Record<string, unknown> | undefined;
  /** Token: POST body field `token`, or header `X-Esri-Authorization` for a GET. Never in a URL. */
  token?: string | undefined;
  /** Sent as the `Referer` header (needed when the token was issued with client=referer). */
  referer?: string | undefined;
  /** Extra values to redact from error messages (the token is always redacted). */
  secrets?: readonly string[] | undefined;
  /** Retry transient failures; only for idempotent operations. Default: a single attempt. */
  retry?: RetryPolicy | false | undefined;
  /**
   * A read: it waits for the reads of the same server before it, so that they share one
   * connection (read-lane.ts). Default: true for a GET.
   */
  read?: boolean | undefined;
}

/**
 * Sends one form-encoded ArcGIS REST request with `f=json` and returns the answer's JSON object.
 * Both ArcGIS error formats are recognised even with HTTP 200, and every failure is an
 * {@link ArcGISRequestError}.
 *
 * @param opts - URL, operation name, parameters, token, transport and retry policy.
 * @returns the parsed JSON object of a successful answer.
 * @example
 * ```ts
 * const info = await arcgisRequest({ url: `${adminUrl}/machines`, operation: "machines", method: "GET", token, retry: {} });
 * ```
 * Maps to: any ArcGIS REST operation (admin API or sharing API).
 *
 * @internal
 */
export async function arcgisRequest(opts: ArcGISRequestOptions): Promise<Record<string, unknown>> {
  const ctx = contextOf(opts);
  const method = opts.method ?? "POST";
  const form = encodeForm({ ...opts.params, f: "json" });
  const headers = baseHeaders(opts.referer);
  let url = opts.url;
  let body: string | undefined;
  if (method === "GET") {
    url = withQuery(opts.url, form);
    if (opts.token) headers["x-esri-authorization"] = `Bearer ${opts.token}`;
  } else {
    // Tokens go in the body: URLs end up in proxy and server logs.
    if (opts.token) form.set("token", opts.token);
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = form.toString();
  }
  const send = () => sendForAnswer({ url, method, headers, body }, opts, ctx);
  const read = opts.read ?? method === "GET";
  return withRetry(
    () =>
      (read ? inReadLane(url, opts.signal, send) : send()).catch(async (e: unknown) => {
        throw await confirmPlainHttp(e, opts);
      }),
    opts.retry,
    opts.signal,
  );
}

/**
 * Encodes parameters as a form: strings as is, numbers and booleans as text, objects and arrays
 * as JSON (as the spec's sample request shows), undefined and null left out.
 *
 * @param params - parameter values.
 * @returns the form.
 * @example
 * ```ts
 * encodeForm({ directories: { directories: [] }, runAsync: false }).toString()
 * // "directories=%7B%22directories%22%3A%5B%5D%7D&runAsync=false"
 * ```
 * Maps to: the body of every POST operation.
 *
 * @internal
 */
export function encodeForm(params: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    form.set(key, formValue(value));
  }
  return form;
}

function formValue(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
    case "bigint":
      return value.toString();
    default:
      return JSON.stringify(value);
  }
}

/**
 * Where a request goes and what it carries; built by the callers of {@link sendRequest}.
 *
 * @internal
 */
export interface OutgoingRequest {
  /** Full URL including any query string (never a token). */
  url: string;
  /** HTTP method. */
  method: "GET" | "POST";
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /**
   * Form-encoded body of a POST, a multipart form (an upload; undici sets its content type), or a
   * streamed body (an upload from object storage; the caller sets content type and length).
   */
  body?: string | FormData | Readable | undefined;
}

/**
 * Sends a request through the dispatcher for `transport` and returns the undici response, with
 * failures before the answer (refused, timeout, TLS, abort) turned into ArcGISRequestErrors.
 *
 * @param req - URL, method, headers and body.
 * @param transport - TLS options, timeouts, signal, dispatcher.
 * @param ctx - operation and URL for error messages.
 * @returns the response; its body must be consumed or destroyed.
 * @example
 * ```ts
 * const res = await sendRequest({ url, method: "GET", headers: {} }, transport, ctx);
 * ```
 * Maps to: any REST operation (the transport step).
 *
 * @internal
 */
export async function sendRequest(
  req: OutgoingRequest,
  transport: TransportOptions,
  ctx: AnswerContext,
): Promise<Dispatcher.ResponseData> {
  refuseUnsendable(req.url, transport, ctx);
  // undici hands a kept-alive connection back to its pool one event-loop turn after its answer
  // ended (setImmediate in its HTTP/1.1 client, so that a server closing it is noticed first); a
  // request sent sooner opens a new TLS connection. Waiting that one turn lets the next request
  // of a sequence (pre-check, createNewSite, token, reads) reuse the warm connection.
  await new Promise<void>((resolve) => setImmediate(resolve));
  try {
    return await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      dispatcher: dispatcherFor(transport),
      signal: transport.signal ?? null,
      headersTimeout: effectiveTimeouts(transport.timeouts).headersMs,
      bodyTimeout: effectiveTimeouts(transport.timeouts).bodyMs,
    });
  } catch (e) {
    throw transportError(e, transport, ctx);
  }
}

/**
 * Sends a request (see {@link sendRequest}) and reads its answer as an ArcGIS JSON object: both
 * error formats recognised even with HTTP 200, every failure an ArcGISRequestError.
 *
 * @param req - URL, method, headers and body (a form, or a multipart body for an upload).
 * @param transport - TLS options, timeouts, signal, dispatcher.
 * @param ctx - operation and URL for error messages.
 * @returns the parsed JSON object of a successful answer.
 * @example
 * ```ts
 * const answer = await sendForAnswer({ url, method: "POST", headers, body: form }, transport, ctx);
 * ```
 * Maps to: any REST operation (send, then read the answer).
 *
 * @internal
 */
export async function sendForAnswer(
  req: OutgoingRequest,
  transport: TransportOptions,
  ctx: AnswerContext,
): Promise<Record<string, unknown>> {
  const res = await sendRequest(req, transport, ctx);
  const text = await readBodyText(res, transport, ctx);
  return parseArcGISAnswer(
    {
      statusCode: res.statusCode,
      contentType: headerValue(res.headers["content-type"]),
      location: headerValue(res.headers["location"]),
      text,
    },
    ctx,
  );
}

/**
 * Refuses, before anything is sent, a URL with credentials in its user-info part (they would be
 * sent as Basic authentication to whatever answers, and end up in logs and messages) and a time
 * limit that is not a positive number (undici reads 0 as "no limit", so a silent server would be
 * waited for forever).
 */
function refuseUnsendable(url: string, transport: TransportOptions, ctx: AnswerContext): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined && (parsed.username !== "" || parsed.password !== "")) {
    throw requestError(
      ctx,
      "BAD_INPUT",
      "the URL contains credentials (user info before the host, user:password@); give them " +
        "as username and password instead, never in a URL.",
    );
  }
  for (const [name, value] of Object.entries(transport.timeouts ?? {})) {
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw requestError(
        ctx,
        "BAD_INPUT",
        `timeouts.${name} is ${String(value)}: a time limit must be a positive number of ` +
          'milliseconds (the HTTP client would read 0 as "no limit").',
      );
    }
  }
}

/**
 * Reads an answer's body as text; a body cut short is a NETWORK error that says the server did
 * answer.
 *
 * @param res - the response of {@link sendRequest}.
 * @param transport - transport options (for the classification).
 * @param ctx - operation and URL for messages.
 * @returns the body text.
 * @example
 * ```ts
 * const text = await readBodyText(res, transport, ctx);
 * ```
 * Maps to: any REST operation (reading the answer).
 *
 * @internal
 */
export async function readBodyText(
  res: Dispatcher.ResponseData,
  transport: TransportOptions,
  ctx: AnswerContext,
): Promise<string> {
  try {
    return await res.body.text();
  } catch (e) {
    const error = transportError(e, transport, ctx);
    if (error.code !== "NETWORK") throw error;
    // The server did answer: say that its answer was cut short, not that it was unreachable.
    throw requestError(
      ctx,
      "NETWORK",
      `the answer (HTTP ${res.statusCode}) broke off before it was complete (${describeError(e)}).`,
      { cause: e, httpStatus: res.statusCode },
    );
  }
}

function contextOf(opts: ArcGISRequestOptions): AnswerContext {
  return {
    operation: opts.operation,
    url: opts.url,
    secrets: [...(opts.secrets ?? []), ...(opts.token ? [opts.token] : [])],
  };
}

/**
 * Builds the headers every call sends: JSON accepted, and the Referer when given.
 *
 * @param referer - value of the Referer header, if any.
 * @returns a fresh headers object.
 * @example
 * ```ts
 * baseHeaders("pulumi-arcgis-admin") // { accept: "application/json", referer: "pulumi-arcgis-admin" }
 * ```
 * Maps to: the headers of every REST operation.
 *
 * @internal
 */
export function baseHeaders(referer: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (referer) headers["referer"] = referer;
  return headers;
}

function withQuery(url: string, form: URLSearchParams): string {
  const u = new URL(url);
  for (const [k, v] of form) u.searchParams.set(k, v);
  return u.toString();
}

/**
 * Reads a header that undici may deliver as a string or a list.
 *
 * @param value - the header value.
 * @returns the first value, or undefined.
 * @example
 * ```ts
 * headerValue(res.headers["content-type"])
 * ```
 * Reads a header value; sends no request.
 *
 * @internal
 */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

import type { z } from "zod";
import {
  ArcGISRequestError,
  type ArcGISErrorCode,
  type ArcGISRequestErrorInit,
  type ErrorFormat,
} from "./errors";

/**
 * Where an answer came from, for error messages.
 *
 * @internal
 */
export interface AnswerContext {
  /** Operation name, e.g. `exportSite`. */
  operation: string;
  /** URL that was called. */
  url: string;
  /** Values to redact from error messages. */
  secrets?: readonly string[] | undefined;
}

/**
 * A received HTTP answer, body already read as text.
 *
 * @internal
 */
export interface RawAnswer {
  /** HTTP status. */
  statusCode: number;
  /** Value of the Content-Type header, if any. */
  contentType?: string | undefined;
  /** Value of the Location header, if any (reported for redirects). */
  location?: string | undefined;
  /** The body. */
  text: string;
}

const ADMIN_ERROR_STATUSES = new Set(["error", "failed", "failure"]);

/**
 * Turns an answer into its JSON object, or throws the {@link ArcGISRequestError} it stands for.
 * ArcGIS reports failures with HTTP 200, so the body is inspected before the status code.
 *
 * @param answer - status, content type and body text.
 * @param ctx - operation and URL for error messages.
 * @returns the parsed JSON object of a successful answer.
 * @example
 * ```ts
 * parseArcGISAnswer({ statusCode: 200, text: '{"status":"success"}' }, { operation: "x", url })
 * ```
 * Maps to: the answer of every REST operation (admin `status` format and sharing `error` format).
 *
 * @internal
 */
export function parseArcGISAnswer(answer: RawAnswer, ctx: AnswerContext): Record<string, unknown> {
  const body = parseJsonObject(answer.text);
  if (body) {
    const bodyError = arcgisErrorOf(body);
    if (bodyError) throw errorFromBody(bodyError, answer.statusCode, ctx);
  }
  if (answer.statusCode >= 300) throw errorFromStatus(answer, ctx);
  if (!body) {
    throw requestError(ctx, "BAD_RESPONSE", `the server answered ${describeBody(answer)}`, {
      httpStatus: answer.statusCode,
    });
  }
  return body;
}

/**
 * Validates a successful answer against a loose zod schema; a mismatch is `BAD_RESPONSE`. The
 * message names the missing or wrong fields but never their values (they may hold tokens).
 *
 * @param schema - a loose schema requiring only the fields the caller uses.
 * @param body - the parsed answer.
 * @param ctx - operation and URL for error messages.
 * @example
 * ```ts
 * const { location } = validateAnswer(z.looseObject({ location: z.string() }), body, ctx);
 * ```
 * Maps to: the answer of any REST operation.
 *
 * @internal
 */
export function validateAnswer<S extends z.ZodType>(
  schema: S,
  body: unknown,
  ctx: AnswerContext,
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (i) => `${i.path.map(String).join(".") || "(answer)"}: ${i.message}`,
  );
  throw requestError(ctx, "BAD_RESPONSE", `unexpected answer (${problems.join("; ")})`);
}

/**
 * Builds an {@link ArcGISRequestError} for the given context.
 *
 * @param ctx - operation, URL and secrets.
 * @param code - classification.
 * @param detail - explanation for the message.
 * @param extra - server code, messages, HTTP status or cause.
 * @example
 * ```ts
 * throw requestError(ctx, "BAD_RESPONSE", "the answer has no location");
 * ```
 * Builds an error; sends no request.
 *
 * @internal
 */
export function requestError(
  ctx: AnswerContext,
  code: ArcGISErrorCode,
  detail: string,
  extra: Partial<
    Pick<
      ArcGISRequestErrorInit,
      "messages" | "serverCode" | "httpStatus" | "cause" | "errorFormat" | "permanent"
    >
  > = {},
): ArcGISRequestError {
  return new ArcGISRequestError({
    ...extra,
    code,
    detail,
    operation: ctx.operation,
    url: ctx.url,
    secrets: ctx.secrets,
  });
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const parsed = parseJson(text);
  return parsed && isPlainObject(parsed.value) ? parsed.value : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface BodyError {
  code: number | undefined;
  messages: string[];
  format: ErrorFormat;
}

/** Recognises both formats: admin `{"status":"error",...}` and sharing `{"error":{...}}`. */
function arcgisErrorOf(body: Record<string, unknown>): BodyError | undefined {
  const sharing = body["error"];
  if (isPlainObject(sharing) && ("code" in sharing || "message" in sharing)) {
    return {
      code: toCode(sharing["code"]),
      messages: uniqueStrings([sharing["message"], ...toArray(sharing["details"])]),
      format: "error",
    };
  }
  const status = body["status"];
  if (typeof status === "string" && ADMIN_ERROR_STATUSES.has(status.toLowerCase())) {
    return {
      code: toCode(body["code"]),
      messages: uniqueStrings([...toArray(body["messages"]), body["message"]]),
      format: "status",
    };
  }
  return undefined;
}

function toCode(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) ? n : undefined;
}

function toArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function uniqueStrings(values: unknown[]): string[] {
  const strings = values.filter((v): v is string => typeof v === "string" && v.trim() !== "");
  return [...new Set(strings)];
}

function errorFromBody(err: BodyError, httpStatus: number, ctx: AnswerContext): ArcGISRequestError {
  const authCodes = [401, 403, 498, 499];
  const isAuth = authCodes.includes(err.code ?? (httpStatus === 200 ? 0 : httpStatus));
  const detail = err.messages.length
    ? err.messages.join(" ")
    : "the server reported an error without a message.";
  return requestError(ctx, isAuth ? "AUTH" : "SERVER", detail, {
    serverCode: err.code,
    messages: err.messages,
    httpStatus,
    errorFormat: err.format,
  });
}

function errorFromStatus(answer: RawAnswer, ctx: AnswerContext): ArcGISRequestError {
  const status = answer.statusCode;
  if (status < 400) {
    return requestError(ctx, "REDIRECT", redirectDetail(status, answer.location, ctx.url), {
      httpStatus: status,
      permanent: "redirect",
    });
  }
  const code = status === 401 || status === 403 ? "AUTH" : "HTTP";
  return requestError(ctx, code, `the server answered ${describeBody(answer)}`, {
    httpStatus: status,
  });
}

/**
 * Says where a redirect points (scheme, host and path, never its query or user info) and that it
 * was not followed: the request carried credentials that must only go to the configured address.
 */
function redirectDetail(status: number, location: string | undefined, from: string): string {
  let source: URL | undefined;
  let target: URL | undefined;
  try {
    source = new URL(from);
    target = location === undefined ? undefined : new URL(location, source);
  } catch {
    target = undefined;
  }
  if (source === undefined || target === undefined) {
    return `the server redirected (HTTP ${status}) without a usable Location; the redirect was not followed.`;
  }
  const where = `${target.protocol}//${target.host}${target.pathname}`;
  const change =
    target.protocol !== source.protocol
      ? ` (from ${source.protocol.slice(0, -1)} to ${target.protocol.slice(0, -1)})`
      : target.host !== source.host
        ? ` (another host: ${target.host})`
        : "";
  return (
    `the server redirected (HTTP ${status}) to ${where}${change}; it was not followed, so that ` +
    "no credentials go to another address: use that URL if it is the same server."
  );
}

const SNIPPET_LENGTH = 200;

/** Says what came back instead of JSON, so nobody has to read a JSON parse stack. */
function describeBody(answer: RawAnswer): string {
  const text = answer.text.trim();
  const status = `(HTTP ${answer.statusCode})`;
  if (text === "") return `an empty body ${status}`;
  const looksHtml =
    /html/i.test(answer.contentType ?? "") || /^<(!doctype|html|head|body)/i.test(text);
  if (looksHtml) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    return `an HTML page ${status}: "${snippet(title ?? stripTags(text))}"`;
  }
  if (parseJsonObject(text)) return `a JSON object ${status}: "${snippet(text)}"`;
  if (parseJson(text)) return `JSON that is not an object ${status}: "${snippet(text)}"`;
  return `invalid JSON ${status}: "${snippet(text)}"`;
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, " ");
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat;
}

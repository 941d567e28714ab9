/**
 * Wire-level helpers shared by both emulated APIs: reading form parameters within the
 * size limit, the two ArcGIS error formats, and rendering answers as JSON or HTML.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Dialect } from "./products";

/** Largest request body the emulator reads (1 MiB); larger bodies get a JSON error. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Past this many bytes the emulator stops draining an oversized body and drops the
 * connection: draining keeps the connection usable for the error answer, but a client
 * streaming without end must not hold the emulator forever.
 */
const HARD_BODY_CAP_BYTES = 64 * 1024 * 1024;

/** A request as the API handlers see it: parameters merged from the query and the body. */
export interface ApiRequest {
  readonly method: string;
  /** Path segments after the API prefix, URL-decoded. */
  readonly segments: readonly string[];
  /** Query parameters overlaid by body parameters (a body value wins, as on a real server). */
  readonly params: ReadonlyMap<string, string>;
  readonly headers: IncomingHttpHeaders;
  readonly remoteAddress: string;
  /** File parts of a multipart body (uploads/upload's `itemFile`), by field name. */
  readonly files?: ReadonlyMap<string, UploadedFile>;
}

/** A file part of a multipart body. */
export interface UploadedFile {
  readonly name: string;
  readonly data: Buffer;
}

/**
 * What a handler answers: a JSON document, a file to stream as a download, an HTML page (the
 * portal's OAuth2 sign-in pages, whatever `f` says) or a redirect (302 with `Location`).
 */
export type Reply =
  | { readonly kind: "json"; readonly body: unknown; readonly status?: number }
  | { readonly kind: "file"; readonly file: string; readonly name: string; readonly size: number }
  | { readonly kind: "page"; readonly html: string }
  | { readonly kind: "redirect"; readonly location: string };

/** Shorthand for a JSON reply. */
export function json(body: unknown): Reply {
  return { kind: "json", body };
}

/**
 * An error of the administrative API, rendered with HTTP 200 because real servers (and every
 * Esri tool) report admin failures in the body, not the status line. Its document depends on
 * the product's dialect (see {@link AdminError.toBody}).
 */
export class AdminError extends Error {
  constructor(
    readonly code: number,
    readonly messages: readonly string[],
  ) {
    super(messages.join(" "));
    this.name = "AdminError";
  }

  /**
   * The error document: ArcGIS Server's `{"status":"error","code":N,"messages":[...]}`, or
   * Mission, Notebook and Video Server's `{"error":{"code":N,"message":"..."}}` (what Chef's
   * `validate_response` and DSC's `Invoke-CreateSite` read: `error.code`, `error.message`).
   */
  toBody(dialect: Dialect = "classic"): ClassicErrorBody | CarbonErrorBody {
    if (dialect === "carbon") return { error: { code: this.code, message: this.message } };
    return { status: "error", code: this.code, messages: this.messages };
  }
}

/** ArcGIS Server's error document. */
export interface ClassicErrorBody {
  status: "error";
  code: number;
  messages: readonly string[];
}

/** The error document of Mission, Notebook and Video Server. */
export interface CarbonErrorBody {
  error: { code: number; message: string };
}

/**
 * An error of the portal sharing API, rendered with HTTP 200 as
 * `{"error":{"code":N,"message":"...","details":[],"messageCode":"..."}}`.
 */
export class SharingError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly messageCode?: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
    this.name = "SharingError";
  }

  /** The sharing API's error document. */
  toBody(): {
    error: { code: number; message: string; details: readonly string[]; messageCode?: string };
  } {
    const error = { code: this.code, message: this.message, details: this.details };
    return {
      error: this.messageCode === undefined ? error : { ...error, messageCode: this.messageCode },
    };
  }
}

/** Raised while reading a body larger than {@link MAX_BODY_BYTES}. */
export class BodyTooLargeError extends Error {
  constructor() {
    super(`The request body is larger than the emulator's limit of ${MAX_BODY_BYTES} bytes.`);
    this.name = "BodyTooLargeError";
  }
}

/** Raised for a body that cannot be decoded as form parameters. */
export class MalformedBodyError extends Error {
  constructor(detail: string) {
    super(`The request body could not be read as form parameters: ${detail}`);
    this.name = "MalformedBodyError";
  }
}

/**
 * Reads the body of a request, at most {@link MAX_BODY_BYTES}. An oversized body is
 * drained (up to a hard cap) before {@link BodyTooLargeError} is thrown, so that the
 * client is still reading when the JSON error goes out.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  let tooLarge = Number.isFinite(declared) && declared > MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > HARD_BODY_CAP_BYTES) {
      req.destroy();
      throw new BodyTooLargeError();
    }
    if (received > MAX_BODY_BYTES) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
  }
  if (tooLarge) throw new BodyTooLargeError();
  return Buffer.concat(chunks);
}

/**
 * Decodes form parameters from a body: `multipart/form-data` (some Esri tools send it)
 * through the platform's own parser, anything else as `application/x-www-form-urlencoded`
 * (what the spec prescribes, and what curl -d sends without a content type).
 */
export async function decodeForm(
  body: Buffer,
  contentType: string | undefined,
): Promise<Map<string, string>> {
  const params = new Map<string, string>();
  if (body.length === 0) return params;
  if (contentType !== undefined && /^multipart\/form-data/i.test(contentType)) {
    const form = await multipartForm(body, contentType);
    for (const [key, value] of form) {
      // File parts carry no parameter of the emulated operations; ignore them.
      if (typeof value === "string") params.set(key, value);
    }
    return params;
  }
  for (const [key, value] of new URLSearchParams(body.toString("utf8"))) params.set(key, value);
  return params;
}

/** Response formats of the `f` parameter. */
export type Format = "json" | "pjson" | "html";

/** Reads `f`; ArcGIS defaults to html. Returns null for an unsupported value. */
export function formatOf(params: ReadonlyMap<string, string>): Format | null {
  const f = (params.get("f") ?? "").trim().toLowerCase();
  if (f === "" || f === "html") return "html";
  if (f === "json" || f === "pjson") return f;
  return null;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Sends a JSON document (HTTP 200 unless told otherwise) in the requested format. */
export function sendDocument(
  res: ServerResponse,
  body: unknown,
  format: Format,
  title: string,
  status = 200,
): void {
  if (format === "html") {
    // A minimal page, like a real server's HTML view: clients that forget f=json see
    // that they got a page back, not JSON.
    const page =
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${escapeHtml(title)}</h1><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre>` +
      `</body></html>\n`;
    send(res, status, "text/html; charset=utf-8", page);
    return;
  }
  const text = format === "pjson" ? JSON.stringify(body, null, 2) : JSON.stringify(body);
  send(res, status, "application/json; charset=utf-8", text);
}

/** Sends a complete text body with the given status and content type. */
export function send(res: ServerResponse, status: number, contentType: string, text: string): void {
  const data = Buffer.from(text, "utf8");
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": data.length,
    "cache-control": "no-store",
  });
  res.end(data);
}

/**
 * The file parts of a `multipart/form-data` body (empty for any other body), read with the
 * platform's own parser as {@link decodeForm} reads the text parts.
 */
export async function decodeFiles(
  body: Buffer,
  contentType: string | undefined,
): Promise<Map<string, UploadedFile>> {
  const files = new Map<string, UploadedFile>();
  if (body.length === 0 || contentType === undefined || !/^multipart\/form-data/i.test(contentType))
    return files;
  const form = await multipartForm(body, contentType);
  for (const [key, value] of form) {
    if (typeof value !== "string") {
      files.set(key, { name: value.name, data: Buffer.from(await value.arrayBuffer()) });
    }
  }
  return files;
}

/** Parses a multipart/form-data body with the platform's own parser (undici's, in Node). */
async function multipartForm(body: Buffer, contentType: string): Promise<FormData> {
  try {
    return await new Request("http://emulator.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: new Uint8Array(body),
    }).formData();
  } catch (error) {
    throw new MalformedBodyError(error instanceof Error ? error.message : String(error));
  }
}

/** Refuses, in the portal's error form (405), an operation that must be POSTed but was not. */
export function requirePost(req: ApiRequest, op: string): void {
  if (req.method !== "POST") {
    throw new SharingError(405, `The operation '${op}' must be invoked with HTTP POST.`);
  }
}

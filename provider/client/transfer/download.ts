/**
 * Streams a file the server offers to disk: the request, the answers that are not a file (an
 * ArcGIS error, a proxy's page, an item description), the size limit, the hash, and publishing
 * under a safe name without overwriting. Somewhat over 300 lines: each way an answer can fail to
 * be the file is handled next to the step that meets it, so the flow reads in order. Partial-file
 * naming is in partial-files.ts, the zip check in archive-check.ts.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { link, mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Dispatcher } from "undici";
import { DEFAULT_MAX_DOWNLOAD_BYTES, type TransportOptions } from "../dispatcher";
import { baseHeaders, headerValue, sendRequest } from "../request";
import { transportError } from "../transport-error";
import { partialTag, removeStalePartials } from "./partial-files";
import type { ArcGISRequestError } from "../errors";
import { requestError, parseArcGISAnswer, type AnswerContext } from "../response";

/**
 * Where a download goes: a directory (the file name comes from the server), or an exact file.
 * A plain string is a directory.
 */
export type DownloadDestination = string | { dir: string } | { file: string };

/**
 * Options of {@link downloadToFile}.
 *
 * @internal
 */
export interface DownloadOptions extends TransportOptions {
  /** URL of the file. */
  url: string;
  /** Name for error messages. */
  operation: string;
  /** Sent as `X-Esri-Authorization: Bearer`, never in the URL. */
  token?: string | undefined;
  /** Sent as the Referer header. */
  referer?: string | undefined;
  /** Values to redact from error messages (the token is always redacted). */
  secrets?: readonly string[] | undefined;
  /** Destination directory or file. */
  dest: DownloadDestination;
  /** Extension added to a name taken from the URL when it has none, e.g. `.agssite`. */
  defaultExtension?: string | undefined;
  /** Checks the complete temporary file before it gets its final name; throws to reject it. */
  verify?: ((tempPath: string, ctx: AnswerContext) => Promise<void>) | undefined;
  /**
   * When the URL answers a JSON description (an uploaded item) instead of the file: returns the
   * URL that serves the file, which is then downloaded instead (once). Without it, a JSON answer
   * is an error.
   */
  fileOfItem?: ((itemUrl: string, item: Record<string, unknown>) => string) | undefined;
}

/** A completed download. */
export interface DownloadResult {
  /** Absolute or caller-relative path of the file. */
  path: string;
  /** File name. */
  fileName: string;
  /** Size in bytes. */
  sizeBytes: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
}

/**
 * Streams a GET answer to a file while hashing it: the bytes go to a temporary file in the
 * destination folder, which is renamed into place only once complete and verified, so a partial
 * file never carries the final name. The content is never held in memory whole.
 *
 * @param opts - URL, token, destination, verification and transport.
 * @returns path, file name, size and SHA-256 of the file.
 * @example
 * ```ts
 * await downloadToFile({ url, operation: "downloadExport", token, dest: { dir: "./backups" }, verify: verifyZipFile });
 * ```
 * Maps to: `GET <download URL>`, e.g. the URL exportSite answers.
 *
 * @internal
 */
export async function downloadToFile(opts: DownloadOptions): Promise<DownloadResult> {
  const { res, ctx, maxBytes } = await openFileAnswer(opts);
  const target = targetPath(opts, res);
  await mkdir(dirname(target), { recursive: true });
  await removeStalePartials(dirname(target));
  const temp = join(dirname(target), `.${basename(target)}.${partialTag()}.part`);
  try {
    const { sizeBytes, sha256 } = await streamToFile(res, temp, maxBytes, opts, ctx);
    await opts.verify?.(temp, ctx);
    const isFolder = !(typeof opts.dest === "object" && "file" in opts.dest);
    const final = isFolder ? await publishBesideOthers(temp, target) : target;
    if (!isFolder) await rename(temp, target);
    return { path: final, fileName: basename(final), sizeBytes, sha256 };
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/**
 * Sends the GET and sets aside every answer that is not the file (an ArcGIS error, a proxy's
 * page, an item description whose file is then fetched, an announced size above the limit).
 */
async function openFileAnswer(
  opts: Omit<DownloadOptions, "dest">,
): Promise<{ res: Dispatcher.ResponseData; ctx: AnswerContext; maxBytes: number }> {
  const secrets = [...(opts.secrets ?? []), ...(opts.token ? [opts.token] : [])];
  const ctx: AnswerContext = { operation: opts.operation, url: opts.url, secrets };
  const headers: Record<string, string> = { ...baseHeaders(opts.referer), accept: "*/*" };
  if (opts.token) headers["x-esri-authorization"] = `Bearer ${opts.token}`;
  // No f=json here: on an upload item, f=json would return the item's description, not the file.
  const maxBytes = opts.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  let res = await sendRequest({ url: opts.url, method: "GET", headers }, opts, ctx);
  if (opts.fileOfItem !== undefined) {
    const item = await itemDescription(res, opts, ctx, headers);
    if (item !== undefined) {
      // What came back describes an uploaded item: its file is served elsewhere (ArcGIS Server
      // docs: `uploads/<itemID>` describes the item, `uploads/<itemID>/download` serves it).
      const fileUrl = opts.fileOfItem(opts.url, item);
      const fileCtx: AnswerContext = { ...ctx, url: fileUrl };
      res = await sendRequest({ url: fileUrl, method: "GET", headers }, opts, fileCtx);
      await rejectNonFileAnswer(res, opts, fileCtx, false);
    }
  } else {
    await rejectNonFileAnswer(res, opts, ctx, false);
  }
  await rejectAnnouncedOversize(res, maxBytes, ctx);
  return { res, ctx, maxBytes };
}

/**
 * Options of {@link downloadToSink}: those of {@link downloadToFile} without a destination.
 *
 * @internal
 */
export type SinkDownloadOptions = Omit<DownloadOptions, "dest" | "verify">;

/**
 * What {@link downloadToSink} hands its sink: the body as it arrives (counted against the limit
 * and hashed on the way), the file name the server gives, and the size and SHA-256 once the body
 * has been read to its end.
 *
 * @internal
 */
export interface DownloadStream {
  /** The file's bytes; reading it fails when the body grows past maxDownloadBytes. */
  body: Readable;
  /** The file name from Content-Disposition, else the URL's last segment. */
  fileName: string;
  /** Size and SHA-256 of what was read; throws when the body was not read to its end. */
  digest: () => { sizeBytes: number; sha256: string };
}

/**
 * Streams a GET answer to a sink (e.g. an object store's upload) while counting and hashing it:
 * the answers that are not the file are refused as by {@link downloadToFile}, and the content is
 * never held in memory whole.
 *
 * @param opts - URL, token and transport, as for {@link downloadToFile}.
 * @param sink - reads `body` to its end and resolves with its own result.
 * @returns the sink's result with the file's name, size and SHA-256.
 * @example
 * ```ts
 * await downloadToSink({ url, operation: "downloadExport", token }, ({ body }) => upload(body));
 * ```
 * Maps to: `GET <download URL>`, e.g. the URL exportSite answers.
 *
 * @internal
 */
export async function downloadToSink<T>(
  opts: SinkDownloadOptions,
  sink: (download: DownloadStream) => Promise<T>,
): Promise<{ result: T; fileName: string; sizeBytes: number; sha256: string }> {
  const { res, ctx, maxBytes } = await openFileAnswer(opts);
  const fileName = basename(targetPath({ ...opts, dest: "." }, res));
  const hash = createHash("sha256");
  let sizeBytes = 0;
  let ended = false;
  const source = res.body;
  async function* counted(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        sizeBytes += chunk.length;
        // An endless body must not fill the store: stop at the limit, not at the end.
        if (sizeBytes > maxBytes) throw tooLarge(ctx, maxBytes, "the file grew past the limit");
        hash.update(chunk);
        yield chunk;
      }
    } catch (e) {
      // A failure reading the server's answer is the server's (a failure of the sink is its own).
      throw transportError(e, opts, ctx);
    }
    ended = true;
  }
  const body = Readable.from(counted(), { objectMode: false });
  let sha256: string | undefined;
  const digest = () => {
    if (!ended) throw new Error(`${opts.operation}: the body was not read to its end.`);
    sha256 ??= hash.digest("hex");
    return { sizeBytes, sha256 };
  };
  try {
    const result = await sink({ body, fileName, digest });
    return { result, fileName, ...digest() };
  } catch (e) {
    body.destroy();
    source.destroy();
    throw e;
  }
}

/**
 * Gives a finished file its name in a folder without replacing a file already there: two exports
 * made in the same second carry the same name, and a backup must never overwrite another. A hard
 * link fails when the name is taken, which makes the check and the naming one atomic step.
 */
async function publishBesideOthers(temp: string, target: string): Promise<string> {
  const ext = extname(target);
  const stem = target.slice(0, target.length - ext.length);
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? target : `${stem}-${n}${ext}`;
    try {
      await link(temp, candidate);
      await rm(temp, { force: true });
      return candidate;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
}

/**
 * Learns from the answer whether the URL serves a file (undefined: `res` is the file) or
 * describes an uploaded item (its JSON description). A JSON answer is the description; an HTML
 * page (a server's default view of a resource) is asked again as JSON, and a description there
 * counts too. Anything else is the error it stands for.
 */
async function itemDescription(
  res: Dispatcher.ResponseData,
  opts: Omit<DownloadOptions, "dest">,
  ctx: AnswerContext,
  headers: Record<string, string>,
): Promise<Record<string, unknown> | undefined> {
  const contentType = headerValue(res.headers["content-type"]) ?? "";
  const htmlPage = res.statusCode === 200 && /html/i.test(contentType);
  if (!htmlPage) return rejectNonFileAnswer(res, opts, ctx, true);
  const page = await res.body.text().catch((e: unknown) => {
    throw transportError(e, opts, ctx);
  });
  const asJson = new URL(opts.url);
  asJson.searchParams.set("f", "json");
  const described = await sendRequest(
    { url: asJson.toString(), method: "GET", headers: { ...headers, accept: "application/json" } },
    opts,
    ctx,
  );
  const text = await described.body.text().catch((e: unknown) => {
    throw transportError(e, opts, ctx);
  });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const isItem =
    described.statusCode === 200 &&
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    !("error" in body) &&
    (body as { status?: unknown }).status !== "error";
  if (isItem) return body as Record<string, unknown>;
  // An ArcGIS error (e.g. 498 for a token no longer accepted) is that error.
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    parseArcGISAnswer(
      { statusCode: described.statusCode, contentType: "application/json", text },
      { ...ctx, url: asJson.toString() },
    );
  }
  // Not an item: report the page that came back first.
  parseArcGISAnswer({ statusCode: res.statusCode, contentType, text: page }, ctx);
  throw notAFile(ctx, res.statusCode, contentType);
}

/** The error for an answer that is neither a file nor an ArcGIS error. */
function notAFile(ctx: AnswerContext, httpStatus: number, contentType: string): Error {
  return requestError(
    ctx,
    "BAD_RESPONSE",
    `expected a file but the server answered ${contentType}.`,
    {
      httpStatus,
    },
  );
}

/**
 * ArcGIS reports errors (e.g. 498) as a JSON body, and proxies answer HTML pages. With
 * `acceptJson`, a JSON object that is not an error is returned (an item description).
 */
async function rejectNonFileAnswer(
  res: Dispatcher.ResponseData,
  transport: TransportOptions,
  ctx: AnswerContext,
  acceptJson: boolean,
): Promise<Record<string, unknown> | undefined> {
  const contentType = headerValue(res.headers["content-type"]) ?? "";
  if (res.statusCode === 200 && !/json|html/i.test(contentType)) return undefined;
  let text: string;
  try {
    text = await res.body.text();
  } catch (e) {
    throw transportError(e, transport, ctx);
  }
  const location = headerValue(res.headers["location"]);
  const body = parseArcGISAnswer({ statusCode: res.statusCode, contentType, location, text }, ctx);
  if (acceptJson && /json/i.test(contentType)) return body;
  throw notAFile(ctx, res.statusCode, contentType);
}

/** A Content-Length above the limit is refused before a byte is written. */
async function rejectAnnouncedOversize(
  res: Dispatcher.ResponseData,
  maxBytes: number,
  ctx: AnswerContext,
): Promise<void> {
  const announced = Number(headerValue(res.headers["content-length"]) ?? "");
  if (!Number.isFinite(announced) || announced <= maxBytes) return;
  res.body.destroy();
  throw tooLarge(ctx, maxBytes, `the server announces ${announced} bytes`);
}

function tooLarge(ctx: AnswerContext, maxBytes: number, what: string): ArcGISRequestError {
  return requestError(
    ctx,
    "TOO_LARGE",
    `${what}, more than the download limit of ${maxBytes} bytes (maxDownloadBytes); nothing ` +
      "was kept. Raise the limit if the file is really that large.",
  );
}

async function streamToFile(
  res: Dispatcher.ResponseData,
  path: string,
  maxBytes: number,
  transport: TransportOptions,
  ctx: AnswerContext,
): Promise<{ sizeBytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  try {
    await pipeline(
      res.body,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          sizeBytes += chunk.length;
          // An endless body must not fill the disk: stop at the limit, not at the end.
          if (sizeBytes > maxBytes) throw tooLarge(ctx, maxBytes, "the file grew past the limit");
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(path, { flags: "wx" }),
    );
  } catch (e) {
    if (isLocalFileError(e)) throw e;
    throw transportError(e, transport, ctx);
  }
  return { sizeBytes, sha256: hash.digest("hex") };
}

/** A disk problem (EACCES, ENOSPC) is the caller's to see as is, not a server failure. */
function isLocalFileError(e: unknown): boolean {
  return typeof e === "object" && e !== null && "syscall" in e && "path" in e;
}

function targetPath(opts: DownloadOptions, res: Dispatcher.ResponseData): string {
  if (typeof opts.dest === "object" && "file" in opts.dest) return opts.dest.file;
  const dir = typeof opts.dest === "string" ? opts.dest : opts.dest.dir;
  const disposition = headerValue(res.headers["content-disposition"]);
  return join(dir, fileNameFromDisposition(disposition) ?? fileNameFromUrl(opts));
}

/**
 * Extracts a safe file name (no directories) from a Content-Disposition header.
 *
 * @param header - e.g. `attachment; filename="20220823-140812-UTC.agssite"`.
 * @returns the name, or undefined when there is none or it is unsafe.
 * @example
 * ```ts
 * fileNameFromDisposition("attachment; filename*=UTF-8''a%20b.agssite") // "a b.agssite"
 * ```
 * Maps to: the Content-Disposition header of a download.
 *
 * @internal
 */
export function fileNameFromDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return safeName(decodeURIComponent(extended.trim()));
    } catch {
      // Malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  return safeName((plain?.[1] ?? plain?.[2])?.replace(/\\(.)/g, "$1").trim());
}

function fileNameFromUrl(opts: Pick<DownloadOptions, "url" | "defaultExtension">): string {
  const segment = new URL(opts.url).pathname.split("/").filter(Boolean).pop() ?? "";
  let name: string | undefined;
  try {
    name = safeName(decodeURIComponent(segment));
  } catch {
    name = safeName(segment);
  }
  const base = name ?? "download";
  return extname(base) ? base : `${base}${opts.defaultExtension ?? ""}`;
}

function safeName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  // Only the last path segment: a server must not choose where on our disk the file lands.
  const cleaned = basename(name.replace(/\\/g, "/"))
    .replace(/\p{Cc}/gu, "")
    .trim();
  return cleaned === "" || cleaned === "." || cleaned === ".." ? undefined : cleaned;
}

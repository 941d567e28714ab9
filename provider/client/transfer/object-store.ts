/**
 * S3-compatible object storage for site archives: the destination URL (`s3://bucket/prefix`),
 * the client (the AWS SDK for JavaScript v3, loaded on first use so that nothing else pays for
 * it), the streamed multipart upload published under its final key with the archive's SHA-256 as
 * metadata, and the reads and the delete a refresh, a restore and an opted-in destroy make.
 */
import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";
import { isArcGISRequestError } from "../errors";
import type * as ClientS3 from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";

/** The object metadata key that holds an archive's SHA-256 (hex): `x-amz-meta-sha256`. */
export const SHA256_METADATA_KEY = "sha256";

/**
 * The object metadata key that names the upload that wrote an archive (`x-amz-meta-writer`, a
 * random id per upload): after writing, an upload finds its own id there, or knows that another
 * writer's object holds the key.
 */
export const WRITER_METADATA_KEY = "writer";

/** How many names (`name`, `name-1`, ...) an upload tries before it gives up. */
const MAX_NAMES = 100;

/**
 * Size of each uploaded part: S3's minimum (5 MiB). The upload's memory is one buffer of this
 * size, allocated once and reused: a chunk of the body is copied into it and dropped, and the
 * part is sent before the buffer fills again (no per-part concatenation, which makes a new
 * part-sized buffer per part for the garbage collector, as @aws-sdk/lib-storage's Upload does; no
 * second buffer to fill while a part is sent, since reading from the server is much faster than
 * writing to the store: bench figure 9).
 */
export const PART_BYTES = 5 * 1024 * 1024;

/** How to reach an S3-compatible store; credentials and region default as the AWS CLI's do. */
export interface ObjectStoreSettings {
  /** The store's URL, e.g. `http://127.0.0.1:8333` (default: AWS S3 of the region). */
  endpoint?: string | undefined;
  /** The region (default: AWS_REGION, the AWS config's, else `us-east-1`). */
  region?: string | undefined;
  /** Address buckets in the path (`endpoint/bucket/key`) rather than the host name. */
  forcePathStyle?: boolean | undefined;
  /** Static credentials (default: the AWS SDK's chain: environment, config and credential files, SSO, instance roles). */
  credentials?:
    { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined } | undefined;
}

/** An object in a bucket. */
export interface ObjectLocation {
  bucket: string;
  key: string;
}

/** What {@link headObject} learns of an object. */
export interface ObjectInfo {
  sizeBytes: number;
  /** The SHA-256 recorded as metadata, when there is one. */
  sha256?: string | undefined;
}

/** An object store's failure, worded for people; `code` is S3's error name when it gave one. */
export class ObjectStoreError extends Error {
  override name = "ObjectStoreError";
  constructor(
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * What is wrong with an object-store destination URL, or undefined when it is one:
 * `s3://<bucket>` or `s3://<bucket>/<prefix>`, the bucket named as S3 requires (3 to 63 lower-case
 * letters, digits, dots and hyphens), without credentials, query or fragment.
 *
 * @param url - the text to check.
 * @example
 * ```ts
 * objectUrlProblem("s3://backups/site-a/"); // undefined
 * objectUrlProblem("https://backups/x"); // "must start with s3:// ..."
 * ```
 * Sends no request.
 *
 * @internal
 */
export function objectUrlProblem(url: string): string | undefined {
  const match = /^s3:\/\/([^/?#]*)(\/[^?#]*)?$/.exec(url);
  if (match === null) {
    return /^s3:\/\//i.test(url)
      ? "must not have a query (?) or fragment (#): give the endpoint, region and path style as their own inputs"
      : `must start with s3:// and name a bucket, as s3://<bucket>/<prefix> (got ${JSON.stringify(url.slice(0, 80))})`;
  }
  const bucket = match[1] ?? "";
  if (bucket.includes("@") || bucket.includes(":")) {
    return "must not hold credentials or a port: give them as their own inputs";
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..")) {
    return `names the bucket ${JSON.stringify(bucket)}, which is not an S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens)`;
  }
  const prefix = (match[2] ?? "").slice(1);
  if (prefix.split("/").some((part) => part === "." || part === "..")) {
    return "must not have . or .. segments in its prefix";
  }
  return undefined;
}

/**
 * The bucket and key prefix of a destination URL ({@link objectUrlProblem} must accept it). The
 * prefix is empty or ends with `/`.
 *
 * @param url - `s3://bucket/prefix`.
 * @example `parseObjectUrl("s3://b/x/y") // { bucket: "b", prefix: "x/y/" }`
 * Sends no request.
 *
 * @internal
 */
export function parseObjectUrl(url: string): { bucket: string; prefix: string } {
  const problem = objectUrlProblem(url);
  if (problem !== undefined) throw new ObjectStoreError(`The object URL ${problem}.`, undefined);
  const rest = url.slice("s3://".length);
  const slash = rest.indexOf("/");
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? "" : rest.slice(slash + 1).replace(/\/+/g, "/");
  const prefix = path === "" || path.endsWith("/") ? path : `${path}/`;
  return { bucket, prefix };
}

/**
 * The `s3://` URL of an object.
 *
 * @internal
 */
export function objectUrl(location: ObjectLocation): string {
  return `s3://${location.bucket}/${location.key}`;
}

/**
 * The bucket and key of an object's `s3://bucket/key` URL.
 *
 * @internal
 */
export function objectLocation(url: string): ObjectLocation {
  const { bucket, prefix } = parseObjectUrl(url);
  const key = prefix.replace(/\/$/, "");
  if (key === "") throw new ObjectStoreError(`The object URL ${url} names no object.`, undefined);
  return { bucket, key };
}

/** The SDK, loaded on first use (the package entry and the REST calls never load it). */
function sdk(): typeof ClientS3 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  return require("@aws-sdk/client-s3") as typeof ClientS3;
}

/** A client for the settings; the caller destroys it. */
function clientFor(settings: ObjectStoreSettings): S3Client {
  const { S3Client } = sdk();
  return new S3Client({
    ...(settings.endpoint !== undefined && { endpoint: settings.endpoint }),
    region:
      settings.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
    ...(settings.forcePathStyle !== undefined && { forcePathStyle: settings.forcePathStyle }),
    ...(settings.credentials !== undefined && {
      credentials: {
        accessKeyId: settings.credentials.accessKeyId,
        secretAccessKey: settings.credentials.secretAccessKey,
        ...(settings.credentials.sessionToken !== undefined && {
          sessionToken: settings.credentials.sessionToken,
        }),
      },
    }),
  });
}

async function withClient<T>(
  settings: ObjectStoreSettings,
  use: (client: S3Client, s3: typeof ClientS3) => Promise<T>,
): Promise<T> {
  const s3 = sdk();
  const client = clientFor(settings);
  try {
    return await use(client, s3);
  } finally {
    client.destroy();
  }
}

/** The S3 error name of a failure (`NoSuchKey`, `AccessDenied`, ...). */
function codeOf(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  const { name, Code } = e as { name?: unknown; Code?: unknown };
  if (typeof Code === "string") return Code;
  return typeof name === "string" && name !== "Error" ? name : undefined;
}

/** Whether a failure says the object (or its bucket) is not there. */
function isNotFound(e: unknown): boolean {
  const status = (e as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
    ?.httpStatusCode;
  return status === 404 || ["NotFound", "NoSuchKey"].includes(codeOf(e) ?? "");
}

/** The HTTP status of a store's answer, when there was one. */
function statusOf(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

/** Node's error code of a failure or of its cause (`ECONNREFUSED`, `CERT_HAS_EXPIRED`, ...). */
function systemCodeOf(e: unknown): string | undefined {
  for (let at = e, depth = 0; at !== undefined && at !== null && depth < 5; depth++) {
    const { code, cause } = at as { code?: unknown; cause?: unknown };
    if (typeof code === "string") return code;
    at = cause;
  }
  // The SDK may wrap a socket's error as text only ("AWS SDK error wrapper for Error: connect
  // ECONNREFUSED ...").
  const message = e instanceof Error ? e.message : String(e);
  return /\b(E[A-Z]{3,}|ERR_[A-Z_]+|CERT_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_[A-Z_]+)\b/.exec(
    message,
  )?.[1];
}

const UNREACHABLE =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH)$/;
const TLS_FAILURE =
  /^(EPROTO|ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

/**
 * What went wrong with the store, in one line that says what to check: S3's error name when it
 * gave one, else the HTTP status (a HEAD answer has no body, so a refusal names no error).
 */
function storeProblem(e: unknown, endpoint: string): string {
  const code = codeOf(e);
  const status = statusOf(e);
  const message = e instanceof Error ? e.message : String(e);
  if (code === "CredentialsProviderError" || /Could not load credentials/i.test(message)) {
    return (
      "no credentials were found: set objectStoreCredentials, or the AWS environment " +
      "(AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with ~/.aws/config)"
    );
  }
  if (
    status === 401 ||
    status === 403 ||
    ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied"].includes(code ?? "")
  ) {
    const named = code !== undefined && code !== "Unknown" ? code : `HTTP ${status ?? 403}`;
    return `access denied (${named}): check objectStoreCredentials (and the bucket's policy)`;
  }
  if (code === "NoSuchBucket") {
    return (
      `the bucket does not exist at ${endpoint}: create it, or check objectStore.endpoint and ` +
      "the bucket's name"
    );
  }
  const system = systemCodeOf(e) ?? "";
  if (UNREACHABLE.test(system) || /socket hang up/.test(message)) {
    return (
      `the store at ${endpoint} cannot be reached (${system || "connection closed"}): check ` +
      "objectStore.endpoint and that the store is running"
    );
  }
  if (TLS_FAILURE.test(system) || /certificate|SSL routines|wrong version number/i.test(message)) {
    return (
      `the TLS connection to ${endpoint} failed (${system || message}): check objectStore.endpoint ` +
      "(http or https, as the store serves) and that the store's certificate is trusted"
    );
  }
  const named =
    code !== undefined && code !== "Unknown" && !message.includes(code) ? `${code}: ` : "";
  return `${named}${message === "UnknownError" && status !== undefined ? `HTTP ${status}` : message}`;
}

/** The endpoint as the user gave it, or AWS S3's, for messages. */
function endpointOf(settings: ObjectStoreSettings): string {
  return (
    settings.endpoint ?? `AWS S3 (${settings.region ?? process.env.AWS_REGION ?? "us-east-1"})`
  );
}

/**
 * A failure of the store worded for people: what was asked of which object, and what to check.
 * Credentials never appear (the SDK's messages do not hold them).
 */
function storeError(settings: ObjectStoreSettings, what: string, url: string, e: unknown): Error {
  // A failure of the body (the server's download, the archive's check) is reported as itself.
  if (e instanceof ObjectStoreError || isArcGISRequestError(e)) return e;
  return new ObjectStoreError(
    `${what} ${url} failed: ${storeProblem(e, endpointOf(settings))}.`,
    codeOf(e),
    { cause: e },
  );
}

/**
 * Streams a body to an object with a multipart upload ({@link PART_BYTES} parts through one
 * reused buffer: the body is never held whole), under a temporary key beside the final one;
 * once the body has been read whole, `finish` gives the SHA-256 and the archive's check, and the
 * object is published with the SHA-256 as metadata under a key no other object has (see
 * {@link publish}: a backup never replaces another); the temporary object is then removed. A
 * failure leaves no final object.
 *
 * @param settings - how to reach the store.
 * @param destination - `s3://bucket/prefix`.
 * @param name - the file name (e.g. `20250101-120000-UTC.agssite`).
 * @param body - the content.
 * @param finish - called once the body is uploaded: its SHA-256 (hex); throws to refuse it.
 * @returns the final object, its URL and size.
 * @example
 * ```ts
 * await uploadArchive({ endpoint }, "s3://backups/site-a", "x.agssite", stream, async () => hash);
 * ```
 * Maps to: S3 CreateMultipartUpload, UploadPart, CompleteMultipartUpload (or PutObject for a
 * small body), CopyObject with `If-None-Match: *`, HeadObject, DeleteObject (of the temporary
 * object).
 *
 * @internal
 */
export async function uploadArchive(
  settings: ObjectStoreSettings,
  destination: string,
  name: string,
  body: Readable,
  finish: () => Promise<string>,
  signal?: AbortSignal,
): Promise<ObjectLocation & { url: string; sha256: string }> {
  const { bucket, prefix } = parseObjectUrl(destination);
  const safe = name.replace(/[^\w.-]+/g, "_");
  // Unique to this upload even across machines, unlike a process id and a clock.
  const writer = randomBytes(6).toString("hex");
  const temp: ObjectLocation = { bucket, key: `${prefix}.${safe}.${writer}.part` };
  return withClient(settings, async (client, s3) => {
    let uploaded = false;
    try {
      const sizeBytes = await streamToObject(client, s3, temp, body, signal);
      uploaded = true;
      const sha256 = await finish();
      const key = await publish(client, s3, temp, {
        prefix,
        name: safe,
        writer,
        sha256,
        sizeBytes,
      });
      return { bucket, key, url: objectUrl({ bucket, key }), sha256 };
    } catch (e) {
      throw storeError(settings, "Uploading the archive to", objectUrl(temp), e);
    } finally {
      if (uploaded) {
        await client
          .send(new s3.DeleteObjectCommand({ Bucket: temp.bucket, Key: temp.key }))
          .catch(() => undefined);
      }
    }
  });
}

/** Whether a write was refused by its condition (`If-None-Match`): another object has the key. */
function isConditionFailed(e: unknown): boolean {
  const status = (e as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
    ?.httpStatusCode;
  // 409 ConditionalRequestConflict: S3 is completing another conditional write of that key.
  return (
    status === 412 ||
    ["PreconditionFailed", "ConditionalRequestConflict"].includes(codeOf(e) ?? "") ||
    (status === 409 && codeOf(e) !== "NoSuchBucket")
  );
}

/**
 * Copies the uploaded temporary object to its final key, never over another object: each copy
 * carries `If-None-Match: *`, and a store refusing it means the name is taken (`-1`, `-2`, ...
 * next). Whether the store honours the condition is asked first, with a conditional copy of the
 * temporary object onto itself (refused when honoured); a store that ignores it would let two
 * uploads write one key, so the final name then carries this upload's own id. After the copy, the
 * object must carry this upload's id, SHA-256 and size, else another writer's copy replaced it
 * and the next name is tried.
 */
async function publish(
  client: S3Client,
  s3: typeof ClientS3,
  temp: ObjectLocation,
  upload: { prefix: string; name: string; writer: string; sha256: string; sizeBytes: number },
): Promise<string> {
  const { bucket } = temp;
  const source = `${bucket}/${temp.key.split("/").map(encodeURIComponent).join("/")}`;
  const conditional = await honoursIfNoneMatch(client, s3, temp, source);
  const dot = upload.name.lastIndexOf(".");
  const stem = dot > 0 ? upload.name.slice(0, dot) : upload.name;
  const ext = dot > 0 ? upload.name.slice(dot) : "";
  const base = conditional ? stem : `${stem}-${upload.writer}`;
  for (let n = 0; n < MAX_NAMES; n++) {
    const key = `${upload.prefix}${base}${n === 0 ? "" : `-${n}`}${ext}`;
    if (!conditional && (await headObjectWith(client, s3, { bucket, key })) !== undefined) {
      continue;
    }
    try {
      await client.send(
        new s3.CopyObjectCommand({
          Bucket: bucket,
          Key: key,
          CopySource: source,
          IfNoneMatch: "*",
          MetadataDirective: "REPLACE",
          ContentType: "application/zip",
          Metadata: { [SHA256_METADATA_KEY]: upload.sha256, [WRITER_METADATA_KEY]: upload.writer },
        }),
      );
    } catch (e) {
      if (isConditionFailed(e)) continue;
      throw e;
    }
    const written = await headObjectWith(client, s3, { bucket, key });
    if (
      written?.writer === upload.writer &&
      written.sha256 === upload.sha256 &&
      written.sizeBytes === upload.sizeBytes
    ) {
      return key;
    }
  }
  throw new ObjectStoreError(
    `No free name for ${upload.name} under s3://${bucket}/${upload.prefix}: ${MAX_NAMES} names ` +
      "were taken. Upload to another prefix, or remove old archives.",
    undefined,
  );
}

/**
 * Whether the store refuses a write that `If-None-Match: *` forbids: a conditional copy of the
 * temporary object onto itself, which such a store refuses (the key exists) and any other store
 * performs harmlessly. Any other failure counts as "not honoured", the safe side.
 */
async function honoursIfNoneMatch(
  client: S3Client,
  s3: typeof ClientS3,
  temp: ObjectLocation,
  source: string,
): Promise<boolean> {
  try {
    await client.send(
      new s3.CopyObjectCommand({
        Bucket: temp.bucket,
        Key: temp.key,
        CopySource: source,
        IfNoneMatch: "*",
        // A copy onto itself is legal only when it changes something.
        MetadataDirective: "REPLACE",
        Metadata: { probe: "if-none-match" },
      }),
    );
    return false;
  } catch (e) {
    return isConditionFailed(e);
  }
}

/** An object's size, SHA-256 and writer, or undefined when it is not there. */
async function headObjectWith(
  client: S3Client,
  s3: typeof ClientS3,
  location: ObjectLocation,
): Promise<(ObjectInfo & { writer?: string | undefined }) | undefined> {
  try {
    const head = await client.send(
      new s3.HeadObjectCommand({ Bucket: location.bucket, Key: location.key }),
    );
    return {
      sizeBytes: head.ContentLength ?? 0,
      sha256: head.Metadata?.[SHA256_METADATA_KEY],
      writer: head.Metadata?.[WRITER_METADATA_KEY],
    };
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * Uploads a body to an object: one PutObject when it is smaller than a part, else a multipart
 * upload of {@link PART_BYTES} parts (the last one shorter) through one part buffer, each part
 * sent before the next fills. A failure aborts the multipart upload (its parts are dropped).
 */
async function streamToObject(
  client: S3Client,
  s3: typeof ClientS3,
  target: ObjectLocation,
  body: Readable,
  signal: AbortSignal | undefined,
): Promise<number> {
  const where = { Bucket: target.bucket, Key: target.key };
  const options = signal === undefined ? {} : { abortSignal: signal };
  const buffer = Buffer.allocUnsafeSlow(PART_BYTES);
  let filled = 0;
  let uploadId: string | undefined;
  const parts: Array<{ PartNumber: number; ETag?: string; ChecksumCRC32?: string }> = [];
  let partNumber = 0;
  let total = 0;
  const send = async (data: Buffer, partNumber: number, id: string): Promise<void> => {
    const answer = await client.send(
      new s3.UploadPartCommand({
        ...where,
        UploadId: id,
        PartNumber: partNumber,
        Body: data,
        ContentLength: data.length,
        ChecksumAlgorithm: "CRC32",
      }),
      options,
    );
    parts.push({
      PartNumber: partNumber,
      ...(answer.ETag !== undefined && { ETag: answer.ETag }),
      ...(answer.ChecksumCRC32 !== undefined && { ChecksumCRC32: answer.ChecksumCRC32 }),
    });
  };
  const flush = async (): Promise<void> => {
    if (uploadId === undefined) {
      const created = await client.send(
        new s3.CreateMultipartUploadCommand({ ...where, ChecksumAlgorithm: "CRC32" }),
        options,
      );
      if (created.UploadId === undefined) {
        throw new ObjectStoreError(
          "The store answered CreateMultipartUpload without an UploadId.",
          undefined,
        );
      }
      uploadId = created.UploadId;
    }
    partNumber += 1;
    // The body waits (backpressure) while the part is sent; the buffer is then free again.
    await send(buffer.subarray(0, filled), partNumber, uploadId);
    filled = 0;
  };
  try {
    for await (const item of body as AsyncIterable<Buffer | Uint8Array | string>) {
      const chunk =
        typeof item === "string"
          ? Buffer.from(item)
          : Buffer.from(item.buffer, item.byteOffset, item.byteLength);
      let at = 0;
      while (at < chunk.length) {
        const copied = chunk.copy(buffer, filled, at);
        filled += copied;
        at += copied;
        total += copied;
        if (filled === PART_BYTES) await flush();
      }
    }
    if (uploadId === undefined) {
      await client.send(
        new s3.PutObjectCommand({
          ...where,
          Body: buffer.subarray(0, filled),
          ContentLength: filled,
        }),
        options,
      );
      return total;
    }
    if (filled > 0) await flush();
    await client.send(
      new s3.CompleteMultipartUploadCommand({
        ...where,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
      options,
    );
    return total;
  } catch (e) {
    if (uploadId !== undefined) {
      await client
        .send(new s3.AbortMultipartUploadCommand({ ...where, UploadId: uploadId }))
        .catch(() => undefined);
    }
    throw e;
  }
}

/**
 * An object's size and recorded SHA-256, or undefined when it is not there (a missing bucket is
 * an error: the store or the bucket's name is wrong).
 *
 * @param settings - how to reach the store.
 * @param location - the object.
 * @example `const info = await headObject(settings, objectLocation(state.objectUrl));`
 * Maps to: S3 HeadObject (and HeadBucket after a 404, to tell a missing bucket).
 *
 * @internal
 */
export async function headObject(
  settings: ObjectStoreSettings,
  location: ObjectLocation,
): Promise<ObjectInfo | undefined> {
  return withClient(settings, async (client, s3) => {
    try {
      const head = await client.send(
        new s3.HeadObjectCommand({ Bucket: location.bucket, Key: location.key }),
      );
      return { sizeBytes: head.ContentLength ?? 0, sha256: head.Metadata?.[SHA256_METADATA_KEY] };
    } catch (e) {
      if (!isNotFound(e)) throw storeError(settings, "Reading", objectUrl(location), e);
      // A HEAD answer has no body: a 404 names neither the object nor the bucket as missing.
      if (await bucketExists(client, s3, location.bucket)) return undefined;
      throw storeError(settings, "Reading", objectUrl(location), noSuchBucket(e));
    }
  });
}

/** Whether a bucket is there; a store that will not say (403, ...) counts as yes. */
async function bucketExists(client: S3Client, s3: typeof ClientS3, bucket: string) {
  try {
    await client.send(new s3.HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch (e) {
    return !isNotFound(e);
  }
}

/** A 404 known to be the bucket's, as S3 names it in a body. */
function noSuchBucket(cause: unknown): Error {
  return Object.assign(new Error("NoSuchBucket"), { name: "NoSuchBucket", cause });
}

/**
 * Deletes an object. Destroys a backup: callers go through the one-shot register's guard
 * (ARCHITECTURE.md).
 *
 * @param settings - how to reach the store.
 * @param location - the object.
 * @example `await deleteObject(settings, { bucket: "backups", key: "site-a/x.agssite" });`
 * Maps to: S3 DeleteObject.
 *
 * @internal
 */
export async function deleteObject(
  settings: ObjectStoreSettings,
  location: ObjectLocation,
): Promise<void> {
  await withClient(settings, async (client, s3) => {
    try {
      await client.send(new s3.DeleteObjectCommand({ Bucket: location.bucket, Key: location.key }));
    } catch (e) {
      throw storeError(settings, "Deleting", objectUrl(location), e);
    }
  });
}

/**
 * Opens an object for reading, as a stream (its content is never held in memory whole).
 *
 * @param settings - how to reach the store.
 * @param location - the object.
 * @returns its body and what {@link headObject} tells.
 * @example `const { body } = await openObject(settings, objectLocation(url));`
 * Maps to: S3 GetObject.
 *
 * @internal
 */
export async function openObject(
  settings: ObjectStoreSettings,
  location: ObjectLocation,
): Promise<ObjectInfo & { body: Readable; close(): void }> {
  const s3 = sdk();
  const client = clientFor(settings);
  try {
    const got = await client.send(
      new s3.GetObjectCommand({ Bucket: location.bucket, Key: location.key }),
    );
    return {
      body: got.Body as Readable,
      sizeBytes: got.ContentLength ?? 0,
      sha256: got.Metadata?.[SHA256_METADATA_KEY],
      close: () => client.destroy(),
    };
  } catch (e) {
    client.destroy();
    if (isNotFound(e) && codeOf(e) !== "NoSuchBucket") {
      throw new ObjectStoreError(`The object ${objectUrl(location)} is not there.`, "NoSuchKey", {
        cause: e,
      });
    }
    throw storeError(settings, "Reading", objectUrl(location), e);
  }
}

/**
 * The stream of an exported site archive from the server to an object store: the download,
 * its hash and zip check on the way, and the multipart upload. Plain data in and out, so that it
 * can run in the calling thread or in the transfer worker (see off-thread.ts).
 */
import { Readable } from "node:stream";
import { streamedZipCheck } from "./archive-check";
import type { TransportOptions } from "../dispatcher";
import { downloadToSink } from "./download";
import { uploadArchive, type ObjectStoreSettings } from "./object-store";
import type { UploadedExport } from "./uploaded-export";
import { withoutTrailingSlash } from "../../url";

/** What one transfer needs; structured-clonable apart from `transport.signal`/`dispatcher`. */
export interface ExportTransfer {
  /** The archive's URL on the admin URL's origin (see exportDownloadUrl). */
  fileUrl: string;
  /** The admin token, sent as `X-Esri-Authorization` to `fileUrl` only. */
  token: string;
  referer: string | undefined;
  /** Values redacted from error messages. */
  secrets: readonly string[];
  transport: TransportOptions;
  /** `s3://bucket/prefix`. */
  destination: string;
  store: ObjectStoreSettings;
}

/**
 * Streams the archive at `fileUrl` to the store (see uploadExport, which retries it and renews
 * the token).
 *
 * @param t - the transfer.
 * @returns the object, the file's name, size and SHA-256.
 * @example
 * ```ts
 * await transferExport({ fileUrl, token, referer, secrets: [], transport: {}, destination, store });
 * ```
 * Maps to: `GET <fileUrl>`, then the S3 requests of uploadArchive.
 *
 * @internal
 */
export async function transferExport(t: ExportTransfer): Promise<UploadedExport> {
  const done = await downloadToSink(
    {
      ...t.transport,
      url: t.fileUrl,
      operation: "downloadExport",
      token: t.token,
      referer: t.referer,
      secrets: t.secrets,
      defaultExtension: ".agssite",
      fileOfItem: (itemUrl) => `${withoutTrailingSlash(itemUrl)}/download`,
    },
    ({ body, fileName, digest }) => {
      const zip = streamedZipCheck();
      const checked = Readable.from(
        (async function* () {
          for await (const chunk of body as AsyncIterable<Buffer>) {
            zip.observe(chunk);
            yield chunk;
          }
        })(),
      );
      return uploadArchive(
        t.store,
        t.destination,
        fileName,
        checked,
        () => {
          zip.verify({ operation: "downloadExport", url: t.fileUrl });
          return Promise.resolve(digest().sha256);
        },
        t.transport.signal,
      );
    },
  );
  const { url, bucket, key } = done.result;
  return {
    url,
    bucket,
    key,
    fileName: done.fileName,
    sizeBytes: done.sizeBytes,
    sha256: done.sha256,
  };
}

/**
 * Checks of an archive on disk: that it is a readable, non-empty zip, and its size and SHA-256.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import * as yauzl from "yauzl";
import type { DownloadResult } from "./download";
import { requestError, type AnswerContext } from "../response";

/**
 * Checks that a file is a readable zip archive by opening it and walking its central directory;
 * otherwise throws BAD_RESPONSE saying so. Site archives (`.agssite`) are zip files.
 *
 * @param path - the file to check.
 * @param ctx - operation and URL for the error message.
 * @example
 * ```ts
 * await verifyZipFile("/tmp/x.part", { operation: "downloadExport", url });
 * ```
 * Sends no request: it checks a file that a download delivered.
 *
 * @internal
 */
export async function verifyZipFile(path: string, ctx: AnswerContext): Promise<void> {
  let entries: number;
  try {
    entries = await countZipEntries(path);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw requestError(ctx, "BAD_RESPONSE", `the downloaded file is not a zip archive (${why}).`, {
      cause: e,
    });
  }
  if (entries === 0)
    throw requestError(ctx, "BAD_RESPONSE", "the downloaded zip archive is empty.");
}

function countZipEntries(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err) return reject(err);
      let count = 0;
      zip.on("entry", () => {
        count++;
        zip.readEntry();
      });
      zip.on("end", () => resolve(count));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}

/**
 * The size and SHA-256 of a file on disk, read once as a stream (memory flat in its size), with
 * no check of what it holds.
 *
 * @param path - the file.
 * @returns path, file name, size and SHA-256, as {@link downloadToFile} reported them.
 * @example
 * ```ts
 * const { sha256 } = await archiveDigest("./backups/20220823-140812-UTC.agssite");
 * ```
 * Sends no request: it reads a local file. A missing file fails with Node's own ENOENT error.
 *
 * @internal
 */
export async function archiveDigest(path: string): Promise<DownloadResult> {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    sizeBytes += chunk.length;
  }
  return { path, fileName: basename(path), sizeBytes, sha256: hash.digest("hex") };
}

/**
 * Re-checks a downloaded archive on disk: hashes it and verifies it is a readable, non-empty zip.
 * To tell whether a file is still the one downloaded, {@link archiveDigest} is enough: the same
 * SHA-256 is the same bytes, which were checked when they arrived.
 *
 * @param path - the archive file.
 * @returns path, file name, size and SHA-256, as {@link downloadToFile} reported them.
 * @example
 * ```ts
 * const { sha256 } = await verifyArchive("./backups/20220823-140812-UTC.agssite");
 * ```
 * Sends no request: it checks a local file, e.g. one a download delivered. A missing
 * file fails with Node's own ENOENT error; a non-zip with BAD_RESPONSE.
 *
 * @internal
 */
export async function verifyArchive(path: string): Promise<DownloadResult> {
  const digest = await archiveDigest(path);
  await verifyZipFile(path, { operation: "verifyArchive", url: path });
  return digest;
}

/** Bytes at the end of a zip that can hold its end-of-central-directory record (22 + comment). */
const ZIP_TAIL_BYTES = 22 + 0xffff;

/**
 * A check of a zip archive that goes by as a stream (uploaded without touching the disk): its
 * first bytes are a zip's, and its end holds an end-of-central-directory record that counts at
 * least one entry. Less than {@link verifyZipFile}'s walk of the whole directory, but it tells an
 * archive from a proxy's page, a truncated body or an empty zip; it keeps at most 64 KiB.
 *
 * @example
 * ```ts
 * const check = streamedZipCheck();
 * for await (const chunk of body) check.observe(chunk);
 * check.verify({ operation: "downloadExport", url });
 * ```
 * Sends no request.
 *
 * @internal
 */
export function streamedZipCheck(): {
  observe(chunk: Buffer): void;
  verify(ctx: AnswerContext): void;
} {
  let head = Buffer.alloc(0);
  // The last chunks, at least ZIP_TAIL_BYTES of them: kept by reference, joined only at the end
  // (a copy per chunk would make garbage as large as the archive).
  const last: Buffer[] = [];
  let lastBytes = 0;
  return {
    observe(chunk) {
      if (head.length < 4) head = Buffer.concat([head, chunk.subarray(0, 4 - head.length)]);
      last.push(chunk);
      lastBytes += chunk.length;
      while (last.length > 1 && lastBytes - last[0]!.length >= ZIP_TAIL_BYTES) {
        lastBytes -= last[0]!.length;
        last.shift();
      }
    },
    verify(ctx) {
      const fail = (why: string) =>
        requestError(ctx, "BAD_RESPONSE", `the downloaded file is not a zip archive (${why}).`);
      if (head.length < 4 || head.readUInt32LE(0) !== 0x04034b50) {
        if (head.length >= 4 && head.readUInt32LE(0) === 0x06054b50) {
          throw requestError(ctx, "BAD_RESPONSE", "the downloaded zip archive is empty.");
        }
        throw fail("it does not start with a zip entry");
      }
      const joined = Buffer.concat(last);
      const tail = joined.subarray(Math.max(0, joined.length - ZIP_TAIL_BYTES));
      for (let at = tail.length - 22; at >= 0; at--) {
        if (tail.readUInt32LE(at) !== 0x06054b50) continue;
        const entries = tail.readUInt16LE(at + 10);
        if (entries === 0) {
          throw requestError(ctx, "BAD_RESPONSE", "the downloaded zip archive is empty.");
        }
        return;
      }
      throw fail("no end-of-central-directory record: truncated?");
    },
  };
}

import { createHash, randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import * as path from "node:path";
import { Readable } from "node:stream";
import { z } from "zod";
import { baseHeaders, sendForAnswer } from "../request";
import { postMultipart } from "../multipart";
import { validateAnswer } from "../response";
import { streamedZipCheck } from "../transfer/archive-check";
import {
  objectLocation,
  ObjectStoreError,
  openObject,
  type ObjectStoreSettings,
} from "../transfer/object-store";
import type { AdminSession } from "../session";

// Chef `upload_item` reads `item.itemID`; the current ArcGIS Server page shows `item` as the id.
const UploadItemAnswer = z.looseObject({
  item: z.union([z.looseObject({ itemID: z.string().min(1) }), z.string().min(1)]),
});

/**
 * Uploads a local file to the server as an item (multipart `itemFile`, as Chef `upload_item`
 * sends it), streamed from disk, never held in memory. Never retried: a second upload would make
 * a second item; the caller decides what a lost answer means (see {@link listUploadedItems}).
 *
 * @param session - an admin session.
 * @param options - `file`: the local file; `description`: stored with the item (findable later).
 * @returns the new item's id.
 * @example
 * ```ts
 * const { itemID } = await uploadItem(session, { file: "./backups/20250101-120000-UTC.agssite" });
 * ```
 * Maps to: `POST {admin_root}/uploads/upload`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/uploaditem.htm
 */
export async function uploadItem(
  session: AdminSession,
  options: { file: string; description?: string | undefined },
): Promise<{ itemID: string }> {
  const url = session.url("uploads/upload");
  const ctx = { operation: "uploads/upload", url, secrets: session.secrets() };
  const body = await postMultipart(
    session,
    url,
    {
      fields: { description: options.description },
      // Opened for each attempt: a renewed token sends the file again from its start.
      files: {
        itemFile: async () => ({
          content: await openAsBlob(options.file),
          fileName: path.basename(options.file),
        }),
      },
    },
    ctx,
  );
  const { item } = validateAnswer(UploadItemAnswer, body, ctx);
  return { itemID: typeof item === "string" ? item : item.itemID };
}

/** What {@link uploadItemFromObject} uploaded. */
export interface UploadedObjectItem {
  /** The new item's id (importSite's `location`). */
  itemID: string;
  /** The file name the item was given (the object key's last segment). */
  fileName: string;
  sizeBytes: number;
  /** Hex SHA-256 of the content streamed, checked against the expected one before the last byte. */
  sha256: string;
}

/**
 * Streams an archive from S3-compatible object storage to the server as an uploaded item (the
 * multipart `itemFile` of {@link uploadItem}), without writing it to disk or holding it in memory.
 * The content must hash to `expectedSha256`, which the caller recorded (a SiteExport's `sha256`):
 * the object's own `sha256` metadata is never proof, anyone who can write the bucket sets it; it
 * only refuses early, before anything is sent, when it names another archive. The content is
 * hashed and checked as a zip as it goes; the last chunk
 * and the multipart's closing boundary are sent only once the hash matches, so a server never
 * receives a complete upload of other content (the request is cut, and no item is made). Never
 * retried but for a rejected token (the object is then read again): a second upload would make a
 * second item.
 *
 * @param session - an admin session.
 * @param store - how to reach the store (endpoint, region, path style, credentials).
 * @param object - `s3://bucket/key` of the archive.
 * @param options - `description`: stored with the item; `expectedSha256`: what the content must
 *   hash to (hex), required.
 * @returns the new item's id, the file name, size and SHA-256 of what was sent.
 * @example
 * ```ts
 * const item = await uploadItemFromObject(session, { region: "eu-west-1" }, "s3://backups/site-a/x.agssite", {
 *   expectedSha256: backupSha256,
 * });
 * await importSite(session, { location: item.itemID, serverType: "arcgis-server" });
 * ```
 * Maps to: S3 GetObject, then `POST {admin_root}/uploads/upload`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/uploaditem.htm
 */
export async function uploadItemFromObject(
  session: AdminSession,
  store: ObjectStoreSettings,
  object: string,
  options: { description?: string | undefined; expectedSha256: string },
): Promise<UploadedObjectItem> {
  const location = objectLocation(object);
  const url = session.url("uploads/upload");
  const ctx = { operation: "uploads/upload", url, secrets: session.secrets() };
  const fileName =
    (location.key.split("/").pop() ?? "").replace(/[^\w.-]+/g, "_").replace(/^\.+/, "") ||
    "site.agssite";
  const expected = options.expectedSha256.toLowerCase();
  return session.withToken(async (token) => {
    const opened = await openObject(store, location);
    try {
      const recorded = opened.sha256?.toLowerCase();
      if (recorded !== undefined && recorded !== expected) {
        throw new ObjectStoreError(
          `The object ${object} has the sha256 metadata ${recorded}, not the expected ` +
            `${expected}: it is another archive. Nothing was sent to the server.`,
          "Sha256Mismatch",
        );
      }
      const boundary = `----pulumi-arcgis-admin-${randomBytes(12).toString("hex")}`;
      const field = (name: string, value: string) =>
        `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const head = Buffer.from(
        field("f", "json") +
          // Tokens go in the body: URLs end up in proxy and server logs.
          field("token", token) +
          (options.description === undefined ? "" : field("description", options.description)) +
          `--${boundary}\r\ncontent-disposition: form-data; name="itemFile"; ` +
          `filename="${fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const hash = createHash("sha256");
      const zip = streamedZipCheck();
      let sizeBytes = 0;
      let sha256 = "";
      let refusal: Error | undefined;
      const content = opened.body as AsyncIterable<Buffer>;
      async function* body(): AsyncGenerator<Uint8Array> {
        yield head;
        // One chunk is held back: the server gets the last bytes only once the content is checked.
        let held: Buffer | undefined;
        for await (const chunk of content) {
          hash.update(chunk);
          zip.observe(chunk);
          sizeBytes += chunk.length;
          if (held !== undefined) yield held;
          held = chunk;
        }
        sha256 = hash.digest("hex");
        try {
          if (sha256 !== expected) {
            throw new ObjectStoreError(
              `The content of ${object} has SHA-256 ${sha256}, not the expected ${expected}: ` +
                "it changed since it was written. The upload was cut before its end, so the server " +
                "has no item of it.",
              "ContentMismatch",
            );
          }
          zip.verify({ operation: "GetObject", url: object });
        } catch (e) {
          refusal = e as Error;
          throw e;
        }
        if (held !== undefined) yield held;
        yield tail;
      }
      const answer = await sendForAnswer(
        {
          url,
          method: "POST",
          headers: {
            ...baseHeaders(session.referer),
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": String(head.length + opened.sizeBytes + tail.length),
          },
          body: Readable.from(body(), { objectMode: false }),
        },
        session.transport,
        ctx,
      ).catch((e: unknown) => {
        throw refusal ?? e;
      });
      const { item } = validateAnswer(UploadItemAnswer, answer, ctx);
      return {
        itemID: typeof item === "string" ? item : item.itemID,
        fileName,
        sizeBytes,
        sha256,
      };
    } finally {
      opened.body.destroy();
      opened.close();
    }
  });
}

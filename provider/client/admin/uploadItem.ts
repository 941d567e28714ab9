import { openAsBlob } from "node:fs";
import * as path from "node:path";
import { FormData } from "undici";
import { z } from "zod";
import { baseHeaders, sendForAnswer } from "../request";
import { validateAnswer } from "../response";
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
  const body = await session.withToken(async (token) => {
    const form = new FormData();
    form.set("itemFile", await openAsBlob(options.file), path.basename(options.file));
    if (options.description !== undefined) form.set("description", options.description);
    form.set("f", "json");
    // Tokens go in the body: URLs end up in proxy and server logs.
    form.set("token", token);
    return sendForAnswer(
      { url, method: "POST", headers: baseHeaders(session.referer), body: form },
      session.transport,
      ctx,
    );
  });
  const { item } = validateAnswer(UploadItemAnswer, body, ctx);
  return { itemID: typeof item === "string" ? item : item.itemID };
}

import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";

const DeleteAnswer = z.looseObject({ status: z.literal("success") });

/**
 * Deletes an uploaded item (the archive a restore uploaded) and its configuration. Not retried:
 * a second call after a lost answer would only find the item gone.
 *
 * @param session - an admin session.
 * @param itemId - the item's id, as uploads/upload answered it.
 * @example
 * ```ts
 * await deleteUploadedItem(session, "i4e1f1a52-8d8e-4e9c-b0f5-2b6a0c1d9e77");
 * ```
 * Maps to: `POST {admin_root}/uploads/{itemId}/delete` with `f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/deleteitem.htm
 */
export async function deleteUploadedItem(session: AdminSession, itemId: string): Promise<void> {
  const path = `uploads/${encodeURIComponent(itemId)}/delete`;
  const body = await session.call(path, {}, { operation: "uploads/delete" });
  validateAnswer(DeleteAnswer, body, { operation: "uploads/delete", url: session.url(path) });
}

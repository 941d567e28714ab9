import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";

const UploadsAnswer = z.looseObject({
  items: z
    .array(
      z.looseObject({
        itemID: z.string(),
        itemName: z.string().optional(),
        description: z.string().nullable().optional(),
      }),
    )
    .default([]),
});

/** An uploaded item as the uploads resource lists it. */
export interface UploadedItemSummary {
  itemID: string;
  itemName?: string | undefined;
  description?: string | null | undefined;
}

/**
 * Lists the items uploaded to the server, with their descriptions. Retried on transient
 * failures: a read.
 *
 * @param session - an admin session.
 * @returns the items.
 * @example
 * ```ts
 * const mine = (await listUploadedItems(session)).find((i) => i.description === marker);
 * ```
 * Maps to: `GET {admin_root}/uploads?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/uploads.htm
 */
export async function listUploadedItems(session: AdminSession): Promise<UploadedItemSummary[]> {
  const body = await session.call(
    "uploads",
    {},
    { method: "GET", idempotent: true, operation: "uploads" },
  );
  return validateAnswer(UploadsAnswer, body, {
    operation: "uploads",
    url: session.url("uploads"),
  }).items;
}

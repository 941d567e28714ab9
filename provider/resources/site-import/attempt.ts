/**
 * The mark an import's upload carries, so that a create run again after a killed one can tell
 * that an earlier attempt with the same inputs reached the server. The killed run's importSite may
 * have run (its answer never came), so it is not sent again.
 */
import { createHash } from "node:crypto";
import {
  type AdminSession,
  deleteUploadedItem,
  listUploadedItems,
  type UploadedItemSummary,
} from "../../client";
import { canonicalUrl } from "../common/connection/urls";
import type { SiteImportInputs } from "./generated";

/**
 * The attempt's mark: a hash of what makes the import another one (the site, the archive's
 * source and fingerprint, `triggers`), so that a replacement, which changes one of them, is never
 * taken for an earlier attempt.
 */
export function attemptMark(inputs: SiteImportInputs, fingerprint: string): string {
  const source = inputs.archiveObject ?? inputs.localArchive ?? null;
  const key = JSON.stringify([
    canonicalUrl(inputs.adminUrl),
    source,
    fingerprint,
    inputs.triggers ?? null,
  ]);
  return `attempt ${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
}

/**
 * The item an earlier attempt with the same mark uploaded, or undefined. Such an item stays on
 * the server only when that attempt never finished: a SiteImport deletes its item on destroy.
 */
export async function earlierAttempt(
  session: AdminSession,
  mark: string,
): Promise<UploadedItemSummary | undefined> {
  const items = await listUploadedItems(session);
  return items.find((item) => item.description?.includes(mark) === true);
}

/**
 * Removes this attempt's upload after a failure that came before importSite took effect, so that
 * the next run imports instead of taking it for an interrupted import. Best effort: a server that
 * cannot be reached now keeps the item, and the next run says how to go on.
 */
export async function forgetAttempt(session: AdminSession, mark: string): Promise<void> {
  try {
    const items = await listUploadedItems(session);
    for (const item of items.filter((i) => i.description?.includes(mark) === true)) {
      await deleteUploadedItem(session, item.itemID);
    }
  } catch {
    // The failure being reported matters more than this clean-up.
  }
}

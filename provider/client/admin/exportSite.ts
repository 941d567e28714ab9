import { z } from "zod";
import type { AdminSession } from "../session";
import { validateAnswer } from "../response";

const ExportSiteAnswer = z.looseObject({ location: z.string().min(1) });

/**
 * Exports the site configuration to a file. Never retried: a second export while the first runs
 * would fail, and the caller decides what a lost answer means.
 *
 * @param session - an admin session.
 * @param options - `location`: a folder the server can write to; omitted, the server keeps the
 *   file and answers a download URL (see {@link downloadExport}).
 * @returns the file path in `location`, or the download URL.
 * @example
 * ```ts
 * const { location } = await exportSite(session, { location: "/backups" });
 * ```
 * Maps to: `POST {admin_root}/exportSite`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/exportsite
 */
export async function exportSite(
  session: AdminSession,
  options: { location?: string | undefined } = {},
): Promise<{ location: string }> {
  const body = await session.call("exportSite", { location: options.location });
  const { location } = validateAnswer(ExportSiteAnswer, body, {
    operation: "exportSite",
    url: session.url("exportSite"),
  });
  return { location };
}

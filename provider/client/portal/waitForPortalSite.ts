import type { TransportOptions } from "../dispatcher";
import { endsTheWait } from "../readiness";
import { NotYet, pollUntil, type WaitOptions } from "../admin/wait";
import { portalAdminUrlOf } from "./paths";
import { portalSiteStatus, type PortalSiteStatus } from "./portalSiteStatus";

/**
 * Waits until the portal answers its administrative root (a fresh install can take minutes), or,
 * with `until: "in-site"`, until that answer says the portal has its site (code 499 without a
 * token, Chef's `site_exist?`). What waiting cannot fix (readiness.ts) ends the wait at once.
 *
 * @param sharingUrl - the portal's sharing root.
 * @param transport - TLS options and dispatcher (timeouts are set per look from the deadline).
 * @param until - `answering` (any answer that says whether it has its site) or `in-site`.
 * @param wait - deadline, polling interval, status callback.
 * @returns the last status read.
 * @example
 * ```ts
 * await waitForPortalSite(sharingUrl, { tls }, "in-site", { deadline: Date.now() + 3_600_000, pollIntervalMs: 1_000 });
 * ```
 * Maps to: `GET {portaladmin}/?f=json` without a token, repeatedly.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/portal/create-site
 */
export async function waitForPortalSite(
  sharingUrl: string,
  transport: TransportOptions,
  until: "answering" | "in-site",
  wait: WaitOptions,
): Promise<Exclude<PortalSiteStatus, { state: "unreachable" }>> {
  const adminUrl = portalAdminUrlOf(sharingUrl);
  const subject = {
    operation: "waitForPortalSite",
    url: adminUrl,
    timedOut: (last: NotYet) => ({
      detail: `the portal was not ${until === "in-site" ? "in its site" : "answering"} by the deadline; last state: ${last.detail}`,
      messages: [`last state: ${last.detail}`],
    }),
  };
  return pollUntil(subject, wait, async (timeouts) => {
    const look = { ...transport, timeouts };
    const status = await portalSiteStatus(sharingUrl, look);
    if (status.state === "unreachable") {
      const final = await endsTheWait(adminUrl, status.error, look);
      if (final !== undefined) throw final;
      throw new NotYet("unreachable", `not answering (${status.error.message})`, status.error);
    }
    if (until === "in-site" && status.state === "no-site") {
      throw new NotYet("no-site", `the portal answers: ${status.message}`);
    }
    return status;
  });
}

import type { TransportOptions } from "../dispatcher";
import { endsTheWait } from "../readiness";
import { siteStatus, type SiteStatus } from "./siteStatus";
import { NotYet, pollUntil, type WaitOptions } from "./wait";

export type { WaitOptions, WaitStatus } from "./wait";

/**
 * Waits until the machine behind `adminUrl` answers its admin root with something that says
 * whether it is in a site (a fresh install can take minutes to answer). Only a server that is not
 * answering yet is waited for; what waiting cannot fix (an http:// URL on a TLS port, a 404, a
 * portal, TLS, a redirect: readiness.ts) ends the wait at once.
 *
 * @param adminUrl - administrative root.
 * @param transport - TLS options and dispatcher (timeouts are set per look from the deadline).
 * @param wait - deadline, polling interval, status callback.
 * @returns the admin root's answer: `in-site` or `no-site`.
 * @example
 * ```ts
 * const status = await waitForServer(adminUrl, { tls }, { deadline: Date.now() + 900_000, pollIntervalMs: 5_000 });
 * ```
 * Maps to: `GET {admin_root}/?f=json` without a token, repeatedly.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/site.htm
 */
export async function waitForServer(
  adminUrl: string,
  transport: TransportOptions,
  wait: WaitOptions,
): Promise<Exclude<SiteStatus, { state: "unreachable" }>> {
  const subject = {
    operation: "waitForServer",
    url: adminUrl,
    timedOut: (last: NotYet) => ({
      detail: `the server did not answer by the deadline: ${last.detail}`,
      messages: [last.detail],
    }),
  };
  return pollUntil(subject, wait, async (timeouts) => {
    const status = await siteStatus(adminUrl, { ...transport, timeouts });
    if (status.state !== "unreachable") return status;
    const final = await endsTheWait(adminUrl, status.error, { ...transport, timeouts });
    if (final !== undefined) throw final;
    const detail = `not answering yet (${status.error.message})`;
    throw new NotYet("unreachable", detail, status.error);
  });
}

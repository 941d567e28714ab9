import { TokenCache } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { isArcGISRequestError } from "../errors";
import { endsTheWait, permanentReason } from "../readiness";
import { pause } from "../retry";
import { createAdminSession } from "../session";
import { listMachines } from "./listMachines";
import { siteStatus } from "./siteStatus";
import { NotYet, pollUntil, type WaitOptions } from "./wait";

/** What {@link waitForJoin} looks at. */
export interface WaitForJoinTarget extends TransportOptions {
  /** Administrative root of the joining machine. */
  adminUrl: string;
  /** Administrative root of a machine of the site. */
  siteAdminUrl: string;
  /** The joining machine's name, as the site's machine list names it. */
  machineName: string;
  /** An administrator of the site. */
  username: string;
  /** Its password; a secret. */
  password: string;
  /** joinSite's `pollAfter`: the first look comes after this many seconds (within the deadline). */
  pollAfterSeconds?: number | undefined;
}

/**
 * Whether a machine list names `machineName` (names compare without regard to case).
 *
 * @internal
 */
export function listsMachine(machines: readonly string[], machineName: string): boolean {
  const wanted = machineName.toLowerCase();
  return machines.some((m) => m.toLowerCase() === wanted);
}

/**
 * Waits until a machine has joined a site: first for joinSite's `pollAfter` (as DSC `Join-Site`
 * does), then until the machine's unauthenticated admin root answers 499 (it is in a site) and
 * the site's machine list names it. Used after a joinSite answer and after a lost one (a proxy's
 * 502 while the join goes on): watching, never sending joinSite again.
 *
 * @param target - both admin URLs, the machine's name, the site's credentials, transport.
 * @param wait - deadline, polling interval, status callback.
 * @returns the site's machine names.
 * @example
 * ```ts
 * await waitForJoin({ adminUrl, siteAdminUrl, machineName: "B.EXAMPLE.COM", username, password, pollAfterSeconds: 5 }, { deadline: Date.now() + 600_000, pollIntervalMs: 2_000 });
 * ```
 * Maps to: `GET {machine admin root}/?f=json` and `GET {site admin root}/machines?f=json`,
 * repeatedly.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/joinsite (what is awaited) and
 * https://developers.arcgis.com/rest/enterprise-administration/server/machines.htm (what is polled).
 */
export async function waitForJoin(target: WaitForJoinTarget, wait: WaitOptions): Promise<string[]> {
  const startedAt = Date.now();
  const {
    adminUrl,
    siteAdminUrl,
    machineName,
    username,
    password,
    pollAfterSeconds,
    ...transport
  } = target;
  const tokenCache = new TokenCache();
  if (pollAfterSeconds !== undefined && pollAfterSeconds > 0) {
    const ms = Math.min(pollAfterSeconds * 1000, Math.max(0, wait.deadline - Date.now()));
    wait.onStatus?.({
      state: "poll-after",
      detail: `the server asked to look again after ${pollAfterSeconds} s`,
      elapsedMs: 0,
    });
    await pause(ms, wait.signal);
  }
  const subject = {
    operation: "waitForJoin",
    url: adminUrl,
    startedAt,
    secrets: [password],
    timedOut: (last: NotYet) => ({
      detail: `the machine had not joined the site by the deadline; last state: ${last.detail}`,
      messages: [`last state: ${last.detail}`],
    }),
  };
  return pollUntil(subject, wait, async (timeouts) => {
    const look = { ...transport, timeouts };
    const status = await siteStatus(adminUrl, look);
    if (status.state === "in-site") {
      let machines: string[];
      try {
        const session = createAdminSession({
          adminUrl: siteAdminUrl,
          username,
          password,
          tokenCache,
          ...look,
        });
        machines = await listMachines(session);
      } catch (e) {
        if (!isArcGISRequestError(e)) throw e;
        // The site refusing its own credentials (or any other final failure) is not waited out.
        if (permanentReason(e) !== undefined) throw e;
        const detail = `the machine is in a site; its machine list cannot be read: ${e.message}`;
        throw new NotYet("site-unreadable", detail);
      }
      if (listsMachine(machines, machineName)) return machines;
      const detail = `the machine is in a site, but the site lists ${machines.join(", ") || "no machine"}, not '${machineName}'`;
      throw new NotYet("not-listed", detail);
    }
    if (status.state === "no-site") {
      const detail = `the machine answers ${status.serverCode ?? "an error"}: ${status.message}`;
      throw new NotYet("no-site", detail);
    }
    const final = await endsTheWait(adminUrl, status.error, look);
    if (final !== undefined) throw final;
    throw new NotYet("unreachable", `not answering (${status.error.message})`);
  });
}

import { withoutTrailingSlash } from "../../url";
import type { TransportOptions } from "../dispatcher";
import { isTransientError } from "../errors";
import { requestError } from "../response";
import { readUpgradeStatus, type UpgradeStatus } from "./getUpgradeStatus";
import { NotYet, pollUntil, type WaitOptions } from "./wait";

/**
 * Waits until an upgrade that was started ends: polls `GET upgrade` while it runs (`upgradeStatus`
 * "In Progress", code 403 "Upgrade in progress.") or is still reported as required (a request
 * that may not have reached the server yet), until the server reports it done (`Success`, or code
 * 404: no upgrade is due any more). A failed attempt (LAST_ATTEMPT_FAILED) ends the wait with an
 * error carrying the server's messages. Not answering is no verdict: the server restarts while it
 * upgrades. Sends no upgrade itself: it is how {@link completeUpgrade} follows an asynchronous
 * upgrade, and how a caller settles a lost answer without sending the upgrade twice.
 *
 * @param adminUrl - administrative root, e.g. `https://host:6443/arcgis/admin`.
 * @param wait - deadline, poll interval, status callback.
 * @param transport - TLS options, signal.
 * @param query - more query parameters of each read (Chef's asynchronous poll asks `runAsync=true`).
 * @returns the status the last read found (`completed` or `not-required`).
 * @example
 * ```ts
 * await waitForUpgrade(adminUrl, { deadline: Date.now() + 3_600_000, pollIntervalMs: 10_000 }, { tls: { caCert } });
 * ```
 * Maps to: `GET {admin_root}/upgrade?f=json`, repeatedly.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/upgrade
 */
export async function waitForUpgrade(
  adminUrl: string,
  wait: WaitOptions,
  transport: TransportOptions = {},
  query: Record<string, unknown> = {},
): Promise<UpgradeStatus> {
  const root = withoutTrailingSlash(adminUrl);
  const url = `${root}/upgrade`;
  const ctx = { operation: "upgrade", url };
  return pollUntil(
    {
      operation: "upgrade",
      url,
      timedOut: (last) => ({
        detail: `the upgrade did not end before the deadline; last seen: ${last.detail} It may still be running: read getUpgradeStatus, and never start it again while it runs.`,
        messages: [last.detail],
      }),
    },
    wait,
    async (timeouts) => {
      let status: UpgradeStatus;
      try {
        status = await readUpgradeStatus(root, { ...transport, timeouts }, false, query);
      } catch (error) {
        // The server restarts its services while it upgrades: not answering is no verdict.
        if (isTransientError(error)) {
          throw new NotYet(
            "unreachable",
            "the server is not answering (it restarts while it upgrades).",
            error,
          );
        }
        throw error;
      }
      if (status.state === "completed" || status.state === "not-required") return status;
      if (status.state === "last-attempt-failed") {
        throw requestError(
          ctx,
          "SERVER",
          `the upgrade failed (upgradeStatus ${status.upgradeStatus ?? "LAST_ATTEMPT_FAILED"}): ` +
            `${status.messages?.join(" ") ?? "the server gave no reason."}`,
          { messages: status.messages ?? [] },
        );
      }
      throw new NotYet(
        status.state,
        status.state === "in-progress"
          ? `the upgrade runs (upgradeStatus ${status.upgradeStatus ?? "in progress"}).`
          : "the server still reports the upgrade as required.",
      );
    },
  );
}

import type { TransportOptions } from "../dispatcher";
import { ArcGISRequestError } from "../errors";
import { pause } from "../retry";
import { siteStatus, type SiteStatus } from "./siteStatus";

/**
 * How a wait is run, in the shape of arcgis-rest-js `Job`: a deadline, a polling interval, and a
 * status callback the caller subscribes to (e.g. to report progress).
 */
export interface WaitOptions {
  /** Epoch ms by which the wait must end. */
  deadline: number;
  /** Time between two looks at the machine, in ms. */
  pollIntervalMs: number;
  /** Told what each look found. */
  onStatus?: ((status: WaitStatus) => void) | undefined;
  /** Ends the wait early. */
  signal?: AbortSignal | undefined;
}

/** What one look at the machine found. */
export interface WaitStatus {
  /** Short machine-readable state, e.g. `unreachable`, `no-site`, `in-site`, `unhealthy`. */
  state: string;
  /** What was seen, for people. */
  detail: string;
  /** Milliseconds since the wait started. */
  elapsedMs: number;
}

/**
 * Waits until the machine behind `adminUrl` answers its admin root with something that says
 * whether it is in a site (a fresh install can take minutes to answer). A TLS failure ends the
 * wait at once: waiting will not fix it.
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
 */
export async function waitForServer(
  adminUrl: string,
  transport: TransportOptions,
  wait: WaitOptions,
): Promise<Exclude<SiteStatus, { state: "unreachable" }>> {
  const started = Date.now();
  for (;;) {
    // A server that accepts connections but never answers (a half-started install) must not
    // hold one look past the deadline.
    const left = Math.max(1_000, wait.deadline - Date.now());
    const status = await siteStatus(adminUrl, {
      ...transport,
      timeouts: { connectMs: Math.min(10_000, left), headersMs: Math.min(30_000, left) },
    });
    if (status.state !== "unreachable") return status;
    // Waiting does not change a certificate or a redirect (never followed): say so at once.
    if (["TLS", "REDIRECT", "ABORTED"].includes(status.error.code)) throw status.error;
    const detail = `not answering yet (${status.error.message})`;
    wait.onStatus?.({ state: "unreachable", detail, elapsedMs: Date.now() - started });
    if (Date.now() >= wait.deadline) {
      throw new ArcGISRequestError({
        code: "TIMEOUT",
        operation: "waitForServer",
        url: adminUrl,
        detail: `the server did not answer by the deadline: ${detail}`,
        messages: [detail],
        cause: status.error,
      });
    }
    await pause(
      Math.min(wait.pollIntervalMs, Math.max(0, wait.deadline - Date.now())),
      wait.signal,
    );
  }
}

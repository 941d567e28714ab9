/**
 * The waits of a `Site` on its server: how often it looks, and the wait for a site to be ready,
 * with a progress line and a message that says what to check when the time limit ends (the wait
 * for a fresh install to answer is the one SiteMachine shares, in common/connection/admin.ts).
 */
import { isArcGISRequestError, serverProduct, serverRootOf, waitForSite } from "../../client";
import { ProgressReporter } from "../common/messages/progress";
import type { SiteServer } from "./server";
import { endSentence } from "../../sentence";
import type { SiteInputs } from "./generated";

/**
 * How often the provider looks at a server. Tests shorten it with `withTiming()` (site.ts);
 * a stack always runs with {@link DEFAULT_SITE_TIMING}.
 *
 * @internal
 */
export interface SiteTiming {
  /**
   * Between two looks at a machine while a site is being created: short, so that a completion is
   * noticed within one interval (plus the readiness round trips), yet long enough to keep the
   * status requests within bench figure 3's bound (Esri's own tools poll every 5 to 10 s).
   */
  pollIntervalMs: number;
  /** Between two looks at a machine that does not answer yet (a fresh install). */
  serverPollIntervalMs: number;
  /**
   * How often a wait for createNewSite's answer checks whether a progress line is due; the
   * reporter itself writes at most one line every 15 s.
   */
  progressIntervalMs: number;
  /** First delay before deleteSite is sent again while an export holds the site; doubled. */
  deleteRetryBaseMs: number;
  /** Largest such delay. */
  deleteRetryMaxMs: number;
}

/**
 * The timing every stack runs with.
 *
 * @internal
 */
export const DEFAULT_SITE_TIMING: Readonly<SiteTiming> = {
  pollIntervalMs: 700,
  serverPollIntervalMs: 1_000,
  progressIntervalMs: 1_000,
  deleteRetryBaseMs: 1_000,
  deleteRetryMaxMs: 15_000,
};

/** Where a user can look to see whether a site exists, for messages. */
function whereToCheck(inputs: SiteInputs): string {
  const product = serverProduct(inputs.serverType);
  return (
    `the health check ${serverRootOf(inputs.adminUrl)}/${product.healthCheckPath}?f=json ` +
    `answers success true once the site is ready, and ${inputs.adminUrl}/?f=json answers ` +
    "code 499 (token required) once a site exists"
  );
}

/**
 * Waits until the site is ready (documented signals only, see waitForSite), bounded by
 * createMs. After a lost answer the message says what the user can check and when a retry is
 * safe, never to simply run again: the first createNewSite may still be running.
 */
export async function siteReady(
  server: SiteServer,
  deadline: number,
  lost: string | undefined,
  timing: SiteTiming,
) {
  const { inputs } = server;
  const progress = new ProgressReporter(
    `site creation on ${inputs.adminUrl}`,
    inputs.timeouts.createMs,
  );
  try {
    await waitForSite(
      {
        adminUrl: inputs.adminUrl,
        serverType: inputs.serverType,
        username: inputs.username,
        password: inputs.password,
        tokenCache: server.tokenCache,
        ...server.transport,
      },
      {
        deadline,
        pollIntervalMs: timing.pollIntervalMs,
        onStatus: (s) => progress.tick(s.detail),
      },
    );
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    const what =
      lost === undefined
        ? "The site did not become ready"
        : `The answer to createNewSite was lost (${lost}), and no ready site appeared`;
    throw new Error(
      `${what} on ${inputs.adminUrl} within timeouts.createMs (${inputs.timeouts.createMs} ms); ` +
        `${endSentence(error.messages.join(" ") || error.message)} The server may still be creating the ` +
        "site: do not run `pulumi up` " +
        `again before checking: ${whereToCheck(inputs)}. Once a site exists, set ` +
        "adoptExisting: true to take it over. Run again without it only when the machine is " +
        "still in no site after the server's own creation could have ended (raise " +
        "timeouts.createMs for slow creations).",
      { cause: error },
    );
  }
}

import type { TransportOptions } from "../dispatcher";
import { isArcGISRequestError } from "../errors";
import type { ServerType } from "../products";
import { arcgisRequest } from "../request";
import { permanentReason, endsTheWait } from "../readiness";
import { createAdminSession } from "../session";
import { TokenCache } from "../auth";
import { healthCheck } from "./healthCheck";
import { siteStatus } from "./siteStatus";
import { NotYet, pollUntil, type WaitOptions } from "./wait";
import { withoutTrailingSlash } from "../../url";

/** What {@link waitForSite} looks at. */
export interface WaitForSiteTarget extends TransportOptions {
  /** Administrative root. */
  adminUrl: string;
  /** The product (health check path). */
  serverType: ServerType;
  /** The site's administrator. */
  username: string;
  /** Its password; a secret. */
  password: string;
  /**
   * Where the token obtained while waiting is kept; default a new cache for this wait. A caller
   * that reads the site next passes the cache its own session uses, so that the token obtained
   * here serves those reads too (one generateToken, not two). It must not hold tokens from before
   * the site existed.
   */
  tokenCache?: TokenCache | undefined;
}

/**
 * Waits until a site is ready, from documented signals only: the unauthenticated admin root
 * answers 499 (Esri's tools' "site exists"), an admin token can be obtained with the site's
 * credentials (DSC's "site exists"), and the product's health check answers healthy; where the
 * health check answers 404 (an older release), an authenticated read of the admin root stands in
 * for it. No progress or failure text of the server is interpreted: none is documented.
 *
 * @param target - admin URL, product, credentials, TLS options and dispatcher.
 * @param wait - deadline, polling interval, status callback.
 * @example
 * ```ts
 * await waitForSite({ adminUrl, serverType: "mission-server", username, password }, { deadline: Date.now() + 3_600_000, pollIntervalMs: 700 });
 * ```
 * Maps to: `GET {admin_root}/?f=json`, `POST {admin_root}/generateToken` and the health check,
 * repeatedly.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/createsite (what is awaited),
 * https://developers.arcgis.com/rest/enterprise-administration/server/generatetoken and
 * https://developers.arcgis.com/rest/services-reference/enterprise/health-check.htm (what is polled).
 */
export async function waitForSite(target: WaitForSiteTarget, wait: WaitOptions): Promise<void> {
  const { adminUrl, serverType, username, password, tokenCache: given, ...transport } = target;
  // A fresh cache per wait unless given: a token cached before the site existed must not stand
  // for it.
  const tokenCache = given ?? new TokenCache();
  const subject = {
    operation: "waitForSite",
    url: adminUrl,
    secrets: [password],
    timedOut: (last: NotYet) => ({
      detail: `the site was not ready by the deadline; last state: ${last.detail}`,
      messages: [`last state: ${last.detail}`],
    }),
  };
  await pollUntil(subject, wait, async (timeouts) => {
    const look = { ...transport, timeouts };
    const status = await siteStatus(adminUrl, look);
    if (status.state === "in-site") {
      const ready = await siteReady(adminUrl, serverType, username, password, look, tokenCache);
      if (ready === true) return;
      throw new NotYet("unhealthy", `the site exists; ${ready}`);
    }
    if (status.state === "no-site") {
      const detail = `the admin root answers ${status.serverCode ?? "an error"}: ${status.message}`;
      throw new NotYet("no-site", detail);
    }
    const final = await endsTheWait(adminUrl, status.error, look);
    if (final !== undefined) throw final;
    throw new NotYet("unreachable", `not answering (${status.error.message})`);
  });
}

/** True when ready; otherwise what is missing. */
async function siteReady(
  adminUrl: string,
  serverType: ServerType,
  username: string,
  password: string,
  transport: TransportOptions,
  tokenCache: TokenCache,
): Promise<true | string> {
  const session = createAdminSession({ adminUrl, username, password, tokenCache, ...transport });
  try {
    const token = await session.token();
    const health = await healthCheck(adminUrl, { ...transport, serverType, token });
    if (health.state === "healthy") return true;
    if (health.state === "absent") {
      await session.withToken((t) =>
        arcgisRequest({
          ...transport,
          url: `${withoutTrailingSlash(adminUrl)}/`,
          operation: "admin root",
          method: "GET",
          token: t,
          referer: session.referer,
          secrets: [password],
        }),
      );
      return true;
    }
    return `the health check says not ready (${health.error?.message ?? JSON.stringify(health.raw)})`;
  } catch (e) {
    if (!isArcGISRequestError(e)) throw e;
    // A refused generateToken is not final here: a site being created refuses its credentials
    // until it exists (DSC's own "site exists" test is a generateToken that succeeds).
    const reason = permanentReason(e);
    if (reason !== undefined && reason !== "credentials") throw e;
    return `not ready: ${e.message}`;
  }
}

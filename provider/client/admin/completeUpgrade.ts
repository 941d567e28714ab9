import { z } from "zod";
import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { serverProduct, type ServerType } from "../products";
import { arcgisRequest } from "../request";
import { requestError, validateAnswer } from "../response";
import type { UpgradeStatus } from "./getUpgradeStatus";
import type { WaitOptions } from "./wait";
import { waitForUpgrade } from "./waitForUpgrade";
import { withoutTrailingSlash } from "../../url";

/** The first ArcGIS Server release whose `upgrade` runs asynchronously (Chef: "Async upgrades are supported starting from ArcGIS Server 11.4"). */
const ASYNC_UPGRADE_SINCE = 11.4;

/** Parameters of {@link completeUpgrade}. */
export interface CompleteUpgradeParams {
  /** The product; only ArcGIS Server runs an upgrade asynchronously. */
  serverType: ServerType;
  /**
   * Run it asynchronously and poll until it ends (ArcGIS Server 11.4 and later only; see
   * {@link upgradeRunsAsync}). Default false: the request is held until the upgrade is done.
   */
  runAsync?: boolean | undefined;
  /** The server's version (`serverInfo`'s `currentVersion`, the new software's), needed with `runAsync`. */
  serverVersion?: number | undefined;
  /** How to wait for an asynchronous upgrade: deadline, poll interval, status callback. Required with `runAsync`. */
  wait?: WaitOptions | undefined;
}

/** What {@link completeUpgrade} did. */
export interface CompletedUpgrade {
  /** `sync`: one request held until done; `async`: started, then polled until done. */
  mode: "sync" | "async";
  /** The status the last poll read (async only), e.g. `Success`. */
  lastStatus?: UpgradeStatus | undefined;
}

/**
 * Whether a server runs `upgrade` asynchronously (`runAsync=true`, then polled): ArcGIS Server
 * 11.4 and later (Chef's `:create_site` and `:join_site` switch there; DSC's ArcGIS_ServerUpgrade
 * always asks). Mission, Notebook and Video Server's tools upgrade synchronously only.
 *
 * @param serverType - the product.
 * @param serverVersion - its version, e.g. 11.4.
 * @returns whether `runAsync` may be asked.
 * @example
 * ```ts
 * upgradeRunsAsync("arcgis-server", 11.4) // true
 * ```
 * A lookup; sends no request.
 */
export function upgradeRunsAsync(serverType: ServerType, serverVersion: number): boolean {
  return serverProduct(serverType).dialect === "classic" && serverVersion >= ASYNC_UPGRADE_SINCE;
}

/**
 * Completes the upgrade of a site whose software was upgraded in place ({@link getUpgradeStatus}
 * says `required`): synchronously by default (the request is held until the site is upgraded, as
 * Chef up to 11.3 and on Mission, Notebook and Video Server, and DSC's ArcGIS_MissionServerUpgrade
 * send it: give `timeouts.headersMs` the upgrade's whole bound), or with `runAsync` on ArcGIS
 * Server 11.4 and later, then polled (`GET upgrade`) until it ends, as Chef's
 * `complete_upgrade_async` and DSC's ArcGIS_ServerUpgrade do. No token. **Never retried**, like
 * createNewSite: a lost answer (a timeout, a proxy's 502, a cut connection) must not become a
 * second upgrade; read {@link getUpgradeStatus} instead (`in-progress`, then `not-required`).
 * `runAsync` where the server has no asynchronous form is refused before anything is sent.
 *
 * @param adminUrl - administrative root, e.g. `https://host:6443/arcgis/admin`.
 * @param params - product, `runAsync`, the server's version and the wait (with `runAsync`).
 * @param transport - TLS options, timeouts (a synchronous upgrade holds the request: give
 *   headersMs its whole bound), signal.
 * @returns how it ran, and the last status an asynchronous run was polled to.
 * @example
 * ```ts
 * await completeUpgrade(adminUrl, { serverType: "mission-server" }, { timeouts: { headersMs: 3_600_000 } });
 * await completeUpgrade(adminUrl, { serverType: "arcgis-server", serverVersion: 11.4, runAsync: true,
 *   wait: { deadline: Date.now() + 3_600_000, pollIntervalMs: 10_000 } });
 * ```
 * Maps to: `POST {admin_root}/upgrade` with `f=json` (and `runAsync=true`, `enableDebug=false`),
 * then `GET {admin_root}/upgrade?runAsync=true&f=json` while it runs.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/upgrade
 */
export async function completeUpgrade(
  adminUrl: string,
  params: CompleteUpgradeParams,
  transport: TransportOptions = {},
): Promise<CompletedUpgrade> {
  const url = `${withoutTrailingSlash(adminUrl)}/upgrade`;
  const ctx = { operation: "upgrade", url };
  const runAsync = params.runAsync ?? false;
  if (runAsync) refuseAsync(params, ctx);
  const body = await arcgisRequest({
    ...transport,
    url,
    operation: "upgrade",
    params: runAsync ? { runAsync: true, enableDebug: false } : {},
    referer: DEFAULT_REFERER,
    retry: false,
  });
  if (!runAsync) {
    const answer = validateAnswer(z.looseObject({ status: z.string() }), body, ctx);
    if (answer.status.toLowerCase() !== "success") {
      throw requestError(ctx, "SERVER", `the upgrade answered status '${answer.status}'.`);
    }
    return { mode: "sync" };
  }
  const lastStatus = await waitForUpgrade(adminUrl, params.wait!, transport, { runAsync: true });
  return { mode: "async", lastStatus };
}

/** `runAsync` is asked only where the server has it, and only with a wait to poll with. */
function refuseAsync(params: CompleteUpgradeParams, ctx: { operation: string; url: string }): void {
  const product = serverProduct(params.serverType);
  let why: string | undefined;
  if (product.dialect !== "classic") {
    why = `${product.label} upgrades synchronously only (its tools send no runAsync)`;
  } else if (params.serverVersion === undefined) {
    why =
      "runAsync needs the server's version (serverInfo's currentVersion) to tell that it is 11.4 or later";
  } else if (!upgradeRunsAsync(params.serverType, params.serverVersion)) {
    why = `ArcGIS Server ${params.serverVersion} has no asynchronous upgrade (from ${ASYNC_UPGRADE_SINCE})`;
  } else if (params.wait === undefined) {
    why = "runAsync needs wait (a deadline and a poll interval) to poll the upgrade";
  }
  if (why !== undefined) {
    throw requestError(
      ctx,
      "BAD_INPUT",
      `${why}; nothing was sent. Leave runAsync unset to upgrade synchronously.`,
    );
  }
}

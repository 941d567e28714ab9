/**
 * What a look at a server means for a wait, decided here for every wait and every resource: a
 * server that is not answering yet (refused, reset, timed out, 502/503/504 while it starts) is
 * waited for; anything waiting cannot fix ({@link PermanentReason}) ends the wait at once.
 */
import { DEFAULT_REFERER } from "./auth";
import type { TransportOptions } from "./dispatcher";
import {
  ArcGISRequestError,
  isArcGISRequestError,
  type ErrorFormat,
  type PermanentReason,
} from "./errors";
import { serverProduct, serverRootOf, type ServerType } from "./products";
import { arcgisRequest } from "./request";
import { healthCheck, type HealthCheckResult } from "./admin/healthCheck";
import { serverInfo } from "./admin/serverInfo";
import { withoutTrailingSlash } from "../url";

/**
 * Why waiting cannot fix a failure, or undefined when it may go away on its own. The one
 * classification: errors made knowing their reason carry it (`permanent`); the rest is read from
 * what the server answered.
 *
 * @param error - any thrown value.
 * @returns the reason, or undefined.
 * @example
 * ```ts
 * if (permanentReason(e) === "not-found") console.log("check the URL's path");
 * ```
 * Sends no request: it reads a failure.
 */
export function permanentReason(error: unknown): PermanentReason | undefined {
  if (!isArcGISRequestError(error)) return undefined;
  if (error.permanent !== undefined) return error.permanent;
  if (error.code === "ABORTED") return "aborted";
  if (error.code === "REDIRECT") return "redirect";
  if (error.httpStatus === 404) return "not-found";
  // generateToken's own refusal, answered as ArcGIS answers errors (HTTP 200): the username and
  // password. Not an HTTP status of a proxy in front of a starting server.
  if (error.code === "AUTH" && error.operation === "generateToken" && error.httpStatus === 200) {
    return "credentials";
  }
  return undefined;
}

/**
 * What a wait does with a look whose answer was no answer (`siteStatus` found the admin root
 * unreachable): undefined to look again, or the error that ends the wait now. A 404 at an admin
 * root is checked for a portal answering there.
 *
 * @param adminUrl - the administrative root the wait watches.
 * @param error - what the look failed with.
 * @param transport - the look's transport, for the probe after a 404.
 * @returns the error to throw, or undefined to look again.
 * @example
 * ```ts
 * const final = await endsTheWait(adminUrl, status.error, transport);
 * if (final) throw final;
 * ```
 * Maps to: `GET {server_root}/sharing/rest/info?f=json` after a 404.
 *
 * @internal
 */
export async function endsTheWait(
  adminUrl: string,
  error: ArcGISRequestError,
  transport: TransportOptions,
): Promise<ArcGISRequestError | undefined> {
  const reason = permanentReason(error);
  if (reason === "not-found") return (await portalAt(adminUrl, error, transport)) ?? error;
  return reason === undefined ? undefined : error;
}

/**
 * After a 404 at `adminUrl`: when a portal's sharing API answers beside it
 * (`{server_root}/sharing/rest/info`, as on a portal's own `/arcgis` or web adaptor's path), the
 * error says so. A portal is not a server: waiting will not make one appear there.
 */
async function portalAt(
  adminUrl: string,
  notFound: ArcGISRequestError,
  transport: TransportOptions,
): Promise<ArcGISRequestError | undefined> {
  const root = serverRootOf(adminUrl);
  if (root === withoutTrailingSlash(adminUrl)) return undefined;
  const sharing = `${root}/sharing/rest`;
  try {
    const info = await arcgisRequest({
      ...transport,
      url: `${sharing}/info`,
      operation: "sharing info",
      method: "GET",
      referer: DEFAULT_REFERER,
    });
    if (!("authInfo" in info) && !("owningSystemUrl" in info)) return undefined;
  } catch {
    return undefined;
  }
  return new ArcGISRequestError({
    code: "BAD_RESPONSE",
    operation: notFound.operation,
    url: notFound.url,
    detail:
      `a portal answers there (its sharing API is ${sharing}), not a server: nothing answers ` +
      "at this administrative root (HTTP 404).",
    httpStatus: notFound.httpStatus,
    cause: notFound,
    permanent: "wrong-product",
  });
}

/** What the admin root answered, for {@link productMismatch}. */
export interface AdminRootAnswer {
  /** The error format of its answer, when it answered one. */
  errorFormat?: ErrorFormat | undefined;
}

/**
 * Reads what {@link productMismatch} needs beyond the admin root's answer: Mission Server's
 * health check (`rest/healthcheck`, its documented path from 10.8, its first release with
 * createNewSite; Notebook and Video Server answer 404 there), after the admin root answered, on
 * its connection. Never rejects: undefined when nothing answered.
 *
 * Maps to: `GET {server_root}/rest/healthcheck?f=json` (Mission Server only).
 *
 * REST Documentation: https://developers.arcgis.com/rest/services-reference/mission/site-health-check
 */
function productEvidence(
  adminUrl: string,
  serverType: ServerType,
  transport: TransportOptions,
): Promise<HealthCheckResult | undefined> {
  if (serverType !== "mission-server") return Promise.resolve(undefined);
  return healthCheck(adminUrl, { ...transport, serverType }).catch(() => undefined);
}

/**
 * Checks that the server answering at `adminUrl` is the product `serverType` declares, from what
 * it answers without a token: its admin root's error format (ArcGIS Server's `status` format, or
 * the `error` format of Mission, Notebook and Video Server), and, for Mission Server, its health
 * check ({@link productEvidence}). A Mission Server older than its health check (rest/info says
 * so) is left to the version check, which names the version.
 *
 * @param adminUrl - the administrative root.
 * @param serverType - the declared product.
 * @param answer - what its admin root answered (see `siteStatus`).
 * @param transport - TLS options, timeouts and dispatcher.
 * @returns an error (`permanent: "wrong-product"`) when another product answers, else undefined.
 * @example
 * ```ts
 * const mismatch = await productMismatch(adminUrl, "mission-server", status, transport);
 * if (mismatch) throw mismatch;
 * ```
 * Maps to: `GET {server_root}/rest/healthcheck?f=json` (Mission Server), and
 * `GET {server_root}/rest/info?f=json` when it answers 404.
 *
 * REST Documentation: https://developers.arcgis.com/rest/services-reference/mission/site-health-check
 *
 * @internal
 */
export async function productMismatch(
  adminUrl: string,
  serverType: ServerType,
  answer: AdminRootAnswer,
  transport: TransportOptions,
): Promise<ArcGISRequestError | undefined> {
  const product = serverProduct(serverType);
  const mismatch = (detail: string) =>
    new ArcGISRequestError({
      code: "BAD_RESPONSE",
      operation: "siteStatus",
      url: adminUrl,
      detail,
      permanent: "wrong-product",
    });
  if (answer.errorFormat !== undefined) {
    const expected = product.dialect === "classic" ? "status" : "error";
    if (answer.errorFormat !== expected) {
      const seen =
        answer.errorFormat === "status"
          ? 'ArcGIS Server\'s format ({"status":"error",...})'
          : 'the format of Mission, Notebook and Video Server ({"error":{...}})';
      const hint =
        answer.errorFormat === "status"
          ? 'set serverType: "arcgis-server"'
          : 'set serverType to "mission-server", "notebook-server" or "video-server"';
      return mismatch(
        `the server answers its admin root in ${seen}, but serverType is "${serverType}" ` +
          `(${product.label}). If this is the right server, ${hint}; if a web adaptor or proxy ` +
          "answers for it, check that it reaches the server.",
      );
    }
  }
  const health = await productEvidence(adminUrl, serverType, transport);
  if (health?.state !== "absent") return undefined;
  const info = await serverInfo(adminUrl, transport).catch(() => undefined);
  if (info !== undefined && info.currentVersion < MISSION_HEALTH_CHECK_SINCE) return undefined;
  return mismatch(
    `it has no Mission Server health check (${serverRootOf(adminUrl)}/` +
      `${product.healthCheckPath} answers 404; every Mission Server from ` +
      `${MISSION_HEALTH_CHECK_SINCE} has it), so another product answers there, e.g. a Notebook ` +
      "or Video Server. Set serverType to the server's product, or check that adminUrl is the " +
      "Mission Server's.",
  );
}

/** Mission Server's documented health check exists from this version. */
const MISSION_HEALTH_CHECK_SINCE = 10.8;

import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { isArcGISRequestError } from "../errors";
import { arcgisRequest } from "../request";
import { requestError } from "../response";
import type { RetryPolicy } from "../retry";
import { withoutTrailingSlash } from "../../url";

/**
 * Where a site stands with its upgrade:
 * - `required`: the software was upgraded and the site waits for {@link completeUpgrade};
 * - `last-attempt-failed`: an upgrade ran and did not complete; it is required again;
 * - `in-progress`: an upgrade runs;
 * - `completed`: an asynchronous upgrade ended well (ArcGIS Server reports it until restarted);
 * - `not-required`: no upgrade is due (the server answers code 404 at `upgrade`).
 */
export type UpgradeState =
  "required" | "last-attempt-failed" | "in-progress" | "completed" | "not-required";

/** What {@link getUpgradeStatus} found. */
export interface UpgradeStatus {
  /** Where the site stands. */
  state: UpgradeState;
  /** Whether {@link completeUpgrade} must run: `required` or `last-attempt-failed`. */
  required: boolean;
  /** The field that said so: `upgradeStatus` (ArcGIS Server), `isUpgrade` (Mission, Notebook, Video Server), or none (a 404, a 403 "Upgrade in progress."). */
  field?: "upgradeStatus" | "isUpgrade" | undefined;
  /** ArcGIS Server's `upgradeStatus` as it came, e.g. `UPGRADE_REQUIRED`, `In Progress`, `Success`. */
  upgradeStatus?: string | undefined;
  /** e.g. `11.1.0` (ArcGIS Server). */
  upgradeFromVersion?: string | undefined;
  /** e.g. `11.3.0` (ArcGIS Server). */
  upgradeToVersion?: string | undefined;
  /** The server's messages, when it gave some (a failed attempt says why). */
  messages?: string[] | undefined;
}

const REQUIRED = new Set(["UPGRADE_REQUIRED"]);
const FAILED = new Set(["LAST_ATTEMPT_FAILED"]);
const RUNNING = new Set(["IN_PROGRESS", "IN PROGRESS"]);
const SUCCEEDED = new Set(["SUCCESS", "SUCCESS WITH WARNINGS"]);

/**
 * Reads whether the site must be upgraded through the admin API after its software was upgraded
 * in place. No token (none is issued while an upgrade is due; Chef and DSC send none). ArcGIS
 * Server answers `upgradeStatus` (UPGRADE_REQUIRED, LAST_ATTEMPT_FAILED, "In Progress", "Success"),
 * Mission, Notebook and Video Server `isUpgrade` (Chef's `upgrade_required?` reads both, DSC's
 * ArcGIS_ServerUpgrade and ArcGIS_MissionServerUpgrade one each); either is read. An ArcGIS
 * error with code 404 means no upgrade is due (the operation exists only while one is, Esri's
 * page; DSC reads it so), code 403 "Upgrade in progress." that one runs. An HTTP 404 without an
 * ArcGIS answer is an error (a wrong URL, not a finished upgrade). Retried on transient failures:
 * a read.
 *
 * @param adminUrl - administrative root, e.g. `https://host:6443/arcgis/admin`.
 * @param transport - TLS options, timeouts, signal, and the retry policy of the read (`retry`).
 * @returns where the site stands.
 * @example
 * ```ts
 * if ((await getUpgradeStatus(adminUrl, { tls: { caCert } })).required) await completeUpgrade(adminUrl, { serverType }, { tls: { caCert } });
 * ```
 * Maps to: `GET {admin_root}/upgrade?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/upgrade
 */
export async function getUpgradeStatus(
  adminUrl: string,
  transport: TransportOptions & { retry?: RetryPolicy | false | undefined } = {},
): Promise<UpgradeStatus> {
  const { retry, ...rest } = transport;
  return readUpgradeStatus(adminUrl, rest, retry ?? {}, {});
}

/**
 * The read behind {@link getUpgradeStatus}, with the query an asynchronous upgrade is polled with
 * (Chef's `complete_upgrade_async` asks `upgrade?runAsync=true`).
 *
 * @param adminUrl - administrative root.
 * @param transport - TLS options, timeouts, signal.
 * @param retry - the retry policy of the read.
 * @param query - more query parameters.
 * @returns where the site stands.
 * @example
 * ```ts
 * await readUpgradeStatus(adminUrl, transport, false, { runAsync: true })
 * ```
 * Maps to: `GET {admin_root}/upgrade?f=json`.
 *
 * @internal
 */
export async function readUpgradeStatus(
  adminUrl: string,
  transport: TransportOptions,
  retry: RetryPolicy | false,
  query: Record<string, unknown>,
): Promise<UpgradeStatus> {
  const url = `${withoutTrailingSlash(adminUrl)}/upgrade`;
  let body: Record<string, unknown>;
  try {
    body = await arcgisRequest({
      ...transport,
      url,
      operation: "upgrade",
      method: "GET",
      params: query,
      referer: DEFAULT_REFERER,
      retry,
    });
  } catch (error) {
    if (isArcGISRequestError(error) && error.errorFormat !== undefined) {
      if (error.serverCode === 404) return { state: "not-required", required: false };
      if (error.serverCode === 403 && error.messages.some((m) => /upgrade in progress/i.test(m))) {
        return { state: "in-progress", required: false, messages: error.messages };
      }
    }
    throw error;
  }
  const isUpgrade = body["isUpgrade"];
  const upgradeStatus = body["upgradeStatus"];
  const details = {
    upgradeFromVersion: stringOf(body["upgradeFromVersion"]),
    upgradeToVersion: stringOf(body["upgradeToVersion"]),
    messages: messagesOf(body["messages"]),
  };
  if (typeof upgradeStatus === "string") {
    const key = upgradeStatus.trim().toUpperCase();
    const state: UpgradeState | undefined = REQUIRED.has(key)
      ? "required"
      : FAILED.has(key)
        ? "last-attempt-failed"
        : RUNNING.has(key)
          ? "in-progress"
          : SUCCEEDED.has(key)
            ? "completed"
            : undefined;
    if (state !== undefined) {
      return {
        state,
        required: state === "required" || state === "last-attempt-failed",
        field: "upgradeStatus",
        upgradeStatus,
        ...details,
      };
    }
    throw requestError(
      { operation: "upgrade", url },
      "BAD_RESPONSE",
      `the server answered the upgradeStatus '${upgradeStatus}', which this client does not know ` +
        "(UPGRADE_REQUIRED, LAST_ATTEMPT_FAILED, In Progress, Success).",
    );
  }
  if (isUpgrade === true || isUpgrade === "true" || isUpgrade === false || isUpgrade === "false") {
    const required = isUpgrade === true || isUpgrade === "true";
    return {
      state: required ? "required" : "not-required",
      required,
      field: "isUpgrade",
      ...details,
    };
  }
  throw requestError(
    { operation: "upgrade", url },
    "BAD_RESPONSE",
    "unexpected answer (neither upgradeStatus nor isUpgrade)",
  );
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function messagesOf(value: unknown): string[] | undefined {
  const list = (Array.isArray(value) ? value : [value]).filter(
    (m): m is string => typeof m === "string" && m.trim() !== "",
  );
  return list.length === 0 ? undefined : list;
}

/**
 * How the resources on a server's administrative root talk to it: the admin session built from
 * their inputs, the test for "the site is held by an export or an import" and the retry while it
 * is, and the wait for a server to answer. Their inputs are in ../inputs/admin.ts.
 *
 * @internal
 */
import {
  type AdminSession,
  createAdminSession,
  hasServerCode,
  isArcGISRequestError,
  productMismatch,
  retryWhile,
  type ServerType,
  type TokenCache,
  type TransportOptions,
  waitForServer,
} from "../../../client";
import { currentRuntime } from "../inputs/sources";
import { logInfo } from "../messages/log";
import { formatDuration, ProgressReporter } from "../messages/progress";
import { cancelSignal } from "../pulumi/cancel";
import { type TlsFields, transportFor } from "./tls";
import { endSentence } from "../../../sentence";

/** The inputs an admin session is built from. */
export interface AdminTarget {
  adminUrl: string;
  username: string;
  password: string;
  tls?: TlsFields | undefined;
}

/**
 * The transport options of an administrative root: the resource's TLS settings, and `extra`.
 *
 * @internal
 */
export function adminTransport(
  target: Pick<AdminTarget, "adminUrl" | "tls">,
  extra: Omit<TransportOptions, "tls"> = {},
): TransportOptions {
  return transportFor(target.adminUrl, target.tls, extra);
}

/**
 * A session on an administrative root, with the resource's TLS settings: the one place a
 * resource builds an admin session. A step that worked out its transport already passes it (the
 * TLS warning is then given once), and a step that must not reuse tokens cached in the process
 * passes a cache of its own.
 *
 * @internal
 */
export function adminSessionFor(
  target: AdminTarget,
  options: { transport?: TransportOptions; tokenCache?: TokenCache | undefined } = {},
): AdminSession {
  return createAdminSession({
    adminUrl: target.adminUrl,
    username: target.username,
    password: target.password,
    tokenCache: options.tokenCache,
    ...(options.transport ?? adminTransport(target)),
  });
}

/** An answer that names an export, or another administrative change, in progress. */
const EXPORT_IN_PROGRESS = /being exported|another administrative operation|try again later/i;
/**
 * The same, or an import in progress. Not a bare "try again later": importSite and
 * logs/settings/edit must not be sent again on an answer that may come from a server that acted.
 */
const EXPORT_OR_IMPORT_IN_PROGRESS =
  /being exported|being imported|another administrative operation/i;

/**
 * True when the site is held by an export or another administrative change (code 409, or a
 * message saying so): the server did not act, try again later.
 *
 * @internal
 */
export function isHeldByExport(error: unknown): boolean {
  return isHeld(error, EXPORT_IN_PROGRESS);
}

/**
 * True when the site is held by an export, an import or another administrative change.
 *
 * @internal
 */
export function isHeldByExportOrImport(error: unknown): boolean {
  return isHeld(error, EXPORT_OR_IMPORT_IN_PROGRESS);
}

/**
 * Sends a change again while an export or import holds the site (the server refuses it then
 * without acting), until `timeoutMs` has passed, saying in Pulumi's log when it tries again.
 *
 * @param adminUrl - the site's administrative root, for the log.
 * @param doing - what is tried again, for the log, e.g. "changing its log settings".
 *
 * @internal
 */
export function retryWhileHeld<T>(
  adminUrl: string,
  timeoutMs: number,
  doing: string,
  change: () => Promise<T>,
): Promise<T> {
  return retryWhile(
    isHeldByExportOrImport,
    {
      deadline: Date.now() + timeoutMs,
      baseDelay: 500,
      maxDelay: 10_000,
      onRetry: (_e, delayMs) =>
        logInfo(
          `The site at ${adminUrl} is busy with an export or import; ${doing} again in ` +
            `${Math.round(delayMs)} ms.`,
        ),
    },
    change,
  );
}

function isHeld(error: unknown, message: RegExp): boolean {
  if (!isArcGISRequestError(error)) return false;
  if (hasServerCode(error, 409)) return true;
  return error.messages.some((m) => message.test(m));
}

/**
 * What the first message of the wait for a server says about stopping it: nothing has been sent.
 * The plugin's Cancel ends the wait at once; Pulumi's dynamic-provider host ignores Cancel, so a
 * TypeScript program's wait runs until `timeouts.serverReadyMs`, and a second Ctrl-C, which ends
 * the CLI at once (it releases the stack's lock), leaves a pending create that the refresh clears.
 */
function stopNote(serverReadyMs: number): string {
  if (currentRuntime() !== "program") {
    return "Nothing has been sent to it yet: Ctrl-C stops this wait at once.";
  }
  return (
    `Nothing has been sent to it yet. This wait lasts up to ${formatDuration(serverReadyMs)} ` +
    "(timeouts.serverReadyMs; set it lower to give up sooner). The first Ctrl-C does not stop " +
    "it (Pulumi's dynamic-provider host ignores cancel); pressing Ctrl-C twice stops `pulumi up` " +
    "at once and is safe while nothing has been sent: then run " +
    "`pulumi refresh --clear-pending-creates --yes` before the next `pulumi up` (it clears the " +
    "create the CLI leaves pending)."
  );
}

/**
 * Waits until the server's admin root answers at all (a fresh install can take minutes), bounded
 * by `timeouts.serverReadyMs`, with progress in Pulumi's log; a timeout says what to check. Only a
 * server that is not answering yet is waited for: what waiting cannot fix ends the wait at once
 * (client/readiness.ts), and so does another product than `serverType` answering. Its message
 * names the input to change (`whatToChange`, added where every lifecycle step ends).
 *
 * @internal
 */
export async function waitUntilAnswering(
  target: {
    adminUrl: string;
    serverType: ServerType;
    tls?: TlsFields | undefined;
    timeouts: { serverReadyMs: number };
  },
  pollIntervalMs: number,
) {
  const progress = new ProgressReporter(
    `${target.adminUrl} to answer`,
    target.timeouts.serverReadyMs,
    undefined,
    stopNote(target.timeouts.serverReadyMs),
  );
  // The plugin's Cancel ends the looks and the pauses between them: nothing is sent to change
  // anything until the server answers.
  const signal = cancelSignal();
  const transport = transportFor(
    target.adminUrl,
    target.tls,
    signal === undefined ? {} : { signal },
  );
  const probe = { ...transport, timeouts: { connectMs: 10_000, headersMs: 30_000 } };
  try {
    const status = await waitForServer(target.adminUrl, transport, {
      deadline: Date.now() + target.timeouts.serverReadyMs,
      pollIntervalMs,
      onStatus: (s) => progress.tick(s.detail),
      signal,
    });
    // Before anything is sent: createNewSite or joinSite in another product's dialect would be
    // refused or misread.
    const mismatch = await productMismatch(target.adminUrl, target.serverType, status, probe);
    if (mismatch !== undefined) {
      throw new Error(`${mismatch.message} Nothing was sent.`, { cause: mismatch });
    }
    return status;
  } catch (error) {
    if (signal?.aborted === true && isArcGISRequestError(error) && error.code === "ABORTED") {
      throw new Error(
        `Cancelled while waiting for ${target.adminUrl} to answer ` +
          `(${formatDuration(progress.elapsed())}): nothing was sent to it, and nothing was ` +
          "created. Run `pulumi up` again once the server answers (check that it is running " +
          "and that adminUrl is right).",
        { cause: error },
      );
    }
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    throw new Error(
      `${target.adminUrl} was not ready within timeouts.serverReadyMs ` +
        `(${target.timeouts.serverReadyMs} ms): ${endSentence(error.messages.join(" ") || error.message)} ` +
        "Check that the server is installed and running and that the URL is right, or raise " +
        "timeouts.serverReadyMs.",
      { cause: error },
    );
  }
}

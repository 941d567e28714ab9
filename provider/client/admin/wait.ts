import { ArcGISRequestError } from "../errors";
import { retryWhile } from "../retry";

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
 * What a look throws when it did not find what the wait is for: the wait looks again.
 *
 * @internal
 */
export class NotYet extends Error {
  /**
   * @param state - short machine-readable state, as {@link WaitStatus.state}.
   * @param detail - what was seen, for people.
   * @param seen - the failure that was seen, if any (the cause of the TIMEOUT at the deadline).
   */
  constructor(
    readonly state: string,
    readonly detail: string,
    readonly seen?: unknown,
  ) {
    super(detail);
  }
}

/**
 * What a wait is about, for the error that ends it at the deadline.
 *
 * @internal
 */
export interface PollSubject {
  /** The wait's name, e.g. `waitForSite`. */
  operation: string;
  /** The URL it watches. */
  url: string;
  /** Values to redact from the error. */
  secrets?: readonly string[] | undefined;
  /** When the wait started, for {@link WaitStatus.elapsedMs} (default: the first look). */
  startedAt?: number | undefined;
  /** The TIMEOUT's detail and messages, from the last look. */
  timedOut: (last: NotYet) => { detail: string; messages: string[] };
}

/**
 * The time limits of one look: whatever is left before the deadline (at least 1 s), at most
 * 10 s to connect and 30 s for the answer, so that a server that accepts connections but never
 * answers (a half-started install) cannot hold one look past the deadline.
 *
 * @internal
 */
export function lookTimeouts(deadline: number): { connectMs: number; headersMs: number } {
  const left = Math.max(1_000, deadline - Date.now());
  return { connectMs: Math.min(10_000, left), headersMs: Math.min(30_000, left) };
}

/**
 * The loop of every wait, on {@link retryWhile} without jitter: runs `look` every
 * `pollIntervalMs` while it throws {@link NotYet}, telling `onStatus` each time, until it returns
 * or the deadline passes (then a `TIMEOUT` that says what the last look saw). Anything else `look`
 * throws ends the wait as is.
 *
 * @param subject - the wait's name and URL, and the TIMEOUT's text.
 * @param wait - deadline, polling interval, status callback, signal.
 * @param look - one look; returns the result or throws {@link NotYet}.
 * @returns what `look` returned.
 * @example
 * ```ts
 * await pollUntil(subject, wait, async (timeouts) => { if (!(await ready(timeouts))) throw new NotYet("no-site", "…"); });
 * ```
 * Sends no request itself: `look` does; this is the polling loop every wait shares, on
 * `retryWhile`.
 *
 * @internal
 */
export async function pollUntil<T>(
  subject: PollSubject,
  wait: WaitOptions,
  look: (timeouts: { connectMs: number; headersMs: number }) => Promise<T>,
): Promise<T> {
  const started = subject.startedAt ?? Date.now();
  const options = {
    deadline: wait.deadline,
    baseDelay: wait.pollIntervalMs,
    maxDelay: wait.pollIntervalMs,
    jitter: false,
    signal: wait.signal,
  };
  try {
    return await retryWhile(
      (e) => e instanceof NotYet,
      options,
      async () => {
        try {
          return await look(lookTimeouts(wait.deadline));
        } catch (e) {
          if (e instanceof NotYet) {
            wait.onStatus?.({ state: e.state, detail: e.detail, elapsedMs: Date.now() - started });
          }
          throw e;
        }
      },
    );
  } catch (e) {
    if (!(e instanceof NotYet)) throw e;
    if (wait.signal?.aborted === true && Date.now() < wait.deadline) {
      throw new ArcGISRequestError({
        code: "ABORTED",
        operation: subject.operation,
        url: subject.url,
        detail: `the wait was aborted; last state: ${e.detail}`,
        messages: [`last state: ${e.detail}`],
        secrets: subject.secrets,
      });
    }
    const { detail, messages } = subject.timedOut(e);
    throw new ArcGISRequestError({
      code: "TIMEOUT",
      operation: subject.operation,
      url: subject.url,
      detail,
      messages,
      secrets: subject.secrets,
      ...(e.seen === undefined ? {} : { cause: e.seen }),
    });
  }
}

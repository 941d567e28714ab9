import { isArcGISRequestError, isTransientError } from "./errors";

/**
 * How an idempotent read is retried after a transient failure (no answer, timeout,
 * HTTP 502/503/504). Every field is optional; `{}` means the defaults.
 */
export interface RetryPolicy {
  /** Total attempts including the first; default 4. */
  maxAttempts?: number;
  /** Delay before the first retry, in ms; doubled each retry; default 500. */
  baseDelayMs?: number;
  /** Cap of a single delay, in ms; default 8000. */
  maxDelayMs?: number;
  /** Source of jitter in [0, 1); default Math.random (injectable for tests). */
  random?: () => number;
}

/**
 * Defaults of {@link RetryPolicy}.
 *
 * @internal
 */
export const DEFAULT_RETRY_POLICY: Readonly<Required<Omit<RetryPolicy, "random">>> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
};

/**
 * Computes the wait before retry number `retry` (1-based): capped exponential backoff with
 * "equal jitter" (half fixed, half random), so retries from many clients spread out but never
 * come back immediately.
 *
 * @param retry - 1 for the first retry.
 * @param policy - the retry policy.
 * @returns delay in milliseconds.
 * @example
 * ```ts
 * backoffDelay(3, { baseDelayMs: 100, random: () => 0 }) // 200
 * ```
 * Sends no request: the delay arithmetic of {@link retryWhile}.
 *
 * @internal
 */
export function backoffDelay(retry: number, policy: RetryPolicy = {}): number {
  const base = policy.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs;
  const cap = policy.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs;
  const ceiling = Math.min(cap, base * 2 ** (retry - 1));
  const random = policy.random ?? Math.random;
  return ceiling / 2 + (ceiling / 2) * random();
}

/**
 * Runs `attempt` and re-runs it after transient failures, up to `maxAttempts` in all. Any other
 * failure, and the last transient one, is thrown as is. It is {@link retryWhile} with an attempt
 * count instead of a deadline.
 *
 * @param attempt - the operation; must be safe to repeat.
 * @param policy - retry policy, or `false` for a single attempt.
 * @param signal - stops the waiting between attempts.
 * @example
 * ```ts
 * await withRetry(() => arcgisRequest({ ...opts, retry: false }), {});
 * ```
 * Sends no request itself: wraps the idempotent reads of the client operations.
 *
 * @internal
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy | false | undefined,
  signal?: AbortSignal,
): Promise<T> {
  if (!policy) return attempt();
  const maxAttempts = Math.max(1, policy.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts);
  let attempts = 0;
  return retryWhile(
    (e) => ++attempts < maxAttempts && isTransientError(e),
    {
      deadline: Number.POSITIVE_INFINITY,
      baseDelay: policy.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
      maxDelay: policy.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
      random: policy.random,
      signal,
    },
    attempt,
  );
}

/**
 * Resolves after `ms` milliseconds, or at once when `signal` fires (the next request then reports
 * ABORTED itself) or `until` settles (read-lane.ts: the read before ended).
 *
 * @param ms - how long to wait.
 * @param signal - ends the wait early.
 * @param until - ends the wait early when it settles.
 * @example
 * ```ts
 * await pause(700, signal);
 * ```
 * Sends no request: the wait between attempts of {@link retryWhile}.
 *
 * @internal
 */
export function pause(ms: number, signal?: AbortSignal, until?: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    // Resolving on abort lets the next attempt report ABORTED from the request itself.
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    void until?.then(done, done);
  });
}

/**
 * Bounds of {@link retryWhile}.
 *
 * @internal
 */
export interface RetryWhileOptions {
  /** Epoch ms after which no new attempt starts; the last wait ends at the deadline. */
  deadline: number;
  /** First delay in ms; doubled after each attempt. */
  baseDelay: number;
  /** Cap of one delay in ms. */
  maxDelay: number;
  /** Told about each failure that will be retried, with the wait before the next attempt. */
  onRetry?: ((error: unknown, delayMs: number) => void) | undefined;
  /** Source of jitter in [0, 1); default Math.random. */
  random?: (() => number) | undefined;
  /**
   * Whether delays are jittered (default true). Without jitter each delay is the capped
   * exponential one itself, so `baseDelay === maxDelay` polls at a fixed interval.
   */
  jitter?: boolean | undefined;
  /** Stops the waiting between attempts. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `attempt` again while it fails with an error `predicate` accepts and the deadline has not
 * passed: capped exponential backoff with equal jitter, one last attempt at the deadline. Any
 * other failure, and the one at the deadline, is thrown as is.
 *
 * @param predicate - which failures are worth another attempt (e.g. "an export holds the site").
 * @param options - deadline, delays, a retry callback.
 * @param attempt - the operation.
 * @returns what `attempt` returns.
 * @example
 * ```ts
 * await retryWhile((e) => hasServerCode(e, 409), { deadline: Date.now() + 60_000, baseDelay: 1_000, maxDelay: 15_000 }, () => deleteSite(session));
 * ```
 * Polling is the same loop without jitter: `{ baseDelay: 700, maxDelay: 700, jitter: false }`.
 * Sends no request itself: the one retry and polling loop of the package (every wait and every
 * "try again later" runs on it).
 *
 * @internal
 */
export async function retryWhile<T>(
  predicate: (error: unknown) => boolean,
  options: RetryWhileOptions,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      const remaining = options.deadline - Date.now();
      if (!predicate(e) || remaining <= 0 || options.signal?.aborted) throw e;
      const delay = Math.min(
        remaining,
        backoffDelay(n, {
          baseDelayMs: options.baseDelay,
          maxDelayMs: options.maxDelay,
          // Equal jitter with a random of 1 is the whole capped delay: no jitter.
          random: options.jitter === false ? () => 1 : (options.random ?? Math.random),
        }),
      );
      options.onRetry?.(e, delay);
      await pause(delay, options.signal);
    }
  }
}

/**
 * Tells whether the answer to a request that changes the server (createNewSite, joinSite,
 * importSite) may have been lost after the server acted on it: no answer, a timeout, a proxy's
 * 502/503/504, or a body that is not the server's (a proxy's page). Such a request must not be
 * sent again; the caller watches the server instead.
 *
 * @param error - any thrown value.
 * @example
 * ```ts
 * if (answerMayBeLost(e)) await waitForSite(target, wait); // never createNewSite twice
 * ```
 * Sends no request: it reads a failure of createNewSite, joinSite or importSite.
 *
 * @internal
 */
export function answerMayBeLost(error: unknown): boolean {
  if (!isArcGISRequestError(error)) return false;
  return isTransientError(error) || error.code === "BAD_RESPONSE" || error.code === "TIMEOUT";
}

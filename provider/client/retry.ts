import { isTransientError } from "./errors";

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

/** Defaults of {@link RetryPolicy}. */
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
 * Maps to: no REST operation.
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
 * failure, and the last transient one, is thrown as is.
 *
 * @param attempt - the operation; must be safe to repeat.
 * @param policy - retry policy, or `false` for a single attempt.
 * @param signal - stops the waiting between attempts.
 * @example
 * ```ts
 * await withRetry(() => arcgisRequest({ ...opts, retry: false }), {});
 * ```
 * Maps to: no REST operation; used for idempotent reads.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy | false | undefined,
  signal?: AbortSignal,
): Promise<T> {
  const maxAttempts = policy
    ? Math.max(1, policy.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts)
    : 1;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (!policy || n >= maxAttempts || !isTransientError(e) || signal?.aborted) throw e;
      await sleep(backoffDelay(n, policy), signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    // Resolving on abort lets the next attempt report ABORTED from the request itself.
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** What an awaited operation ended with, and how long it took (the fault suites' measure). */

/** What an awaited operation ended with, and how long it took. */
export type Outcome<T> =
  { ok: true; value: T; ms: number } | { ok: false; error: Error; ms: number };

/** Awaits `promise` and measures it; never rejects. */
export async function measure<T>(promise: Promise<T> | (() => Promise<T>)): Promise<Outcome<T>> {
  const started = Date.now();
  try {
    const value = await (typeof promise === "function" ? promise() : promise);
    return { ok: true, value, ms: Date.now() - started };
  } catch (error) {
    return {
      ok: false,
      error: error instanceof Error ? error : new Error(String(error)),
      ms: Date.now() - started,
    };
  }
}

/** The value of a successful outcome; fails the test with the error otherwise. */
export function valueOf<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got: ${outcome.error.message}`);
  return outcome.value;
}

/** The error of a failed outcome; fails the test otherwise. */
export function errorOf(outcome: Outcome<unknown>): Error {
  if (outcome.ok) throw new Error("expected a failure, but the operation succeeded");
  return outcome.error;
}

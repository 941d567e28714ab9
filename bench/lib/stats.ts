/** Small statistics and formatting helpers of the benchmark. */

/** The sorted copy of a list of numbers. */
function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/**
 * The p-th percentile by the nearest-rank method (the smallest value with at least p% of the
 * values at or below it), so that p95 of 12 runs is the 12th value, never an interpolation.
 *
 * @param values - the sample; must not be empty.
 * @param p - 0 to 100.
 * @example `percentile([1, 2, 3, 4], 50)` gives 2
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error("percentile of an empty sample");
  const s = sorted(values);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[rank - 1]!;
}

/**
 * The median (mean of the two middle values for an even count).
 *
 * @example `median([1, 2, 3, 10])` gives 2.5
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty sample");
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The arithmetic mean. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error("mean of an empty sample");
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Smallest and largest value. */
export function range(values: readonly number[]): { min: number; max: number } {
  const s = sorted(values);
  return { min: s[0]!, max: s.at(-1)! };
}

/** Milliseconds with one decimal under 100 ms, whole above: `12.3 ms`, `2513 ms`. */
export function ms(value: number): string {
  return `${value < 100 ? value.toFixed(1) : Math.round(value).toString()} ms`;
}

/** A number with `digits` decimals. */
export function num(value: number, digits = 2): string {
  return value.toFixed(digits);
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Resolves after `delayMs`. */
export function sleep(delayMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, delayMs));
}

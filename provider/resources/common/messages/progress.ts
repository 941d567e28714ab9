/**
 * Progress reporting of long waits through Pulumi's log.
 */
import { logInfo } from "./log";

/** Formats a duration for progress messages: `45s`, `3m05s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/**
 * How long a wait runs before its first line: one that ends sooner (a server that answers at
 * once) says nothing, and costs the host no message to the engine.
 */
export const QUIET_START_MS = 2_000;

/**
 * Reports progress of a long wait through Pulumi's log at a modest rate, so that a pipeline's
 * output shows that a long creation is alive without flooding it. The first line comes once the
 * wait has lasted {@link QUIET_START_MS}.
 */
export class ProgressReporter {
  private readonly started = Date.now();
  private lastReport = 0;

  /**
   * @param what - what is being waited for, e.g. "site creation on https://host/arcgis/admin".
   * @param limitMs - how long the wait may take in total.
   * @param everyMs - minimum interval between two messages.
   * @param firstNote - said after the first message only (e.g. what stops the wait).
   */
  constructor(
    private readonly what: string,
    private readonly limitMs: number,
    private readonly everyMs = 15_000,
    private readonly firstNote?: string,
  ) {}

  /** Milliseconds since the wait started. */
  elapsed(): number {
    return Date.now() - this.started;
  }

  /**
   * Runs `request` and, while its answer is outstanding, reports `state` (looking every
   * `checkEveryMs` whether a line is due): a request held open for minutes, such as a synchronous
   * createNewSite, shows that it is alive. Nothing is written before {@link QUIET_START_MS}, so
   * the request never waits behind a line (the first one opens the connection to the engine).
   */
  async whileAwaiting<T>(
    state: string,
    request: () => Promise<T>,
    checkEveryMs = 1_000,
  ): Promise<T> {
    const timer = setInterval(() => this.tick(state), checkEveryMs);
    try {
      return await request();
    } finally {
      clearInterval(timer);
    }
  }

  /** Reports the current state if enough time has passed since the last report. */
  tick(state: string): void {
    const now = Date.now();
    if (this.lastReport === 0 && now - this.started < QUIET_START_MS) return;
    if (now - this.lastReport < this.everyMs) return;
    const note = this.lastReport === 0 && this.firstNote !== undefined ? ` ${this.firstNote}` : "";
    this.lastReport = now;
    logInfo(
      `Waiting for ${this.what}: ${state} (${formatDuration(this.elapsed())} of at most ${formatDuration(this.limitMs)})${note}`,
    );
  }
}

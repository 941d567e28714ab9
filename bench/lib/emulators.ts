/**
 * Emulators for the benchmark: each on its own port and fresh data dir, with the moment every
 * site creation completed recorded from the emulator's own log line.
 */
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { runTempDir } from "../../tools/harness/temp";

/** A running emulator plus what the benchmark needs around it. */
export interface BenchEmulator {
  readonly emu: RunningEmulator;
  /** The CA certificate (PEM) to trust; undefined without TLS. */
  readonly caCert: string | undefined;
  /**
   * When each site creation completed, as `performance.now()` of this process: taken
   * synchronously in the emulator's "site created" log call, which it makes right after the
   * state write that makes the site visible to clients.
   */
  readonly sitesCreatedAt: number[];
  /** Like {@link sitesCreatedAt}, as epoch ms (the clock of the request log). */
  readonly sitesCreatedEpochMs: number[];
  /** Stops the emulator and deletes its data dir. */
  close(): Promise<void>;
}

/**
 * Starts an emulator on 127.0.0.1, port 0, in a new temporary data dir; never prints.
 *
 * @param options - emulator options (createDelayMs, exportPaddingBytes...).
 * @example `const e = await startBenchEmulator({ createDelayMs: 0 })`
 */
export async function startBenchEmulator(
  options: Omit<EmulatorOptions, "dataDir" | "log" | "quiet"> = {},
): Promise<BenchEmulator> {
  const dataDir = runTempDir("arcgis-bench-emu-");
  const sitesCreatedAt: number[] = [];
  const sitesCreatedEpochMs: number[] = [];
  const log = (line: string): void => {
    if (line.endsWith(": site created")) {
      sitesCreatedAt.push(performance.now());
      sitesCreatedEpochMs.push(Date.now());
    }
  };
  let emu: RunningEmulator;
  try {
    emu = await startEmulator({ ...options, dataDir, quiet: false, log });
  } catch (error) {
    await fsp.rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const caCert = emu.caCertFile === null ? undefined : fs.readFileSync(emu.caCertFile, "utf8");
  return {
    emu,
    caCert,
    sitesCreatedAt,
    sitesCreatedEpochMs,
    close: async () => {
      await emu.close();
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts `count` emulators (a few at a time) with the same options. */
export async function startBenchEmulators(
  count: number,
  options: Omit<EmulatorOptions, "dataDir" | "log" | "quiet"> = {},
): Promise<BenchEmulator[]> {
  const started: BenchEmulator[] = [];
  try {
    for (let i = 0; i < count; i += 8) {
      const batch = Math.min(8, count - i);
      started.push(
        ...(await Promise.all(Array.from({ length: batch }, () => startBenchEmulator(options)))),
      );
    }
  } catch (error) {
    await closeAll(started);
    throw error;
  }
  return started;
}

/** Closes emulators, ignoring errors of those already closed. */
export async function closeAll(emulators: readonly BenchEmulator[]): Promise<void> {
  await Promise.all(emulators.map((e) => e.close().catch(() => undefined)));
}

/** The requests an emulator received, as `GET admin/ → POST admin/createNewSite` (no queries). */
export function requestTimeline(bench: BenchEmulator): string {
  return bench.emu
    .requestLog()
    .map((r) => `${r.method} ${r.url.replace(/^\/arcgis\//, "").replace(/\?.*$/, "")}`)
    .join(" → ");
}

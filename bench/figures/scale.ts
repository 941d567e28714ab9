/**
 * Figure 4: 1, 10 and 50 Sites created at once through one host, each on its own emulator:
 * wall time and the host's peak RSS.
 */
import { performance } from "node:perf_hooks";
import { closeAll, startBenchEmulator, startBenchEmulators } from "../lib/emulators";
import { procMemory } from "../lib/machine";
import {
  createThroughHost,
  newsFor,
  startConfiguredHost,
  type ProviderSetup,
} from "../lib/provider";
import type { FigureResult } from "../lib/report";
import { table } from "../lib/report";
import { mib, ms, num } from "../lib/stats";

const TARGET_FACTOR = 2;

interface Level {
  sites: number;
  wallMs: number;
  /** Slowest single creation (check + create), ms. */
  slowestMs: number;
  baselineRss: number;
  baselineHwm: number;
  peakHwm: number;
  emulatorStartMs: number;
}

async function level(setup: ProviderSetup, sites: number, delayMs: number): Promise<Level> {
  const host = await startConfiguredHost(setup);
  try {
    // Warm the host up (loads the package) on a separate instant emulator, so that the wall time
    // measures the creations, not module loading.
    const warm = await startBenchEmulator({ createDelayMs: 0 });
    try {
      await createThroughHost(
        host,
        newsFor(setup.registrations.site, warm, { runAsync: false }),
        "warm-up",
        setup.registrations.site,
        false,
      );
    } finally {
      await warm.close();
    }
    const emuStarted = performance.now();
    const emulators = await startBenchEmulators(sites, { createDelayMs: delayMs });
    const emulatorStartMs = performance.now() - emuStarted;
    try {
      const before = procMemory(host.pid);
      const t0 = performance.now();
      const timings = await Promise.all(
        emulators.map((bench, i) =>
          createThroughHost(
            host,
            newsFor(setup.registrations.site, bench),
            `site-${i}`,
            setup.registrations.site,
            false,
          ),
        ),
      );
      const wallMs = performance.now() - t0;
      const after = procMemory(host.pid);
      const created = emulators.reduce((n, e) => n + e.emu.stats().sitesCreated, 0);
      if (created !== sites) throw new Error(`${created} of ${sites} sites were created`);
      return {
        sites,
        wallMs,
        slowestMs: Math.max(...timings.map((t) => t.checkMs + t.createMs)),
        baselineRss: before.rss,
        baselineHwm: before.hwm,
        peakHwm: after.hwm,
        emulatorStartMs,
      };
    } finally {
      await closeAll(emulators);
    }
  } finally {
    await host.close();
  }
}

/**
 * Runs figure 4 for each count, each with a fresh host (VmHWM only grows).
 *
 * @param counts - e.g. [1, 10, 50].
 * @param delayMs - emulated creation time, long enough that the figure measures concurrency.
 */
export async function scale(
  setup: ProviderSetup,
  counts: readonly number[],
  delayMs: number,
): Promise<Omit<FigureResult, "otherCores" | "durationMs">> {
  const levels: Level[] = [];
  for (const count of counts) levels.push(await level(setup, count, delayMs));
  const one = levels.find((l) => l.sites === 1) ?? levels[0]!;
  const most = levels.at(-1)!;
  const factor = most.wallMs / one.wallMs;
  const misses: string[] = [];
  if (factor > TARGET_FACTOR) {
    misses.push(
      `- ${most.sites} sites took ${num(factor)}x the time of ${one.sites}. Every creation polls its own machine; with ${most.sites} at once the host's single event loop (and this 2-core machine, which also runs the ${most.sites} emulators) serializes TLS handshakes, JSON parsing and protobuf work. Look at the host's CPU during the run; fewer requests per creation (figure 3) and connection reuse would close it.`,
    );
  }
  return {
    title: "Scale: Sites created at once through one host",
    summary: [
      ...levels.map((l) => ({
        figure: `4. ${l.sites} site${l.sites === 1 ? "" : "s"} at once: wall time / host peak RSS`,
        measured: `${ms(l.wallMs)} / ${mib(l.peakHwm)}`,
        target: l === most ? `≤ ${TARGET_FACTOR}x the time of ${one.sites}` : "",
        met: l === most ? factor <= TARGET_FACTOR : null,
      })),
      {
        figure: `4. Time of ${most.sites} / time of ${one.sites}`,
        measured: `${num(factor)}x`,
        target: `≤ ${TARGET_FACTOR}x`,
        met: factor <= TARGET_FACTOR,
      },
    ],
    details: [
      `Method: for each count, a fresh host (so that its VmHWM belongs to that count) is warmed up with one instant creation on a separate emulator; then that many emulators start (each its own port, data dir and self-signed CA, createDelayMs ${delayMs}, all in the bench process), and Check + Create of one Site per emulator (runAsync true) are sent to the host all at once. Wall time: from sending the first Check to the last Create answer. Peak RSS: VmHWM from /proc/<host pid>/status after the batch (VmHWM never decreases; the baseline is read just before the batch).`,
      "",
      ...table(
        [
          "Sites",
          "Wall time",
          "Slowest creation",
          "Host RSS before",
          "Host VmHWM before",
          "Host VmHWM after",
          "Emulator start-up (not timed)",
        ],
        levels.map((l) => [
          String(l.sites),
          ms(l.wallMs),
          ms(l.slowestMs),
          mib(l.baselineRss),
          mib(l.baselineHwm),
          mib(l.peakHwm),
          ms(l.emulatorStartMs),
        ]),
      ),
    ],
    misses,
  };
}

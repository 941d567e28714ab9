/**
 * Figure 9: SiteExport with uploadTo through the host, for archives of different sizes: the
 * archive streamed from the emulator to an S3-compatible store (SeaweedFS, the tests' store,
 * toolchain/object-store.cjs): upload rate and the host's peak RSS growth, beside figure 5's
 * download to disk.
 */
import type { Host } from "../../tools/harness/host-types";
import type { BenchEmulator } from "../lib/emulators";
import { emulatorWithSite } from "./download";
import { procMemory, type ProcessMemory } from "../lib/machine";
import {
  createThroughHost,
  newsFor,
  startConfiguredHost,
  type ProviderSetup,
} from "../lib/provider";
import type { FigureResult } from "../lib/report";
import { table } from "../lib/report";
import { mib, ms, num } from "../lib/stats";
import * as store from "../../toolchain/object-store/start.cjs";

/** The bound for a 200 MB archive (issue 26), as for the download (figure 5). */
const TARGET_GROWTH = 64 * 1024 * 1024;
const MiB = 1024 * 1024;
const BUCKET = "bench-backups";

type Store = Awaited<ReturnType<typeof store.startObjectStore>>;

/**
 * Starts the store figure 9 uploads to. A fresh SeaweedFS refuses to hand out volume ids until
 * two heartbeat intervals after its volume server reported (weed/topology/topology.go,
 * allocationDelay), so its first write waits: a quick run starts it early, to let that pass
 * while other figures run.
 */
export function startUploadStore(): Promise<Store> {
  return store.startObjectStore({ buckets: [BUCKET] });
}

interface SizeResult {
  archiveBytes: number;
  /** From the download GET's arrival at the emulator to create's answer, ms. */
  uploadMs: number;
  totalMs: number;
  before: ProcessMemory;
  after: ProcessMemory;
  sampledPeakRss: number;
}

async function uploadThroughHost(
  setup: ProviderSetup,
  host: Host,
  bench: BenchEmulator,
  s3: Store,
  name: string,
): Promise<{ sizeBytes: number; createdEpochMs: number; totalMs: number }> {
  // The registered SiteExport downloads (figure 5): here its one destination is the store.
  const { downloadTo: _downloadTo, ...news } = newsFor(setup.registrations.backup, bench, {
    uploadTo: `s3://${BUCKET}/${name}/`,
    objectStore: { endpoint: s3.endpoint, region: s3.region, forcePathStyle: true },
    objectStoreCredentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const t = await createThroughHost(host, news, name, setup.registrations.backup, false);
  const size = t.properties.sizeBytes;
  if (typeof size !== "number") throw new Error(`no sizeBytes in the outputs of ${name}`);
  return { sizeBytes: size, createdEpochMs: t.createdEpochMs, totalMs: t.checkMs + t.createMs };
}

async function measureSize(
  setup: ProviderSetup,
  s3: Store,
  paddingBytes: number,
): Promise<SizeResult> {
  const host = await startConfiguredHost(setup);
  try {
    // Warm-up on a small archive: loads the package, the AWS SDK and the upload path.
    const small = await emulatorWithSite(0);
    try {
      await uploadThroughHost(setup, host, small, s3, `warm-up-${paddingBytes}`);
    } finally {
      await small.close();
    }
    const bench = await emulatorWithSite(paddingBytes);
    try {
      const before = procMemory(host.pid);
      let sampledPeakRss = before.rss;
      const sampler = setInterval(() => {
        sampledPeakRss = Math.max(sampledPeakRss, procMemory(host.pid).rss);
      }, 20);
      let result: Awaited<ReturnType<typeof uploadThroughHost>>;
      try {
        result = await uploadThroughHost(setup, host, bench, s3, `backup-${paddingBytes}`);
      } finally {
        clearInterval(sampler);
      }
      const after = procMemory(host.pid);
      const get = bench.emu
        .requestLog()
        .find((r) => r.method === "GET" && r.url.includes("/uploads/"));
      if (get === undefined) throw new Error("no download request in the emulator's log");
      return {
        archiveBytes: result.sizeBytes,
        uploadMs: result.createdEpochMs - Date.parse(get.at),
        totalMs: result.totalMs,
        before,
        after,
        sampledPeakRss,
      };
    } finally {
      await bench.close();
    }
  } finally {
    await host.close();
  }
}

/**
 * Runs figure 9 for each padding size (a fresh host each, since VmHWM never decreases), against
 * one store started for the figure.
 *
 * @param paddingMiB - e.g. [25, 100, 200].
 * @param started - the store, started earlier by {@link startUploadStore}; the figure stops it.
 */
export async function exportUpload(
  setup: ProviderSetup,
  paddingMiB: readonly number[],
  started?: Promise<Store>,
): Promise<Omit<FigureResult, "figure" | "otherCores" | "durationMs">> {
  const s3 = await (started ?? startUploadStore());
  const results: SizeResult[] = [];
  try {
    for (const size of paddingMiB) results.push(await measureSize(setup, s3, size * MiB));
  } finally {
    await s3.stop();
  }
  const growth = (r: SizeResult): number => r.after.hwm - r.before.rss;
  const rate = (r: SizeResult): number => r.archiveBytes / MiB / (r.uploadMs / 1000);
  const misses = results
    .filter((r) => growth(r) > TARGET_GROWTH)
    .map(
      (r) =>
        `- ${mib(r.archiveBytes)} archive: the host's peak RSS grew ${mib(growth(r))} while streaming it to the store. The transfer runs in a worker thread of its own (provider/client/transfer/off-thread.ts) and holds one 5 MiB part buffer, allocated once and reused (provider/client/transfer/object-store.ts); the rest is chunks of the server's answer (one buffer per TLS record) awaiting garbage collection, which V8 lets pile up in proportion to the reading thread's heap (the worker's old generation is limited to 64 MiB). Run in the host's own thread, where \`@pulumi/pulumi\` makes the heap large, it grew 59 to 76 MiB at 200 MiB.`,
    );
  return {
    title: "Export upload to object storage (SiteExport with uploadTo)",
    summary: results.flatMap((r) => [
      {
        figure: `9. ${mib(r.archiveBytes)} archive: host peak RSS growth while exporting and uploading to the store`,
        measured: mib(growth(r)),
        target: `≤ ${mib(TARGET_GROWTH)}`,
        met: growth(r) <= TARGET_GROWTH,
      },
      {
        figure: `9. ${mib(r.archiveBytes)} archive: upload rate through the host (emulator to store)`,
        measured: `${num(rate(r), 0)} MiB/s`,
        target: "streaming",
        met: null,
      },
    ]),
    details: [
      `Method: as figure 5, with \`uploadTo: s3://${BUCKET}/<name>/\` instead of \`downloadTo\`: for each size, an emulator with \`exportPaddingBytes\` of that size gets a site; a fresh host is warmed up with an upload of a small archive; then Check and Create of a SiteExport run through the host: exportSite, then the archive streamed from the emulator to SeaweedFS (\`weed server -s3\` on loopback, started for this figure by toolchain/object-store/start.cjs) in a multipart upload under a temporary key, hashed and checked as a zip on the way (all of it in a worker thread the client starts for the transfer), then copied to its final key with its sha256. Upload time: from the download GET's arrival at the emulator to Create's answer (it includes the copy to the final key). RSS growth = host VmHWM after the create − host VmRSS just before it; VmRSS sampled every 20 ms too. MiB = 1024² bytes.`,
      "",
      ...table(
        [
          "Archive",
          "Upload time",
          "Rate",
          "Host VmRSS before",
          "VmHWM after",
          "Sampled peak VmRSS",
          "Growth (HWM after − RSS before)",
          "Check + create",
        ],
        results.map((r) => [
          mib(r.archiveBytes),
          ms(r.uploadMs),
          `${num(rate(r), 0)} MiB/s`,
          mib(r.before.rss),
          mib(r.after.hwm),
          mib(r.sampledPeakRss),
          mib(growth(r)),
          ms(r.totalMs),
        ]),
      ),
    ],
    misses,
  };
}

/**
 * The emulator started as users start it (its CLI, its own process) stays the same size under a
 * long run of requests with 16 KB URLs: once warmed up, 10,000 more grow its resident memory
 * (VmRSS) by a bounded amount, and the last 5,000 of them by next to nothing, over HTTPS and
 * plain HTTP. Without the CLI's bounds on V8's heap growth (emulator/process/heap-growth.ts) the
 * process keeps growing; bench/RESULTS.md, "The emulator's memory under long URLs", has the
 * method and the figures.
 */
import { readFileSync } from "node:fs";
import { promises as fs } from "node:fs";
import { Agent, request } from "undici";
import { buildEmulatorCli, SpawnedEmulator, tempDir } from "../helpers/spawn-emulator";
import { HEAP_GROWTH_FLAGS, heapGrowthFlags } from "../../emulator/process/heap-growth";

const MiB = 1024 * 1024;

/** Path and query of each request: 16 KB, under Node's 16 KiB limit on a request's headers. */
const URL_CHARS = 16_000;
const WARM_UP = 1_000;
const REQUESTS = 10_000;
/** Requests in flight at once, each on its own kept-alive connection. */
const CONCURRENCY = 20;
/**
 * Growth allowed over the 10,000 requests after the warm-up: the request log filling up to its
 * 4 MiB bound and V8's old generation settling at its working size, with head-room for the noise
 * of a shared machine; unbounded, the heap's growth alone goes past it (bench/RESULTS.md has the
 * figures of repeated runs, bounded and not).
 */
const MAX_GROWTH = 40 * MiB;
/** Growth allowed over the last 5,000 of them: a steady climb, not the settling, goes past it. */
const MAX_SETTLED_GROWTH = 16 * MiB;

/** The resident memory of a process, from Linux's /proc. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (kb === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));

/** Sends `count` unauthenticated GETs with 16 KB URLs, to unknown admin paths and elsewhere. */
async function flood(origin: string, agent: Agent, from: number, count: number): Promise<void> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < from + count) {
      const i = next++;
      const where = i % 2 === 0 ? `/arcgis/admin/nowhere-${i}` : `/elsewhere/${i}`;
      const head = `${where}?f=json&pad=`;
      const answer = await request(`${origin}${head}${"p".repeat(URL_CHARS - head.length)}`, {
        dispatcher: agent,
      });
      await answer.body.dump();
      // 431 would mean Node's parser refused the URL before the emulator saw it.
      if (answer.statusCode === 431 || answer.statusCode >= 500) {
        throw new Error(`request ${i} answered HTTP ${answer.statusCode}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const onLinux = process.platform === "linux" ? describe : describe.skip;

onLinux("the emulator's CLI under 10,000 requests with 16 KB URLs", () => {
  let buildDir: string;
  let cli: string;
  beforeAll(async () => {
    buildDir = await tempDir("emulator-memory-build-");
    cli = await buildEmulatorCli(buildDir);
  });
  afterAll(async () => {
    await fs.rm(buildDir, { recursive: true, force: true });
  });

  it.each([
    ["HTTPS", []],
    ["plain HTTP", ["--no-tls"]],
  ])(
    "over %s grows by a bounded amount after its warm-up",
    async (_, flags) => {
      const dataDir = await tempDir("emulator-memory-");
      const emu = await SpawnedEmulator.start(cli, ["--data-dir", dataDir, "--quiet", ...flags]);
      const ca = emu.ready.caCertFile === null ? undefined : readFileSync(emu.ready.caCertFile);
      const agent = new Agent({
        connections: CONCURRENCY,
        ...(ca === undefined ? {} : { connect: { ca } }),
      });
      try {
        const pid = emu.child.pid!;
        await flood(emu.origin, agent, 0, WARM_UP);
        await settle();
        const warm = residentBytes(pid);
        await flood(emu.origin, agent, WARM_UP, REQUESTS / 2);
        await settle();
        const half = residentBytes(pid);
        await flood(emu.origin, agent, WARM_UP + REQUESTS / 2, REQUESTS / 2);
        await settle();
        const after = residentBytes(pid);
        expect(after - warm).toBeLessThan(MAX_GROWTH);
        expect(after - half).toBeLessThan(MAX_SETTLED_GROWTH);
      } finally {
        await agent.close();
        await emu.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe("the CLI's bounds on V8's heap growth", () => {
  const all = HEAP_GROWTH_FLAGS.map(({ flag }) => flag);
  const [young, old] = all;

  it("are all set when node was started without a choice of its own", () => {
    expect(heapGrowthFlags([], "")).toEqual(all);
    expect(heapGrowthFlags(["--inspect"], "--enable-source-maps")).toEqual(all);
  });

  it("leave a size the operator gave node as it is", () => {
    expect(heapGrowthFlags(["--max-semi-space-size=64"], "")).toEqual([old]);
    expect(heapGrowthFlags([], "--max_semi_space_size=16 --enable-source-maps")).toEqual([old]);
    expect(heapGrowthFlags(["--max-heap-size=512"], "")).toEqual([old]);
    expect(heapGrowthFlags([], "--heap-growing-percent=100")).toEqual([young]);
    expect(heapGrowthFlags(["--semi-space-growth-factor=2"], "--heap-growing-percent=80")).toEqual(
      [],
    );
  });
});

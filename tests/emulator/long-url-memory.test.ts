/**
 * The emulator started as users start it (its CLI, its own process) stays the same size under a
 * long run of requests with 16 KB URLs: once warmed up (its request log full), 10,000 more grow
 * its resident memory (VmRSS) by a few MiB at most, over HTTPS and plain HTTP. The CLI starts
 * node again with bounds on V8's heap growth (emulator/process/heap-growth.ts); without them the
 * process keeps growing. bench/RESULTS.md, "The emulator's memory under long URLs", has the
 * method and the figures.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { promises as fs } from "node:fs";
import { Agent, request } from "undici";
import { buildEmulatorCli, SpawnedEmulator } from "../../tools/harness/spawn-emulator";
import { runTempDir } from "../../tools/harness/temp";
import {
  HEAP_GROWTH_FLAGS,
  canExecve,
  commandWithHeapBounds,
  heapGrowthFlags,
} from "../../emulator/process/heap-growth";
import { MAX_REQUEST_LOG_BYTES, entryBytes, loggedUrl } from "../../emulator/core/request-log";

const MiB = 1024 * 1024;

/** Path and query of each request: 16 KB, under Node's 16 KiB limit on a request's headers. */
const URL_CHARS = 16_000;
/**
 * Requests before the first measurement: enough to fill the request log to its byte bound, whose
 * filling is memory the emulator is meant to hold, and a thousand more for the rest of the
 * process to reach its working size.
 */
const WARM_UP =
  Math.ceil(
    MAX_REQUEST_LOG_BYTES /
      entryBytes({
        method: "GET",
        url: loggedUrl("p".repeat(URL_CHARS)),
        at: new Date().toISOString(),
      }),
  ) + 1_000;
const REQUESTS = 10_000;
/** Requests in flight at once, each on its own kept-alive connection. */
const CONCURRENCY = 20;
/**
 * Growth allowed over the 10,000 requests after the warm-up: the noise of repeated runs on a
 * shared machine, with head-room; without the CLI's bounds the old generation's settling alone
 * goes past it (bench/RESULTS.md has the figures, bounded and not).
 */
const MAX_GROWTH = 8 * MiB;

/** The resident memory of a process, from Linux's /proc. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (kb === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb[1]) * 1024;
}

/** The command line a process runs now (after any execve), from Linux's /proc. */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
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

onLinux("the emulator's CLI", () => {
  let cli: string;
  beforeAll(async () => {
    cli = await buildEmulatorCli();
  });

  /** Starts the CLI on a new data dir, runs `body` with it, and stops it. */
  async function withCli(
    flags: readonly string[],
    node: Parameters<typeof SpawnedEmulator.start>[2],
    body: (emu: SpawnedEmulator) => Promise<void>,
  ): Promise<void> {
    const dataDir = runTempDir("emulator-memory-");
    const emu = await SpawnedEmulator.start(
      cli,
      ["--data-dir", dataDir, "--quiet", ...flags],
      node,
    );
    try {
      await body(emu);
    } finally {
      await emu.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }

  describe("under 10,000 requests with 16 KB URLs", () => {
    it.each([
      ["HTTPS", []],
      ["plain HTTP", ["--no-tls"]],
    ])(
      "over %s grows by a few MiB at most after its warm-up",
      async (_, flags) =>
        withCli(flags, {}, async (emu) => {
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
            // For bench/RESULTS.md: the readings of each run, where asked for.
            const readings = process.env["LONG_URL_MEMORY_READINGS"];
            if (readings !== undefined) {
              const mib = (bytes: number): number => Math.round((bytes / MiB) * 10) / 10;
              appendFileSync(
                readings,
                `${JSON.stringify({ flags, warmUp: WARM_UP, warm: mib(warm), half: mib(half - warm), after: mib(after - warm) })}\n`,
              );
            }
            // The middle reading too, so that growth given back by the end still counts.
            expect(half - warm).toBeLessThan(MAX_GROWTH);
            expect(after - warm).toBeLessThan(MAX_GROWTH);
          } finally {
            await agent.close();
          }
        }),
      60_000,
    );
  });

  describe("starts node again with the heap's bounds", () => {
    const all = HEAP_GROWTH_FLAGS.map(({ flag }) => flag);

    it("in the same process, before the script, when node was started without them", () =>
      withCli(["--no-tls"], { nodeOptions: "" }, async (emu) => {
        const command = commandLine(emu.child.pid!);
        expect(command[0]).toBe(process.execPath);
        expect(command.slice(1, 1 + all.length)).toEqual(all);
        expect(command[1 + all.length]).toBe(cli);
        expect(command.slice(2 + all.length)).toEqual(
          expect.arrayContaining(["--data-dir", "--quiet", "--no-tls"]),
        );
      }));

    it("for --detach's background process", async () => {
      const dataDir = runTempDir("emulator-detach-");
      const run = (args: string[]) =>
        spawnSync(process.execPath, [cli, "--data-dir", dataDir, ...args], {
          encoding: "utf8",
          env: {
            ...process.env,
            NODE_PATH: path.join(__dirname, "..", "..", "node_modules"),
            NODE_OPTIONS: "",
          },
        });
      try {
        const started = run(["--detach", "--no-tls", "--quiet"]);
        expect(started.status).toBe(0);
        const pid = Number(readFileSync(path.join(dataDir, "emulator.pid"), "utf8").trim());
        const command = commandLine(pid);
        expect(command.slice(1, 1 + all.length)).toEqual(all);
        expect(command[1 + all.length]).toBe(cli);
      } finally {
        expect(run(["--stop"]).status).toBe(0);
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    });

    it("leaves the operator's own sizes as they are, on the command line and in NODE_OPTIONS", async () => {
      await withCli(
        ["--no-tls"],
        { nodeArgs: ["--max-semi-space-size=8"], nodeOptions: "" },
        async (emu) => {
          const command = commandLine(emu.child.pid!);
          expect(command).toContain("--max-semi-space-size=8");
          expect(command).toContain("--heap-growing-percent=10");
          expect(command).not.toContain("--max-semi-space-size=1");
          expect(command).not.toContain("--optimize-for-size");
        },
      );
      // V8 stops at start when a young generation size comes beside both of these.
      await withCli(
        ["--no-tls"],
        { nodeArgs: ["--max-heap-size=256"], nodeOptions: "--max-old-space-size=200" },
        async (emu) => {
          expect(commandLine(emu.child.pid!).filter((arg) => all.includes(arg))).toEqual([
            "--heap-growing-percent=10",
          ]);
        },
      );
    });
  });
});

describe("the CLI's bounds on V8's heap growth", () => {
  const all = HEAP_GROWTH_FLAGS.map(({ flag }) => flag);
  const [young, old, size] = all;

  it("are all given when node was started without a choice of its own", () => {
    expect(heapGrowthFlags([], "")).toEqual(all);
    expect(heapGrowthFlags(["--inspect"], "--enable-source-maps")).toEqual(all);
  });

  it("leave a size the operator gave node as it is", () => {
    expect(heapGrowthFlags(["--max-semi-space-size=64"], "")).toEqual([old]);
    expect(heapGrowthFlags([], "--max_semi_space_size=16 --enable-source-maps")).toEqual([old]);
    expect(heapGrowthFlags(["--max-heap-size=512"], "")).toEqual([old]);
    expect(heapGrowthFlags([], "--heap-growing-percent=100")).toEqual([young, size]);
    expect(heapGrowthFlags(["--no-optimize-for-size"], "")).toEqual([young, old]);
    expect(heapGrowthFlags([], "--optimize_for_size")).toEqual([young, old]);
    expect(
      heapGrowthFlags(
        ["--min-semi-space-size=2", "--optimize-for-size"],
        "--heap-growing-percent=80",
      ),
    ).toEqual([]);
  });

  it("are asked for once: node started with the command given needs no other", () => {
    const command = commandWithHeapBounds(
      "/usr/bin/node",
      ["--enable-source-maps"],
      ["/usr/bin/node", "/opt/cli.js", "--port", "0"],
      "",
    )!;
    expect(command).toEqual([
      "/usr/bin/node",
      ...all,
      "--enable-source-maps",
      "/opt/cli.js",
      "--port",
      "0",
    ]);
    expect(
      commandWithHeapBounds(
        "/usr/bin/node",
        command.slice(1, -3),
        command.slice(0, 1).concat(command.slice(-3)),
        "",
      ),
    ).toBeUndefined();
  });

  it("are not asked for where the platform cannot replace a process in place", () => {
    expect(canExecve("win32")).toBe(false);
    expect(canExecve("linux")).toBe(typeof process.execve === "function");
  });
});

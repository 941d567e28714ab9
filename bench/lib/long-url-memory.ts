/**
 * Starts the emulator's CLI as its own process, sends a warm-up of requests with long URLs, then
 * rounds of more, and prints its resident memory (VmRSS, from Linux's /proc) after each: one JSON
 * line per run, with the CPU time the emulator's process used from its ready line to the end.
 * `--unbounded` starts node with V8's own heap-growth flags, which the CLI then leaves alone
 * (emulator/process/heap-growth.ts), to see what the bounds change; `--node-flag` gives node any
 * other flag the same way.
 */
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { runTempDir } from "../../tools/harness/temp";

const REPO = path.resolve(__dirname, "..", "..");

/**
 * The node flags that restore V8's defaults: the young generation's size chosen by V8 (0), a
 * computed old-space factor, the usual step and compilers.
 */
const V8_DEFAULTS = [
  "--max-semi-space-size=0",
  "--heap-growing-percent=0",
  "--no-optimize-for-size",
];

function residentMiB(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (kb === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) / 1024;
}

/** CPU seconds (user and system) a process has used, from Linux's /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function run(options: {
  tls: boolean;
  unbounded: boolean;
  urlChars: number;
  warmUp: number;
  requests: number;
  rounds: number;
  concurrency: number;
  nodeFlags: string[];
}): Promise<Record<string, unknown>> {
  const dataDir = runTempDir("long-url-memory-");
  const child = spawn(
    process.execPath,
    [
      ...(options.unbounded ? V8_DEFAULTS : []),
      ...options.nodeFlags,
      path.join(REPO, "dist", "emulator", "cli.js"),
      "--data-dir",
      dataDir,
      "--quiet",
      ...(options.tls ? [] : ["--no-tls"]),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise((resolve) => child.on("exit", resolve));
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the emulator exited (${code})`)));
  });
  const ready = JSON.parse(out.split("\n")[0]!) as { adminUrl: string; caCertFile: string | null };
  const origin = new URL(ready.adminUrl).origin;
  const agent = new Agent({
    connections: options.concurrency,
    ...(ready.caCertFile === null ? {} : { connect: { ca: readFileSync(ready.caCertFile) } }),
  });
  let next = 0;
  let refused = 0;
  const flood = async (count: number): Promise<void> => {
    const end = next + count;
    const worker = async (): Promise<void> => {
      while (next < end) {
        const i = next++;
        const head = `${i % 2 === 0 ? `/arcgis/admin/nowhere-${i}` : `/elsewhere/${i}`}?f=json&pad=`;
        const answer = await request(
          `${origin}${head}${"p".repeat(options.urlChars - head.length)}`,
          {
            dispatcher: agent,
          },
        );
        await answer.body.dump();
        if (answer.statusCode === 431) refused++;
        else if (answer.statusCode >= 500) throw new Error(`HTTP ${answer.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  };
  try {
    const pid = child.pid!;
    await pause(300);
    const start = residentMiB(pid);
    const cpuAtStart = cpuSeconds(pid);
    const started = Date.now();
    await flood(options.warmUp);
    await pause(300);
    const warm = residentMiB(pid);
    const after: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      await flood(options.requests);
      await pause(300);
      after.push(residentMiB(pid));
    }
    const seconds = (Date.now() - started) / 1000;
    const cpu = cpuSeconds(pid) - cpuAtStart;
    const last = after.at(-1)!;
    const round = (n: number): number => Math.round(n * 10) / 10;
    return {
      protocol: options.tls ? "https" : "http",
      heap: options.unbounded ? "V8 defaults" : "bounded",
      nodeFlags: options.nodeFlags,
      urlChars: options.urlChars,
      startMiB: round(start),
      warmMiB: round(warm),
      afterMiB: after.map(round),
      growthFromStartMiB: round(last - start),
      growthAfterWarmUpMiB: round(last - warm),
      refused431: refused,
      seconds,
      cpuSeconds: round(cpu),
    };
  } finally {
    await agent.close();
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the measurement `--runs` times and prints a JSON line for each. */
export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      "no-tls": { type: "boolean", default: false },
      unbounded: { type: "boolean", default: false },
      "url-chars": { type: "string", default: "16000" },
      "warm-up": { type: "string", default: "1000" },
      requests: { type: "string", default: "5000" },
      rounds: { type: "string", default: "2" },
      concurrency: { type: "string", default: "20" },
      runs: { type: "string", default: "1" },
      "node-flag": { type: "string", multiple: true, default: [] },
    },
  });
  for (let i = 0; i < Number(values.runs); i++) {
    const result = await run({
      tls: !values["no-tls"],
      unbounded: values.unbounded,
      urlChars: Number(values["url-chars"]),
      warmUp: Number(values["warm-up"]),
      requests: Number(values.requests),
      rounds: Number(values.rounds),
      concurrency: Number(values.concurrency),
      nodeFlags: values["node-flag"],
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  return 0;
}

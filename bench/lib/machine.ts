/** Facts about the machine and processes: CPU, load, and a process's memory from /proc. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";

/** What RESULTS.md records about where it was produced. */
export interface MachineFacts {
  node: string;
  cpuModel: string;
  cores: number;
  memoryMiB: number;
  os: string;
  date: string;
  gitCommit: string;
  gitDirty: boolean;
}

function cpuModel(): string {
  try {
    const line = fs
      .readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("model name"));
    if (line !== undefined) return line.split(":").slice(1).join(":").trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return os.cpus()[0]?.model ?? "unknown";
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return "";
  }
}

/** Node version, CPU model (from /proc/cpuinfo), cores, memory, OS, date and git commit. */
export function machineFacts(): MachineFacts {
  return {
    node: process.version,
    cpuModel: cpuModel(),
    cores: os.availableParallelism(),
    memoryMiB: Math.round(os.totalmem() / (1024 * 1024)),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    gitCommit: git(["rev-parse", "--short", "HEAD"]).trim() || "unknown",
    gitDirty: git(["status", "--porcelain"]).trim() !== "",
  };
}

/** The 1-minute load average (processes running or waiting for a CPU). */
export function loadAverage(): number {
  return os.loadavg()[0] ?? 0;
}

/** Memory of a process, in bytes, from /proc/<pid>/status. */
export interface ProcessMemory {
  /** VmRSS: resident now. */
  rss: number;
  /** VmHWM: the peak resident set since the process started. */
  hwm: number;
}

/**
 * Reads VmRSS and VmHWM of a process (Linux only).
 *
 * @param pid - the process id.
 * @example `procMemory(host.pid).hwm`
 */
export function procMemory(pid: number): ProcessMemory {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
    if (match === null) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Number(match[1]) * 1024;
  };
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** CPU time since boot, in ms: the whole machine's busy time, and this process's. */
export interface CpuSnapshot {
  at: number;
  machineBusyMs: number;
  ownMs: number;
  pids: readonly number[];
}

const TICK_MS = 10; // USER_HZ is 100 on Linux.

/** CPU time (user + system, own and reaped children) of a process, in ms, from /proc. */
export function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime, stime, cutime, cstime: fields 14 to 17 of stat, i.e. 11 to 14 after the name.
    return (
      (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS
    );
  } catch {
    return 0;
  }
}

/**
 * Takes a CPU snapshot: machine-wide busy time from /proc/stat, and the CPU time of this
 * process, of its reaped children, and of the given live child processes (e.g. a running host).
 */
export function cpuSnapshot(pids: readonly number[] = []): CpuSnapshot {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const [, ...values] = line.trim().split(/\s+/);
  const n = values.map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = n.slice(0, 8).reduce((a, b) => a + b, 0) - (n[3] ?? 0) - (n[4] ?? 0);
  return {
    at: Date.now(),
    machineBusyMs: busy * TICK_MS,
    // This process's own time plus that of its children it has reaped (hosts that exited).
    ownMs: processCpuMs(process.pid) + pids.reduce((a, pid) => a + processCpuMs(pid), 0),
    pids,
  };
}

/**
 * How many cores other processes (everything but this one and the snapshot's pids) kept busy on
 * average between two snapshots. A child that exits between them is counted as "other".
 */
export function otherCoresBusy(before: CpuSnapshot, after: CpuSnapshot): number {
  const wall = after.at - before.at;
  if (wall <= 0) return 0;
  const busy = after.machineBusyMs - before.machineBusyMs;
  const own = after.ownMs - before.ownMs;
  return Math.max(0, (busy - own) / wall);
}

/**
 * Counts the TCP connections any process on this machine has opened to a local port (the client
 * ends: rows of /proc/net/tcp and tcp6 whose remote port is `port`, in any state but LISTEN, so
 * that connections already closed but in TIME_WAIT count too). Each emulator has its own port,
 * so this is how many connections a client opened to it.
 */
export function clientConnectionsTo(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  let count = 0;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const remote = fields[2];
      const state = fields[3];
      if (remote?.endsWith(`:${hexPort}`) && state !== "0A") count++;
    }
  }
  return count;
}

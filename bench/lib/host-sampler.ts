/**
 * The dynamic-provider host that the Pulumi CLI starts (`node …/@pulumi/pulumi/cmd/dynamic-provider`),
 * found among the descendants of the CLI processes this benchmark started, and its memory sampled
 * from /proc while an operation runs (Linux only); beside it, the CPU time of the CLI itself (the
 * engine) and of the program (`node …/@pulumi/pulumi/cmd/run`, the language host's child).
 */
import * as fs from "node:fs";

/** What a sampler saw of the hosts under the CLI processes it watched. */
export interface HostSample {
  /** The highest VmHWM (peak resident set) read of any host, bytes; 0 if none was seen. */
  peakHwm: number;
  /** The highest VmRSS read, bytes. */
  peakRss: number;
  /** The CPU time (user + system) the hosts had used at their last reading, ms. */
  cpuMs: number;
  /** The host processes seen. */
  pids: number[];
  /** The CPU time of the CLI processes (the engine) at their last reading, ms. */
  engineCpuMs: number;
  /** The CPU time of the program's Node.js processes at their last reading, ms. */
  programCpuMs: number;
}

/** Parent of each process now alive, from /proc/<pid>/stat. */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // Exited since the listing.
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  return children;
}

function descendants(roots: readonly number[]): number[] {
  const children = parents();
  const found: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** What a process is, from its command line: a provider host, a program, or neither. */
function kindOf(pid: number): "host" | "program" | undefined {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (cmdline.includes("cmd/dynamic-provider")) return "host";
    return cmdline.includes("cmd/run") ? "program" : undefined;
  } catch {
    return undefined;
  }
}

function reading(pid: number): { hwm: number; rss: number; cpuMs: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const kib = (field: string): number =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime (fields 14 and 15 of stat), in ticks of 10 ms.
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
    return { hwm: kib("VmHWM"), rss: kib("VmRSS"), cpuMs };
  } catch {
    return undefined;
  }
}

/**
 * Samples every `intervalMs` the hosts below the processes `roots()` names (the CLI processes
 * started so far), until `stop()`, which takes one last reading. VmHWM is the kernel's own peak,
 * so a peak between two readings is still seen as long as the host is read once after it.
 */
export function sampleHosts(
  roots: () => readonly number[],
  intervalMs = 100,
): { stop(): HostSample } {
  const sample: HostSample = {
    peakHwm: 0,
    peakRss: 0,
    cpuMs: 0,
    pids: [],
    engineCpuMs: 0,
    programCpuMs: 0,
  };
  const cpuByPid = new Map<number, number>();
  const hosts = new Set<number>();
  const programs = new Set<number>();
  const cpuOf = { engine: new Map<number, number>(), program: new Map<number, number>() };
  const tick = (): void => {
    for (const pid of descendants(roots())) {
      if (hosts.has(pid) || programs.has(pid)) continue;
      const kind = kindOf(pid);
      if (kind === "host") hosts.add(pid);
      if (kind === "program") programs.add(pid);
    }
    for (const pid of hosts) {
      const r = reading(pid);
      if (r === undefined) continue;
      sample.peakHwm = Math.max(sample.peakHwm, r.hwm);
      sample.peakRss = Math.max(sample.peakRss, r.rss);
      cpuByPid.set(pid, r.cpuMs);
    }
    for (const [pids, into] of [
      [roots(), cpuOf.engine],
      [programs, cpuOf.program],
    ] as const) {
      for (const pid of pids) {
        const r = reading(pid);
        if (r !== undefined) into.set(pid, r.cpuMs);
      }
    }
  };
  const sum = (m: Map<number, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
  const timer = setInterval(tick, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      sample.pids = [...hosts];
      sample.cpuMs = sum(cpuByPid);
      sample.engineCpuMs = sum(cpuOf.engine);
      sample.programCpuMs = sum(cpuOf.program);
      return sample;
    },
  };
}

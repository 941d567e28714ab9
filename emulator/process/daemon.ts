/**
 * The emulator as a background process: started detached (it outlives whoever started it),
 * found again later by its data dir, and stopped. `npm start` and `npm run destroy` use it, and
 * so does `arcgis-admin-emulator --detach` / `--stop`.
 *
 * What it keeps in the data dir, beside the emulator's own files:
 * - `emulator.pid`: the emulator's claim on the data dir (emulator/process/lock.ts), written by the
 *   emulator itself; gone once it has stopped.
 * - `emulator.ready`: the ready line, written by the emulator (`--ready-file`); removed at stop.
 * - `emulator.daemon.json` ({@link DAEMON_FILE}): the pid this module started and the ready
 *   line, so that a later call can tell its own emulator from one someone else runs on that dir.
 * - `emulator.log`: the emulator's stdout and stderr.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { EmulatorEndpoints } from "../core/endpoints";
import { PID_FILE } from "./lock";

/** The record this module keeps in the data dir of an emulator it started. */
export const DAEMON_FILE = "emulator.daemon.json";
/** Where the detached emulator writes its ready line (the CLI's `--ready-file`). */
export const READY_FILE = "emulator.ready";
/** Where the detached emulator's stdout and stderr go. */
export const LOG_FILE = "emulator.log";

/** An emulator running in the background: its ready line, its pid and where it logs. */
export interface DetachedEmulator extends EmulatorEndpoints {
  /** The emulator's process id. */
  readonly pid: number;
  /** Its data dir (absolute). */
  readonly dataDir: string;
  /** Its log file (stdout and stderr). */
  readonly logFile: string;
  /** When it was started (ISO 8601). */
  readonly startedAt: string;
}

/** How {@link startDetached} starts the emulator. */
export interface DetachOptions {
  /** The data dir (made if missing); one emulator per data dir. */
  dataDir: string;
  /** More `arcgis-admin-emulator` flags (`--port`, `--seed`, ...); `--data-dir` is added. */
  args?: readonly string[];
  /** The CLI to run (default: the emulator's cli.js, one folder up). */
  cli?: string;
  /** The emulator's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Where it writes its ready line (default: `<dataDir>/emulator.ready`). */
  readyFile?: string;
  /** How long to wait for the ready line (default 30 s). */
  timeoutMs?: number;
}

/** Thrown when the data dir is held by an emulator this module did not start, or one that hangs. */
export class DaemonError extends Error {
  override readonly name = "DaemonError";
}

interface DaemonRecord {
  pid: number;
  ready: EmulatorEndpoints;
  startedAt: string;
  logFile: string;
  /**
   * When the kernel started that process (Linux: `/proc/<pid>/stat` field 22), so that a pid the
   * system has since given to another process is never taken for the emulator.
   */
  processStart?: string;
}

/** When the kernel started process `pid` (clock ticks since boot), where /proc tells. */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8"); // "pid (comm) state ppid ..."
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Whether a process runs; on Linux, an exited one nobody has reaped yet (a zombie) does not. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8"); // "pid (comm) state ..."
    return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  } catch {
    return true;
  }
}

function readPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, PID_FILE), "utf8").trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function readRecord(dataDir: string): DaemonRecord | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(dataDir, DAEMON_FILE), "utf8")) as unknown;
    if (typeof record !== "object" || record === null) return undefined;
    const { pid, ready } = record as Partial<DaemonRecord>;
    return typeof pid === "number" && typeof ready?.adminUrl === "string"
      ? (record as DaemonRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

function detached(dataDir: string, record: DaemonRecord): DetachedEmulator {
  return {
    ...record.ready,
    pid: record.pid,
    dataDir,
    logFile: record.logFile,
    startedAt: record.startedAt,
  };
}

/** Whether the emulator answers on its stats endpoint (HTTPS with its CA, or HTTP). */
function answers(ready: EmulatorEndpoints, timeoutMs = 3000): Promise<boolean> {
  const url = new URL("/__emulator/stats", ready.adminUrl);
  let ca: Buffer | undefined;
  try {
    ca = ready.caCertFile === null ? undefined : fs.readFileSync(ready.caCertFile);
  } catch {
    return Promise.resolve(false);
  }
  const get = url.protocol === "https:" ? https.get : http.get;
  return new Promise((resolve) => {
    const req = get(
      url,
      { ...(ca === undefined ? {} : { ca }), timeout: timeoutMs, agent: false },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve(false));
  });
}

/**
 * The emulator {@link startDetached} left running on `dataDir`, or undefined when none runs
 * there. Throws a {@link DaemonError} when another process holds the data dir, or when the
 * recorded emulator runs but does not answer.
 *
 * @example
 * ```ts
 * const emu = await findRunning(".emulator-data/demo");
 * if (emu !== undefined) console.log(emu.adminUrl, emu.pid);
 * ```
 */
export async function findRunning(dataDir: string): Promise<DetachedEmulator | undefined> {
  const dir = path.resolve(dataDir);
  const found = await detachedHolder(dir, {
    notDetached: (pid) =>
      `The emulator data dir ${dir} is in use by process ${pid}, which was not started ` +
      "detached. Stop that emulator, or use another data dir.",
    silent: (pid, adminUrl) =>
      `The emulator started earlier (process ${pid}) does not answer at ` +
      `${adminUrl}. Stop it (kill ${pid}) and start it again.`,
  });
  return found === undefined ? undefined : detached(dir, found.record);
}

/**
 * The live process that holds `dir`, when it is an emulator started detached that answers;
 * undefined when no live process holds it. Any other holder is refused with the caller's words.
 */
async function detachedHolder(
  dir: string,
  refuse: {
    notDetached: (pid: number) => string;
    silent: (pid: number, adminUrl: string) => string;
  },
): Promise<{ pid: number; record: DaemonRecord } | undefined> {
  const pid = readPid(dir);
  if (pid === undefined || !processAlive(pid)) return undefined;
  const record = readRecord(dir);
  if (record === undefined || record.pid !== pid) throw new DaemonError(refuse.notDetached(pid));
  const start = processStartOf(pid);
  if (record.processStart !== undefined && start !== undefined && start !== record.processStart) {
    // The recorded emulator is gone and its pid now names another process: never signal it.
    throw new DaemonError(
      `Process ${pid}, named by ${dir}, is not the emulator started there (it started at another ` +
        "time: the pid was reused after the emulator ended). Leaving it alone; remove " +
        `${path.join(dir, PID_FILE)} and ${path.join(dir, DAEMON_FILE)} if no emulator runs there.`,
    );
  }
  if (!(await answers(record.ready))) {
    throw new DaemonError(refuse.silent(pid, record.ready.adminUrl));
  }
  return { pid, record };
}

/**
 * Starts the emulator's CLI detached (it keeps running when this process ends: it is started
 * with `--no-exit-with-parent`), its output in `<dataDir>/emulator.log`, and resolves with its
 * ready line once it listens. Does not look for a running one first: see {@link findRunning}.
 *
 * @example
 * ```ts
 * const emu = await startDetached({ dataDir: ".emulator-data/demo", args: ["--port", "20443"] });
 * // later, from any process:
 * await stopDetached(".emulator-data/demo");
 * ```
 */
export async function startDetached(options: DetachOptions): Promise<DetachedEmulator> {
  const dataDir = path.resolve(options.dataDir);
  const cli = options.cli ?? path.join(__dirname, "..", "cli.js");
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first.`);
  fs.mkdirSync(dataDir, { recursive: true });
  const readyFile = path.resolve(options.readyFile ?? path.join(dataDir, READY_FILE));
  const logFile = path.join(dataDir, LOG_FILE);
  fs.rmSync(readyFile, { force: true });
  const out = fs.openSync(logFile, "a");
  const args = [
    cli,
    ...(options.args ?? []),
    // Last, so that they win over the same flags in `args`.
    "--data-dir",
    dataDir,
    "--ready-file",
    readyFile,
    "--no-exit-with-parent",
  ];
  let child;
  try {
    child = spawn(process.execPath, args, {
      detached: true,
      env: options.env ?? process.env,
      stdio: ["ignore", out, out],
      windowsHide: true,
    });
  } finally {
    fs.closeSync(out);
  }
  let exited: number | string | undefined;
  let failure: Error | undefined;
  child.on("exit", (code, signal) => (exited = code ?? signal ?? undefined));
  child.on("error", (error) => (failure = error));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (failure !== undefined) throw failure;
    let text = "";
    try {
      text = fs.readFileSync(readyFile, "utf8");
    } catch {
      // Not written yet.
    }
    const newline = text.indexOf("\n");
    if (newline >= 0 && child.pid !== undefined) {
      const record: DaemonRecord = {
        pid: child.pid,
        ready: JSON.parse(text.slice(0, newline)) as EmulatorEndpoints,
        startedAt: new Date().toISOString(),
        logFile,
      };
      const processStart = processStartOf(child.pid);
      if (processStart !== undefined) record.processStart = processStart;
      fs.writeFileSync(path.join(dataDir, DAEMON_FILE), `${JSON.stringify(record)}\n`);
      child.unref();
      return detached(dataDir, record);
    }
    if (exited !== undefined || Date.now() > deadline) {
      if (exited === undefined) child.kill("SIGKILL");
      const tail = fs.readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-15).join("\n");
      const port = /EADDRINUSE/.test(tail) ? "\nThe port is taken: pick another." : "";
      throw new Error(
        `The emulator ${exited === undefined ? `printed no ready line within ${timeoutMs} ms` : `exited (${exited})`}` +
          `. Its log (${logFile}):\n${tail}${port}`,
      );
    }
    await sleep(50);
  }
}

/**
 * Stops the emulator {@link startDetached} started on `dataDir` (SIGTERM, then waits until it
 * has released the data dir). Resolves with its pid, or undefined when none was running. Never
 * signals a process it did not start, nor one that does not answer as that emulator (a pid file
 * left by a killed emulator may name an unrelated process by now).
 */
export async function stopDetached(
  dataDir: string,
  { timeoutMs = 15_000 }: { timeoutMs?: number } = {},
): Promise<number | undefined> {
  const dir = path.resolve(dataDir);
  const found = await detachedHolder(dir, {
    notDetached: (pid) =>
      `The emulator data dir ${dir} is in use by process ${pid}, which was not started ` +
      "detached: leaving it alone.",
    silent: (pid, adminUrl) =>
      `Process ${pid} holds the emulator data dir ${dir} but does not answer at ` +
      `${adminUrl}; if it is the emulator, stop it yourself.`,
  });
  if (found === undefined) return undefined;
  const { pid } = found;
  process.kill(pid, "SIGTERM");
  // Stopped once it has exited; a zombie counts as exited (reparented to init, it may linger
  // until init reaps it). Where /proc cannot tell a zombie apart, once it has released the data
  // dir, its last step: on Linux that release came a moment before the exit, and a caller that
  // looked at the process right after the stop could still find it running.
  const procfs = fs.existsSync(`/proc/${process.pid}/stat`);
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid) && (procfs || readPid(dir) === pid)) {
    if (Date.now() > deadline) throw new DaemonError(`The emulator (process ${pid}) did not stop.`);
    await sleep(50);
  }
  return pid;
}

/** What the emulator writes into its data dir: {@link removeDetachedData} removes only these. */
const EMULATOR_ENTRIES = [
  "state.json",
  "emulator.pid",
  "emulator.pid.takeover",
  DAEMON_FILE,
  READY_FILE,
  LOG_FILE,
  "requests.log",
  "tls",
  "uploads",
];

/**
 * Removes the emulator's own files from a data dir where {@link startDetached} ran one (stopped
 * first); nothing else there is touched, so an operator's files stay. Returns whether there was
 * such an emulator's record.
 */
export function removeDetachedData(dataDir: string): boolean {
  const dir = path.resolve(dataDir);
  if (!startedDetached(dir)) return false;
  for (const name of fs.readdirSync(dir)) {
    // state.json.<n>: a temporary state file a killed write left behind.
    if (EMULATOR_ENTRIES.includes(name) || /^state\.json\.\d+$/.test(name)) {
      fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  }
  return true;
}

/** Whether `dataDir` holds the record of an emulator {@link startDetached} started. */
export function startedDetached(dataDir: string): boolean {
  return fs.existsSync(path.join(path.resolve(dataDir), DAEMON_FILE));
}

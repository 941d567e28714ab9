/** Child processes of the harness: run one to completion, stop one that runs on. */
import { spawn, type ChildProcess } from "node:child_process";

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to completion, killing it after `timeoutMs`; never rejects on exit codes.
 * `onSpawn` is told the process id (e.g. to signal it while it runs).
 */
export function run(
  command: string,
  args: readonly string[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs: number;
    input?: string;
    onSpawn?: (pid: number) => void;
  },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      // npm is a .cmd shim on Windows.
      shell: process.platform === "win32" && command === "npm",
    });
    child.stdin?.end(options.input);
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[harness] killed after ${options.timeoutMs} ms`;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The last lines of a process's output, for an error message. */
export function tail(text: string, lines = 40): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** SIGTERM, then SIGKILL after 3 s; resolves once the child has exited. */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<void>,
  hasExited: () => boolean,
): Promise<void> {
  if (hasExited()) return;
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      if (!hasExited()) child.kill("SIGKILL");
      resolve();
    }, 3_000);
  });
  await Promise.race([exited, killed]);
  clearTimeout(timer);
  await exited;
}

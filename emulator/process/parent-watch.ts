/**
 * Stops the emulator's CLI when whoever started it is gone. A wrapper such as `npx` or
 * `npm run` that is killed (SIGKILL, a CI runner cancelling a job) forwards no signal, and the
 * emulator would keep running and keep its port; so the CLI watches the processes above it.
 */
import * as fs from "node:fs";

/**
 * The ids of the processes above this one, nearest first, up to (not including) pid 1: the
 * wrapper (`npm`, `npx`, `sh -c`) and whoever started it. Read from `/proc` on Linux; elsewhere
 * only the parent is known.
 */
export function ancestors(pid: number = process.pid): number[] {
  const chain: number[] = [];
  let current = pid;
  for (let depth = 0; depth < 32; depth++) {
    const parent = parentOf(current);
    if (parent === undefined || parent <= 1) break;
    chain.push(parent);
    current = parent;
  }
  if (chain.length === 0 && process.ppid > 1) chain.push(process.ppid);
  return chain;
}

function parentOf(pid: number): number | undefined {
  if (pid === process.pid) return process.ppid;
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ppid = Number(fields[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Calls `onGone` once when any of the processes above this one has exited (checked every
 * `everyMs`). The timer does not keep the process alive.
 *
 * @returns a function that stops watching.
 */
export function watchAncestors(onGone: (pid: number) => void, everyMs = 1000): () => void {
  const watched = ancestors();
  const timer = setInterval(() => {
    const gone =
      watched.find((pid) => !alive(pid)) ?? (process.ppid !== watched[0] ? watched[0] : undefined);
    if (gone === undefined) return;
    clearInterval(timer);
    onGone(gone);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * One emulator per data dir: a pid file taken with an exclusive create (`open(..., "wx")`),
 * which the file system grants to exactly one of any number of simultaneous starts. A pid
 * file whose process is gone (a killed emulator) is taken over, under a second exclusive
 * file so that two starts never both remove it and both win.
 *
 * Hand-written rather than `proper-lockfile`: that library judges staleness by the age of
 * the lock (it refreshes an mtime on a timer), so a restart right after a SIGKILL would have
 * to wait out the stale period; here a dead owner is recognized at once by its pid.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Name of the lock file inside the data dir. */
export const PID_FILE = "emulator.pid";
const TAKEOVER_FILE = "emulator.pid.takeover";

/** Data dirs claimed by emulators of this process (the pid alone cannot tell them apart). */
const lockedHere = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Creates `file` with `content` only if it does not exist; false if it does. */
async function createExclusive(file: string, content: string): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** The pid in a lock file: a number, null if unreadable or empty, "gone" if there is no file. */
async function ownerOf(file: string): Promise<number | null | "gone"> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  const pid = Number(text.trim());
  return text.trim() !== "" && Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

function isStale(owner: number): boolean {
  // This process's own pid: the caller holds the in-process claim, so the file is a leftover.
  return owner === process.pid || !processAlive(owner);
}

/**
 * Removes the pid file of a dead owner, unless someone else is doing so or the file changed
 * meanwhile. Returns once the attempt is over (the caller then tries to create again).
 */
async function takeOver(dataDir: string, deadOwner: number | null): Promise<void> {
  const takeover = path.join(dataDir, TAKEOVER_FILE);
  if (!(await createExclusive(takeover, `${process.pid}\n`))) {
    const holder = await ownerOf(takeover);
    // A takeover left by a process that died in the middle of one: clear it.
    if (typeof holder === "number" && holder !== process.pid && !processAlive(holder)) {
      await fs.rm(takeover, { force: true });
    }
    return;
  }
  try {
    // Re-read under the takeover file: only the same dead owner's file may go.
    if ((await ownerOf(path.join(dataDir, PID_FILE))) === deadOwner) {
      await fs.rm(path.join(dataDir, PID_FILE), { force: true });
    }
  } finally {
    await fs.rm(takeover, { force: true });
  }
}

/**
 * Claims the data dir for this emulator; throws if another live emulator holds it.
 *
 * @returns a function that releases the claim.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  // Within one process the pid cannot tell emulators apart: claim the dir synchronously first.
  if (lockedHere.has(dataDir)) {
    throw new Error(
      `The data dir ${dataDir} is in use by another emulator (process ${process.pid}).`,
    );
  }
  lockedHere.add(dataDir);
  try {
    return await lockFile(dataDir);
  } catch (error) {
    lockedHere.delete(dataDir);
    throw error;
  }
}

async function lockFile(dataDir: string): Promise<() => Promise<void>> {
  const pidFile = path.join(dataDir, PID_FILE);
  // Bounded: each round either wins, finds a live owner, or clears a dead one.
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await createExclusive(pidFile, `${process.pid}\n`)) {
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        lockedHere.delete(dataDir);
        await fs.rm(pidFile, { force: true });
      };
    }
    const owner = await ownerOf(pidFile);
    if (owner === "gone") continue;
    if (owner === null) {
      // Created by a start that has not written its pid yet, which takes microseconds; a
      // file that stays empty for seconds was left by a crash in between.
      const age =
        Date.now() - (await fs.stat(pidFile).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 5000) await takeOver(dataDir, null);
      else await sleep(20);
      continue;
    }
    if (!isStale(owner)) {
      throw new Error(`The data dir ${dataDir} is in use by another emulator (process ${owner}).`);
    }
    await takeOver(dataDir, owner);
    await sleep(5);
  }
  throw new Error(
    `The data dir ${dataDir} is in use by another emulator (its lock ${pidFile} could not be taken).`,
  );
}

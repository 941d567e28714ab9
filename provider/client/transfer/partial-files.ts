/**
 * The partial files a download writes before it publishes an archive: how they are named, and
 * which left-overs of killed or stalled downloads may be removed.
 */
import { createHash, randomBytes } from "node:crypto";
import { lstat, readdir, rm } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * Partial files are named `.<final name>.<host>-<pid>-<random>.part`: `<host>` is the first 8 hex
 * digits of the SHA-256 of this machine's host name and `<pid>` the writing process, so that a
 * later download can tell a partial file left by a killed process (kill -9 skips every cleanup)
 * from one that another download is still writing.
 *
 * @internal
 */
export function partialTag(): string {
  return `${HOST_TAG}-${process.pid}-${randomBytes(6).toString("hex")}`;
}

const HOST_TAG = createHash("sha256").update(hostname()).digest("hex").slice(0, 8);

/**
 * Our partial files: `.<name>.<host>-<pid>-<random>.part`, and `.<name>.<random>.part` as written
 * by earlier versions (without host and pid).
 */
const PARTIAL_NAME = /^\..+\.(?:([0-9a-f]{8})-(\d+)-)?[0-9a-f]{12}\.part$/;

/**
 * A partial file nobody has written for this long is stale whoever wrote it. A live download
 * writes at least every `timeouts.bodyMs` (5 minutes by default) or fails; an hour leaves room
 * for a caller's longer limit, and is still short next to "forever".
 *
 * @internal
 */
export const STALE_PARTIAL_MS = 60 * 60_000;

/**
 * Removes partial files of our own naming in `dir` that no download will ever finish: written on
 * this machine by a process that no longer runs, or not written for {@link STALE_PARTIAL_MS}.
 * Files of other naming, and partial files of live processes (this one included: parallel
 * downloads), stay. Best effort: a file that cannot be examined or removed is left alone.
 *
 * @internal
 */
export async function removeStalePartials(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = PARTIAL_NAME.exec(name);
    if (!match) continue;
    const path = join(dir, name);
    try {
      const stat = await lstat(path);
      if (!stat.isFile()) continue;
      const writerGone =
        match[1] === HOST_TAG && Number(match[2]) !== process.pid && !isRunning(Number(match[2]));
      if (writerGone || Date.now() - stat.mtimeMs > STALE_PARTIAL_MS)
        await rm(path, { force: true });
    } catch {
      // Removed meanwhile, or not ours to remove: leave it.
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, under another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

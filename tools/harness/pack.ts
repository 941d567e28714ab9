/**
 * Packing this repository (or a fixture package) with `npm pack`, once per snapshot of its files,
 * into a cache shared by every suite of a run and by the benchmark.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { run, tail } from "./process";
import { PACKAGE_NAME, PACK_REF_ENV, REPO_ROOT } from "./project";
import { runTempDir } from "./temp";

/** Which state of this repository to pack. */
export type PackSource = "worktree" | { ref: string };

const packCache = new Map<string, Promise<string>>();
const CACHE_DIR = path.join(os.tmpdir(), "pulumi-arcgis-admin-engine-tests");

/**
 * Packs this repository with `npm pack` (which runs `prepack`, i.e. the build)
 * in a snapshot directory and returns the tarball path. A clean working tree
 * is packed as HEAD.
 *
 * The build runs in a temporary copy, never in the repository: the repo's
 * `dist/` is left alone, colleagues' concurrent builds cannot race with it,
 * and a git ref can be packed as easily as the working tree. The default is
 * the working tree (tracked files plus untracked, non-ignored ones), so the
 * suites test the code being written; set `ENGINE_TESTS_PACK_REF=HEAD` (or
 * pass `{ref}`) to pin a commit while someone else's half-written file breaks
 * the build. Tarballs are cached in the OS temp dir by a hash of the snapshot,
 * so every suite of a jest run (one module registry each) reuses one build.
 *
 * @param source - `"worktree"` (default, or the env override) or `{ref: "HEAD"}`.
 * @example `const tgz = await packRepo({ ref: "HEAD" })`
 */
export function packRepo(source?: PackSource): Promise<string> {
  const envRef = process.env[PACK_REF_ENV];
  const chosen: PackSource = source ?? (envRef ? { ref: envRef } : "worktree");
  const key = chosen === "worktree" ? "worktree" : `ref:${chosen.ref}`;
  let pending = packCache.get(key);
  if (pending === undefined) {
    pending = packRepoUncached(chosen);
    packCache.set(key, pending);
    // A failed build must not be cached for the rest of the process.
    pending.catch(() => packCache.delete(key));
  }
  return pending;
}

async function packRepoUncached(source: PackSource): Promise<string> {
  // A clean working tree is HEAD: share its cache entry, so CI builds once.
  if (source === "worktree" && (await isCleanGitTree())) source = { ref: "HEAD" };
  const snapshot = runTempDir("arcgis-pack-src-");
  try {
    let key: string;
    if (source === "worktree") {
      key = `worktree-${await copyFiles(REPO_ROOT, await worktreeFiles(), snapshot)}`;
    } else {
      key = `tree-${(await git(["rev-parse", `${source.ref}^{tree}`])).trim()}`;
    }
    const cached = path.join(CACHE_DIR, `${PACKAGE_NAME}-${key}.tgz`);
    if (fs.existsSync(cached)) return cached;
    // Jest starts several suites at once, each in its own process: one builds this tarball
    // while the others wait for it, instead of each running the same build.
    const release = await buildLock(cached);
    try {
      if (fs.existsSync(cached)) return cached;
      if (source !== "worktree") await extractGitRef(source.ref, snapshot);
      // The build needs devDependencies (typescript, @types): borrow the repo's.
      await fsp.symlink(
        path.join(REPO_ROOT, "node_modules"),
        path.join(snapshot, "node_modules"),
        "junction",
      );
      const label =
        source === "worktree" ? "the working tree" : `git ref ${JSON.stringify(source.ref)}`;
      return await packInto(snapshot, label, cached);
    } finally {
      await release();
    }
  } finally {
    await fsp.rm(snapshot, { recursive: true, force: true });
  }
}

/** How long a process may wait for another's build of the same tarball. */
const BUILD_LOCK_WAIT_MS = 600_000;

/**
 * Takes the build lock of one tarball: a folder beside it, which `mkdir` creates for one process
 * only, holding the owner's pid. A lock whose owner has ended (a killed run) is taken over.
 * Resolves with the function that releases it.
 *
 * @internal
 */
export async function buildLock(tarball: string): Promise<() => Promise<void>> {
  await fsp.mkdir(CACHE_DIR, { recursive: true });
  const lock = `${tarball}.lock`;
  const owner = path.join(lock, "pid");
  const deadline = Date.now() + BUILD_LOCK_WAIT_MS;
  for (;;) {
    try {
      await fsp.mkdir(lock);
      await fsp.writeFile(owner, String(process.pid));
      return () => fsp.rm(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (fs.existsSync(tarball)) return async () => {};
    const pid = Number(await fsp.readFile(owner, "utf8").catch(() => "0"));
    // No pid yet: the owner is between its mkdir and its write, unless it died there.
    const age = Date.now() - ((await fsp.stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
    if (pid > 0 ? !processAlive(pid) : age > 10_000) {
      await fsp.rm(lock, { recursive: true, force: true });
    }
    if (Date.now() > deadline) {
      throw new Error(`another process has held ${lock} for ${BUILD_LOCK_WAIT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Packs a package folder (e.g. a test fixture) with `npm pack` and returns the
 * tarball path, cached by a hash of the folder's files.
 *
 * @param dir - the folder holding package.json.
 * @example `await packDirectory(path.join(__dirname, "fixtures/echo-provider"))`
 */
export async function packDirectory(dir: string): Promise<string> {
  const hash = await copyFiles(dir, await listFiles(dir, new Set(["node_modules"])));
  const cached = path.join(CACHE_DIR, `${path.basename(dir)}-${hash}.tgz`);
  if (fs.existsSync(cached)) return cached;
  return packInto(dir, dir, cached);
}

/** Runs `npm pack` in `dir` and moves the tarball to `cached` atomically. */
async function packInto(dir: string, label: string, cached: string): Promise<string> {
  const out = runTempDir("arcgis-pack-out-");
  try {
    const result = await run("npm", ["pack", "--pack-destination", out, "--loglevel", "error"], {
      cwd: dir,
      timeoutMs: 180_000,
    });
    const tarballs = (await fsp.readdir(out)).filter((f) => f.endsWith(".tgz"));
    if (result.code !== 0 || tarballs.length !== 1) {
      throw new Error(
        `npm pack of ${label} failed (exit ${result.code ?? result.signal}). If the errors are ` +
          `in files someone is still editing, retry later or set ${PACK_REF_ENV}=HEAD.\n` +
          tail(`${result.stdout}\n${result.stderr}`),
      );
    }
    await fsp.mkdir(CACHE_DIR, { recursive: true });
    await pruneCache();
    // Rename is atomic: parallel jest workers never see half a tarball.
    const partial = `${cached}.${process.pid}.partial`;
    await fsp.copyFile(path.join(out, tarballs[0]!), partial);
    await fsp.rename(partial, cached);
    return cached;
  } finally {
    await fsp.rm(out, { recursive: true, force: true });
  }
}

/** Drops cached tarballs not built for a week (each edit of the sources adds one). */
async function pruneCache(): Promise<void> {
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  for (const entry of await fsp.readdir(CACHE_DIR)) {
    const file = path.join(CACHE_DIR, entry);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat !== undefined && stat.mtimeMs < weekAgo) await fsp.rm(file, { force: true });
  }
}

async function git(args: readonly string[]): Promise<string> {
  const result = await run("git", args, { cwd: REPO_ROOT, timeoutMs: 60_000 });
  if (result.code !== 0) {
    throw new Error(`git ${args.join(" ")} failed: ${tail(result.stderr)}`);
  }
  return result.stdout;
}

async function isCleanGitTree(): Promise<boolean> {
  try {
    return (await git(["status", "--porcelain"])).trim() === "";
  } catch {
    return false;
  }
}

/** Tracked and untracked-but-not-ignored files: what a clone plus local edits holds. */
async function worktreeFiles(): Promise<string[]> {
  try {
    const listing = await git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
    return [...new Set(listing.split("\0").filter((f) => f !== ""))].sort();
  } catch {
    // Not a git checkout (e.g. an unpacked source archive): take the tree as is.
    return listFiles(REPO_ROOT, new Set(["node_modules", "dist", "coverage", ".git"]));
  }
}

/** Relative paths of the files under `root`, skipping directories with these names. */
async function listFiles(root: string, skip: ReadonlySet<string>): Promise<string[]> {
  const files: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fsp.readdir(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === "" ? entry.name : path.join(relative, entry.name);
      if (entry.isDirectory() && !skip.has(entry.name)) await walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  await walk("");
  return files.sort();
}

/**
 * Hashes paths and contents of `files` (relative to `root`) and, given a
 * destination, copies them there. Missing files are skipped: `git ls-files
 * --cached` still lists files deleted from the working tree.
 */
async function copyFiles(
  root: string,
  files: readonly string[],
  destination?: string,
): Promise<string> {
  const hash = createHash("sha256");
  for (const file of files) {
    const from = path.join(root, file);
    const stat = await fsp.lstat(from).catch(() => undefined);
    if (stat === undefined || !stat.isFile()) continue;
    const content = await fsp.readFile(from);
    // The mode too: an executable (bin/pulumi-resource-arcgis-admin) must stay one when packed.
    const mode = stat.mode & 0o777;
    hash.update(file).update("\0").update(content).update("\0").update(String(mode));
    if (destination !== undefined) {
      const to = path.join(destination, file);
      await fsp.mkdir(path.dirname(to), { recursive: true });
      await fsp.writeFile(to, content, { mode });
    }
  }
  return hash.digest("hex").slice(0, 24);
}

async function extractGitRef(ref: string, destination: string): Promise<void> {
  const archive = path.join(destination, ".archive.tar");
  await git(["archive", "--format=tar", "-o", archive, ref]);
  const result = await run("tar", ["-xf", archive, "-C", destination], {
    cwd: destination,
    timeoutMs: 60_000,
  });
  await fsp.rm(archive, { force: true });
  if (result.code !== 0) throw new Error(`tar -xf of git ref ${ref} failed: ${result.stderr}`);
}

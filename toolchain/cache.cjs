// @ts-check
"use strict";
/**
 * The one way the toolchain keeps what it builds: in `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/
 * <tool>/<key>/`, outside the repository, built once and reused. A build goes into a temporary
 * folder beside its place and is renamed into place only when it is complete, so an interrupted
 * build leaves nothing that looks finished. Concurrent builders wait for each other (a lock folder
 * holding the builder's pid, taken over from a process that is gone), or, for a build cheap enough
 * to race, the first rename wins.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** A failure with a message for people: the toolchain's commands print it without a stack. */
class ToolchainError extends Error {}

/**
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/<name>`: the project's cache folders.
 *
 * @param {string} name
 */
function projectCache(name, env = process.env) {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "pulumi-arcgis-admin", name);
}

/**
 * A tool's cache folder: the one the variable `override` names when it is set, else
 * {@link projectCache}.
 *
 * @param {string} name
 * @param {string | undefined} override
 */
function toolCache(name, override, env = process.env) {
  const given = override === undefined ? undefined : env[override];
  return given ? path.resolve(given) : projectCache(name, env);
}

/** @param {string} file */
function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @param {number} pid */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * Takes a build lock (a folder holding the holder's pid); waits while a live process holds it and
 * takes it over from a process that is gone. Returns the release.
 *
 * @param {string} dir
 * @param {(line: string) => void} log
 * @param {string} what what the holder is doing, for the waiting line ("building SeaweedFS").
 * @returns {Promise<() => void>}
 */
async function takeLock(dir, log, what) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "pid"), String(process.pid));
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    }
    let holder;
    try {
      holder = Number(fs.readFileSync(path.join(dir, "pid"), "utf8"));
    } catch {
      holder = undefined;
    }
    if (holder !== undefined && Number.isInteger(holder) && holder > 0 && !processAlive(holder)) {
      fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (!told) log(`Another process (${holder || "starting"}) is ${what}; waiting for it.`);
    told = true;
    await sleep(1000);
  }
}

/**
 * Builds `<root>/<key>`: `build` writes the folder `out` (it does not exist yet; `work`, its
 * parent, is scratch space beside the cache), which is then renamed to `<root>/<key>`, replacing
 * what was there; with `firstWins`, a folder another builder renamed there first is kept instead.
 * The scratch space is removed in every case.
 *
 * @param {string} root
 * @param {string} key
 * @param {(out: string, work: string) => Promise<void> | void} build
 * @param {{firstWins?: boolean}} [options]
 * @returns {Promise<string>} the folder
 */
async function buildInto(root, key, build, { firstWins = false } = {}) {
  const { work, out, target } = openBuild(root, key);
  try {
    await build(out, work);
    return closeBuild(out, target, firstWins);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * {@link buildInto} of a synchronous build, done when it returns.
 *
 * @param {string} root
 * @param {string} key
 * @param {(out: string, work: string) => void} build
 * @param {{firstWins?: boolean}} [options]
 * @returns {string} the folder
 */
function buildIntoSync(root, key, build, { firstWins = false } = {}) {
  const { work, out, target } = openBuild(root, key);
  try {
    build(out, work);
    return closeBuild(out, target, firstWins);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** @param {string} root @param {string} key */
function openBuild(root, key) {
  fs.mkdirSync(root, { recursive: true });
  const work = fs.mkdtempSync(path.join(root, `.build-${key}-`));
  return { work, out: path.join(work, "out"), target: path.join(root, key) };
}

/** @param {string} out @param {string} target @param {boolean} firstWins */
function closeBuild(out, target, firstWins) {
  if (!firstWins) fs.rmSync(target, { recursive: true, force: true });
  try {
    fs.renameSync(out, target);
  } catch (error) {
    if (!firstWins || !fs.existsSync(target)) throw error;
  }
  return target;
}

/**
 * A build of the cache: `find()` when it has it, else built once by {@link buildInto} under the
 * lock `<root>/.lock` (or racing, first rename wins, with `lock: false`) and found then.
 * `prepare` runs before the lock is taken, only when a build is needed (checks that say what to
 * install, a line saying what is built); it may return a value `build` receives. `incomplete`
 * is the message when the build is not found once done.
 *
 * @template T, P
 * @param {{
 *   root: string,
 *   key: string,
 *   find: () => T | undefined,
 *   prepare: () => P,
 *   build: (out: string, work: string, prepared: P) => Promise<void> | void,
 *   log: (line: string) => void,
 *   what: string,
 *   lock?: boolean,
 *   incomplete?: string,
 * }} options
 * @returns {Promise<{value: T, built: boolean}>}
 */
async function buildOnce(options) {
  const { root, key, find, prepare, build, log, what, lock = true } = options;
  const found = find();
  if (found !== undefined) return { value: found, built: false };
  const prepared = prepare();
  const release = lock ? await takeLock(path.join(root, ".lock"), log, what) : () => {};
  try {
    const again = find(); // built by whoever held the lock
    if (again !== undefined) return { value: again, built: false };
    const dir = await buildInto(root, key, (out, work) => build(out, work, prepared), {
      firstWins: !lock,
    });
    const built = find();
    if (built === undefined) {
      throw new ToolchainError(options.incomplete ?? `The build in ${dir} is incomplete.`);
    }
    return { value: built, built: true };
  } finally {
    release();
  }
}

/**
 * Writes a file when its content differs (a temporary file renamed over it, so that a running
 * engine never starts half a script).
 *
 * @param {string} file
 * @param {string | Buffer} content
 * @param {number} mode
 */
function writeIfChanged(file, content, mode) {
  try {
    if (fs.readFileSync(file).equals(Buffer.from(content))) return;
  } catch {
    // Missing: written below.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const next = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(next, content, { mode });
  fs.renameSync(next, file);
}

/**
 * Points `link` at `target` unless it already does (a new link renamed over it, so that a running
 * engine never finds none).
 *
 * @param {string} link
 * @param {string} target
 */
function linkIfChanged(link, target) {
  try {
    if (fs.readlinkSync(link) === target) return;
  } catch {
    // Missing, or a file: replaced below.
  }
  fs.mkdirSync(path.dirname(link), { recursive: true });
  const next = `${link}.${process.pid}.tmp`;
  fs.rmSync(next, { force: true });
  fs.symlinkSync(target, next);
  fs.renameSync(next, link);
}

module.exports = {
  ToolchainError,
  projectCache,
  toolCache,
  isExecutable,
  sleep,
  processAlive,
  takeLock,
  buildInto,
  buildIntoSync,
  buildOnce,
  writeIfChanged,
  linkIfChanged,
};

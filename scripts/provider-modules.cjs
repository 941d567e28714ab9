// @ts-check
"use strict";
/**
 * Puts the modules that pulumi-arcgis-admin's providers load in the dynamic-provider host into
 * Node's compile cache, from the driver (scripts/pulumi-driver.cjs).
 *
 * The driver turns the compile cache on for itself and, through the environment, for the host.
 * The host reads it (the 767 modules of @pulumi/pulumi it shares with the driver), but never
 * writes it: the engine kills the host at the end of a run, before Node's own save at exit. So
 * the modules only the host loads (the implementations, the client, zod and undici: about 310)
 * were compiled anew in every run; loading the Site's implementation took 128 to 160 ms instead
 * of 71 to 89 ms (measured with Node 24 on the 2-core machine of bench/RESULTS.md).
 *
 * The host must not save the cache itself: it compiles every dynamic provider's serialized
 * closure from a string, and Node keeps the code of such modules in the cache too, string
 * literals included; a closure that captured an object holding a secret would put the secret,
 * in plain text, on disk (seen with Node 24). The driver compiles no such code, so it loads the
 * implementations itself (every `dist/provider/resources/<name>.js`, the files the released
 * providers require) and saves the cache at once, before closure serialization opens its
 * inspector session (code compiled after that is rejected by other processes). A record of the
 * files it loaded (size and modification time), kept in the cache folder, lets later runs skip
 * this until one changes or the cache is removed: about 80 to 130 ms of one core, once.
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const nodeModule = require("node:module");
const path = require("node:path");

/** The package whose providers the host runs. */
const PACKAGE = "pulumi-arcgis-admin";

/**
 * The record of what was put into the compile cache for the package at `root`. It is kept in the
 * cache's own folder (`cacheDir` is Node's folder for this Node version inside it), so that it
 * goes when the cache is removed.
 *
 * @param {string} cacheDir
 * @param {string} root
 */
function recordFile(cacheDir, root) {
  const key = crypto
    .createHash("sha256")
    .update(`${path.basename(cacheDir)}\0${root}`)
    .digest("hex")
    .slice(0, 24);
  return path.join(path.dirname(cacheDir), `pulumi-arcgis-admin-provider-modules-${key}.json`);
}

/**
 * Size and modification time of a file, or undefined when it is gone.
 *
 * @param {string} file
 * @returns {[number, number] | undefined}
 */
function stamp(file) {
  try {
    const s = fs.statSync(file);
    return [s.size, s.mtimeMs];
  } catch {
    return undefined;
  }
}

/**
 * Whether the record lists files that are all unchanged.
 *
 * @param {string} file
 */
function upToDate(file) {
  /** @type {unknown} */
  let read;
  try {
    read = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return false;
  }
  if (read === null || typeof read !== "object") return false;
  const files = /** @type {{files?: Record<string, [number, number]>}} */ (read).files ?? {};
  const entries = Object.entries(files);
  return (
    entries.length > 0 &&
    entries.every(([f, [size, mtime]]) => {
      const now = stamp(f);
      return now !== undefined && now[0] === size && now[1] === mtime;
    })
  );
}

/**
 * When Node's compile cache is on and the program's folder resolves pulumi-arcgis-admin, loads the
 * package's provider implementations (unless the record says they are cached and unchanged) and
 * saves the compile cache. Must run before anything is compiled from a string in this process
 * and before closure serialization (see above). Returns whether it loaded them; any failure is
 * left to the host, which loads the same files.
 *
 * @param {string} programDir
 * @returns {boolean}
 */
function cacheProviderModules(programDir) {
  const cacheDir = nodeModule.getCompileCacheDir();
  if (cacheDir === undefined) return false;
  try {
    // As a module of the program's folder resolves it (this script's own `require` would find
    // the repository's package by self-reference).
    const programRequire = nodeModule.createRequire(path.join(programDir, "index.js"));
    const root = fs.realpathSync(path.dirname(programRequire.resolve(`${PACKAGE}/package.json`)));
    const record = recordFile(cacheDir, root);
    if (upToDate(record)) return false;
    const entries = path.join(root, "dist", "provider", "resources");
    const before = new Set(Object.keys(require.cache));
    for (const name of fs.readdirSync(entries).sort()) {
      if (name.endsWith(".js") && name !== "index.js") require(path.join(entries, name));
    }
    nodeModule.flushCompileCache();
    const loaded = Object.keys(require.cache).filter((f) => !before.has(f));
    /** @type {Record<string, [number, number]>} */
    const files = {};
    for (const f of loaded) {
      const s = stamp(f);
      if (s !== undefined) files[f] = s;
    }
    fs.mkdirSync(path.dirname(record), { recursive: true });
    const temporary = `${record}.${process.pid}`;
    fs.writeFileSync(temporary, JSON.stringify({ files }));
    fs.renameSync(temporary, record);
    return true;
  } catch {
    return false;
  }
}

module.exports = { cacheProviderModules };

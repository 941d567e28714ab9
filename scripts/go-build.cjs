// @ts-check
"use strict";
/**
 * What the scripts that build a Go program into the cache share (scripts/object-store.cjs builds
 * SeaweedFS with them, scripts/local-kms.cjs local-kms): the cache's base folder, finding `go` and
 * its version, the build lock (a folder holding the builder's pid, taken over when that process is
 * gone), and running a command with progress lines.
 */
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/**
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/<name>`: the project's cache folders.
 *
 * @param {string} name
 */
function projectCache(name, env = process.env) {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "pulumi-arcgis-admin", name);
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

/** The `go` command: on PATH, else in $GOROOT/bin. Undefined when there is none. */
function findGo(env = process.env) {
  const dirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  if (env.GOROOT) dirs.push(path.join(env.GOROOT, "bin"));
  for (const dir of dirs) {
    const candidate = path.join(dir, process.platform === "win32" ? "go.exe" : "go");
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * @param {string} go
 * @returns {[number, number] | undefined}
 */
function goVersion(go) {
  const result = spawnSync(go, ["env", "GOVERSION"], { encoding: "utf8" });
  const match = /^go(\d+)\.(\d+)/.exec((result.stdout ?? "").trim());
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/**
 * Whether a Go version is at least a minimum.
 *
 * @param {[number, number] | undefined} version
 * @param {[number, number]} minimum
 */
function goAtLeast(version, minimum) {
  if (version === undefined) return false;
  return version[0] > minimum[0] || (version[0] === minimum[0] && version[1] >= minimum[1]);
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
    if (!told) log(`Another process (${holder ?? "starting"}) is ${what}; waiting for it.`);
    told = true;
    await sleep(1000);
  }
}

/**
 * Runs a command, passing its output lines to `onLine`, and prints a heartbeat every 30 s
 * (`what`: a text, or a function that gives the current one).
 * Resolves with {code, output} (the output's last 200 lines).
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{
 *   cwd: string,
 *   env: NodeJS.ProcessEnv,
 *   log: (line: string) => void,
 *   onLine?: (line: string) => void,
 *   what: string | (() => string),
 * }} options
 * @returns {Promise<{code: number, output: string}>}
 */
function run(command, args, { cwd, env, log, onLine, what }) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    /** @type {string[]} */
    const tail = [];
    let buffered = "";
    /** @param {string} chunk */
    const take = (chunk) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 200) tail.shift();
        onLine?.(line);
      }
    };
    child.stdout.setEncoding("utf8").on("data", take);
    child.stderr.setEncoding("utf8").on("data", take);
    const heartbeat = setInterval(() => {
      const doing = typeof what === "function" ? what() : what;
      log(`  ... ${doing} (${Math.round((Date.now() - started) / 1000)} s so far)`);
    }, 30_000);
    child.on("error", (error) => {
      clearInterval(heartbeat);
      reject(error);
    });
    child.on("close", (code) => {
      clearInterval(heartbeat);
      if (buffered !== "") tail.push(buffered);
      resolve({ code: code ?? 1, output: tail.join("\n") });
    });
  });
}

/** Whether a `go build -v` output line names a compiled package. */
function isPackageLine(/** @type {string} */ line) {
  return /^[\w.-]+(\/[\w.@~-]+)*$/.test(line);
}

module.exports = {
  projectCache,
  isExecutable,
  findGo,
  goVersion,
  goAtLeast,
  sleep,
  processAlive,
  takeLock,
  run,
  isPackageLine,
};

#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Installs Esri's ArcGIS API for Python (`arcgis` from PyPI, unmodified) into a virtualenv in a
 * cache outside the repository, and reuses it when it is there. tests/python-api/ drives the
 * emulator with it.
 *
 * Usage: node scripts/python-api.cjs [--print-python] [--quiet]
 *   installs (or finds) the virtualenv; with --print-python prints its python's path on stdout.
 *
 * What it installs: `arcgis==2.4.4` with its declared dependencies, plus `six`, which
 * `arcgis.gis.admin` imports (through arcgis.raster) but arcgis 2.4.4 does not declare: without it
 * `gis.admin` fails with "No module named 'six'".
 *
 * Cache: ARCGIS_ADMIN_PYTHON_CACHE, else `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/python-api`,
 * one folder per package set (`arcgis-2.4.4-<python version>`). The install goes to a temporary
 * folder renamed into place only once `import arcgis` works, so an interrupted install leaves
 * nothing that looks finished. Concurrent callers wait for each other (a lock folder holding the
 * installer's pid). Python: ARCGIS_ADMIN_PYTHON, else `python3` on PATH (3.9 or newer, with venv).
 */
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

/** The packages installed, pinned: the library under test and what it forgets to declare. */
const ARCGIS_VERSION = "2.4.4";
const PACKAGES = [`arcgis==${ARCGIS_VERSION}`, "six"];
/** How long a lock may be held by a living installer before we give up waiting. */
const LOCK_WAIT_MS = 20 * 60_000;

class PythonApiError extends Error {}

function cacheRoot(env = process.env) {
  if (env.ARCGIS_ADMIN_PYTHON_CACHE) return path.resolve(env.ARCGIS_ADMIN_PYTHON_CACHE);
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "pulumi-arcgis-admin", "python-api");
}

/**
 * The base python to build the virtualenv with, and its version (`3.11`).
 *
 * @param {NodeJS.ProcessEnv} [env]
 * @param {string} [who] what needs it, for the message when it is missing or too old.
 */
function basePython(env = process.env, who = "The ArcGIS API for Python tests") {
  const python = env.ARCGIS_ADMIN_PYTHON || "python3";
  const probe = spawnSync(
    python,
    ["-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"],
    { encoding: "utf8" },
  );
  if (probe.error !== undefined || probe.status !== 0) {
    throw new PythonApiError(
      `${who} need Python 3.9 or newer with the venv module, as ` +
        `\`${python}\` (set ARCGIS_ADMIN_PYTHON to use another). ` +
        (probe.error !== undefined
          ? `It could not be run: ${probe.error.message}.`
          : `It failed: ${(probe.stderr || "").trim().split("\n").at(-1)}.`) +
        ` On Debian or Ubuntu: apt-get install python3 python3-venv.`,
    );
  }
  const version = probe.stdout.trim();
  const [major, minor] = version.split(".").map(Number);
  if (major !== 3 || (minor ?? 0) < 9) {
    throw new PythonApiError(`\`${python}\` is Python ${version}; ${who} need 3.9 or newer.`);
  }
  return { python, version };
}

/** @param {string} dir */
function venvPython(dir) {
  return path.join(dir, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
}

/**
 * Whether a finished virtualenv answers `import arcgis` with the pinned version.
 *
 * @param {string} dir
 */
function works(dir) {
  const check = spawnSync(
    venvPython(dir),
    ["-c", "import arcgis, six; print(arcgis.__version__)"],
    { encoding: "utf8" },
  );
  return check.status === 0 && check.stdout.trim() === ARCGIS_VERSION;
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {(line: string) => void} log
 */
function run(command, args, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    /** @param {Buffer} chunk */
    const take = (chunk) => {
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-4000);
      for (const line of text.split("\n")) {
        // pip's progress: one line per package collected or installed.
        if (/^(Collecting|Installing collected|Successfully installed)/.test(line.trim())) {
          log(line.trim().slice(0, 200));
        }
      }
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(undefined)
        : reject(new PythonApiError(`\`${command} ${args.join(" ")}\` failed (${code}):\n${tail}`)),
    );
  });
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * Takes the lock folder, waiting for a living holder; a dead holder's lock is taken over.
 *
 * @param {string} lockDir
 * @param {(line: string) => void} log
 * @returns {Promise<() => void>} releases the lock
 */
async function lock(lockDir, log) {
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    }
    let pid = NaN;
    try {
      pid = Number(fs.readFileSync(path.join(lockDir, "pid"), "utf8"));
    } catch {
      // Being written or removed: look again.
    }
    if (Number.isSafeInteger(pid) && pid > 0 && !alive(pid)) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) {
      throw new PythonApiError(`Another install (pid ${pid}) holds ${lockDir} for too long.`);
    }
    if (!told) {
      log(`waiting for another install of the ArcGIS API for Python (pid ${pid})`);
      told = true;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The virtualenv's python, installed first when missing.
 *
 * @param {{log?: (line: string) => void, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<string>}
 */
async function ensurePythonApi(options = {}) {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line) => process.stderr.write(`python-api: ${line}\n`));
  const { python, version } = basePython(env);
  const root = cacheRoot(env);
  const dir = path.join(root, `arcgis-${ARCGIS_VERSION}-py${version}`);
  if (fs.existsSync(dir) && works(dir)) return venvPython(dir);
  fs.mkdirSync(root, { recursive: true });
  const release = await lock(path.join(root, ".lock"), log);
  try {
    if (fs.existsSync(dir) && works(dir)) return venvPython(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    const temp = `${dir}.partial-${process.pid}`;
    fs.rmSync(temp, { recursive: true, force: true });
    const started = Date.now();
    log(`installing ${PACKAGES.join(" ")} into ${dir} (once; about a minute, ~650 MB)`);
    try {
      await run(python, ["-m", "venv", temp], log);
      await run(
        venvPython(temp),
        ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", ...PACKAGES],
        log,
      );
      // A venv's scripts name their folder: moving it keeps python working (bin/python is a
      // link to the base python), and nothing here runs pip from the moved folder again.
      fs.renameSync(temp, dir);
    } catch (error) {
      fs.rmSync(temp, { recursive: true, force: true });
      throw error;
    }
    if (!works(dir)) {
      throw new PythonApiError(`The virtualenv in ${dir} cannot \`import arcgis\` after install.`);
    }
    log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
    return venvPython(dir);
  } finally {
    release();
  }
}

module.exports = {
  ensurePythonApi,
  cacheRoot,
  basePython,
  venvPython,
  ARCGIS_VERSION,
  PythonApiError,
};

if (require.main === module) {
  const args = process.argv.slice(2);
  const quiet = args.includes("--quiet");
  ensurePythonApi(quiet ? { log: () => {} } : {}).then(
    (python) => {
      if (args.includes("--print-python")) process.stdout.write(`${python}\n`);
    },
    (error) => {
      process.stderr.write(
        `python-api: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}

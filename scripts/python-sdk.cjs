#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Installs what the provider's Python SDK needs around it into a virtualenv in a cache outside the
 * repository, and reuses it when it is there: Pulumi's Python SDK (`pulumi` from PyPI, whose
 * automation API runs the Python quick start), the SDK's other dependencies, and the build tools
 * that turn the generated SDK into a wheel. `npm run sdk` builds the wheel with it;
 * tests/real-engine/quickstart-python.test.ts also runs the quick start with it.
 *
 * Usage: node scripts/python-sdk.cjs [--print-python] [--quiet]
 *   installs (or finds) the virtualenv; with --print-python prints its python's path on stdout.
 *
 * What it installs: {@link PACKAGES}. `pulumi` is the newest release on PyPI at or below the
 * engine's version (PyPI has no 3.274.x; the automation API of 3.272.0 drives the engine
 * v3.274.1, which needs only a CLI of 3.181 or newer for destroy).
 *
 * Cache: ARCGIS_ADMIN_PYTHON_SDK_CACHE, else
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/python-sdk`, one folder per package set
 * (`pulumi-3.272.0-py<python version>`). The install goes to a temporary folder renamed into place
 * only once the packages import, so an interrupted install leaves nothing that looks finished.
 * Concurrent callers wait for each other (a lock folder holding the installer's pid). Python:
 * ARCGIS_ADMIN_PYTHON, else `python3` on PATH (3.9 or newer, with venv).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { projectCache, run, takeLock } = require("./go-build.cjs");
const { basePython, venvPython } = require("./python-api.cjs");

/** Pulumi's Python SDK, pinned. */
const PULUMI_VERSION = "3.272.0";
/**
 * The packages installed: Pulumi's SDK, the generated SDK's other requirements (its
 * pyproject.toml: packaging, semver), and setuptools and wheel to build it without a download.
 */
const PACKAGES = [
  `pulumi==${PULUMI_VERSION}`,
  "packaging>=24.0",
  "semver>=2.8.1",
  "setuptools>=61",
  "wheel",
];

class PythonSdkError extends Error {}

function cacheRoot(env = process.env) {
  if (env.ARCGIS_ADMIN_PYTHON_SDK_CACHE) return path.resolve(env.ARCGIS_ADMIN_PYTHON_SDK_CACHE);
  return projectCache("python-sdk", env);
}

/**
 * Whether a finished virtualenv imports the packages, with the pinned Pulumi.
 *
 * @param {string} dir
 */
function works(dir) {
  const check = spawnSync(
    venvPython(dir),
    [
      "-c",
      "import importlib.metadata as m, pulumi.automation, packaging, semver, setuptools, wheel; " +
        "print(m.version('pulumi'))",
    ],
    { encoding: "utf8" },
  );
  return check.status === 0 && check.stdout.trim() === PULUMI_VERSION;
}

/**
 * The virtualenv's python, installed first when missing.
 *
 * @param {{log?: (line: string) => void, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<string>}
 */
async function ensurePythonSdk(options = {}) {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line) => process.stderr.write(`python-sdk: ${line}\n`));
  const { python, version } = basePython(env, "The Python SDK's build and the Python quick start");
  const root = cacheRoot(env);
  const dir = path.join(root, `pulumi-${PULUMI_VERSION}-py${version}`);
  if (fs.existsSync(dir) && works(dir)) return venvPython(dir);
  fs.mkdirSync(root, { recursive: true });
  const release = await takeLock(path.join(root, ".lock"), log, "installing Pulumi's Python SDK");
  try {
    if (fs.existsSync(dir) && works(dir)) return venvPython(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    const temp = `${dir}.partial-${process.pid}`;
    fs.rmSync(temp, { recursive: true, force: true });
    const started = Date.now();
    log(`installing ${PACKAGES.join(" ")} into ${dir} (once; about half a minute)`);
    /** @param {string} command @param {string[]} args @param {string} what */
    const step = async (command, args, what) => {
      const result = await run(command, args, {
        cwd: root,
        env,
        log,
        what,
        onLine: (line) => {
          if (/^(Collecting|Successfully installed)/.test(line.trim()))
            log(line.trim().slice(0, 200));
        },
      });
      if (result.code !== 0) {
        throw new PythonSdkError(
          `\`${command} ${args.join(" ")}\` failed (${result.code}):\n${result.output.split("\n").slice(-15).join("\n")}`,
        );
      }
    };
    try {
      await step(python, ["-m", "venv", temp], "creating the virtualenv");
      await step(
        venvPython(temp),
        ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", ...PACKAGES],
        "installing",
      );
      // bin/python links to the base python, so the moved venv still runs (pip is not run again
      // from the moved folder: its scripts name the old one).
      fs.renameSync(temp, dir);
    } catch (error) {
      fs.rmSync(temp, { recursive: true, force: true });
      throw error;
    }
    if (!works(dir)) {
      throw new PythonSdkError(`The virtualenv in ${dir} cannot import pulumi ${PULUMI_VERSION}.`);
    }
    log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
    return venvPython(dir);
  } finally {
    release();
  }
}

module.exports = { ensurePythonSdk, cacheRoot, PULUMI_VERSION, PythonSdkError };

if (require.main === module) {
  const args = process.argv.slice(2);
  const quiet = args.includes("--quiet");
  ensurePythonSdk(quiet ? { log: () => {} } : {}).then(
    (python) => {
      if (args.includes("--print-python")) process.stdout.write(`${python}\n`);
    },
    (error) => {
      process.stderr.write(
        `python-sdk: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}

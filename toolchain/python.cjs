// @ts-check
"use strict";
/**
 * The Python environments of the toolchain (python-api.cjs: Esri's ArcGIS API for Python;
 * python-sdk.cjs: Pulumi's Python SDK and the wheel's build tools): a virtualenv per package set
 * in the cache, installed once with pip and reused while it imports what it must. Python:
 * ARCGIS_ADMIN_PYTHON, else `python3` on PATH (3.9 or newer, with venv).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, buildOnce } = require("./cache.cjs");
const { run } = require("./go.cjs");

/**
 * The base python to make a virtualenv with, and its version (`3.11`).
 *
 * @param {NodeJS.ProcessEnv} env
 * @param {string} who what needs it, for the message when it is missing or too old.
 */
function basePython(env, who) {
  const python = env.ARCGIS_ADMIN_PYTHON || "python3";
  const probe = spawnSync(
    python,
    ["-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"],
    { encoding: "utf8" },
  );
  if (probe.error !== undefined || probe.status !== 0) {
    throw new ToolchainError(
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
    throw new ToolchainError(`\`${python}\` is Python ${version}; ${who} need 3.9 or newer.`);
  }
  return { python, version };
}

/** @param {string} dir */
function venvPython(dir) {
  return path.join(dir, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
}

/**
 * The python of a virtualenv `<root>/<name>-py<python version>` holding `packages`, installed first
 * when it is missing or does not work: a virtualenv works when the Python code `probe` (the
 * imports it needs, then a print of a version) prints `version`.
 *
 * @param {{
 *   root: string,
 *   name: string,
 *   packages: string[],
 *   probe: string,
 *   version: string,
 *   who: string,
 *   what: string,
 *   env: NodeJS.ProcessEnv,
 *   log: (line: string) => void,
 * }} options `who` needs it (for the messages); `what` is installed.
 * @returns {Promise<string>}
 */
async function ensureVenv({ root, name, packages, probe, version, who, what, env, log }) {
  const base = basePython(env, who);
  const python = base.python;
  const key = `${name}-py${base.version}`;
  /** @param {string} venv */
  const works = (venv) => {
    const check = spawnSync(venvPython(venv), ["-c", probe], { encoding: "utf8" });
    return check.status === 0 && check.stdout.trim() === version;
  };
  const dir = path.join(root, key);
  const started = Date.now();
  const { value, built } = await buildOnce({
    root,
    key,
    find: () => (fs.existsSync(dir) && works(dir) ? venvPython(dir) : undefined),
    log,
    what: `installing ${what}`,
    prepare: () => undefined,
    build: async (out) => {
      log(`installing ${packages.join(" ")} into ${dir} (once)`);
      /** @param {string} command @param {string[]} args @param {string} doing */
      const step = async (command, args, doing) => {
        const result = await run(command, args, {
          cwd: root,
          env,
          log,
          what: doing,
          onLine: (line) => {
            // pip's progress: one line per package collected or installed.
            if (/^(Collecting|Successfully installed)/.test(line.trim()))
              log(line.trim().slice(0, 200));
          },
        });
        if (result.code !== 0) {
          throw new ToolchainError(
            `\`${command} ${args.join(" ")}\` failed (${result.code}):\n${result.output.split("\n").slice(-15).join("\n")}`,
          );
        }
      };
      await step(python, ["-m", "venv", out], "creating the virtualenv");
      const pip = ["-m", "pip", "install", "--disable-pip-version-check", "--no-input"];
      await step(venvPython(out), [...pip, ...packages], "installing");
      // bin/python links to the base python, so the moved virtualenv still runs (pip is not run
      // again from the moved folder: its scripts name the old one).
    },
    incomplete: `The virtualenv in ${dir} cannot import ${what} after install.`,
  });
  if (built) log(`installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return value;
}

module.exports = { basePython, venvPython, ensureVenv };

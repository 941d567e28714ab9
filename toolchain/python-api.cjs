#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Installs Esri's ArcGIS API for Python (`arcgis` from PyPI, unmodified) into a virtualenv in the
 * cache (python.cjs), and reuses it when it is there. tests/python-api/ drives the emulator with
 * it.
 *
 * Usage: node toolchain/python-api.cjs [--print-python] [--quiet]
 *   installs (or finds) the virtualenv; with --print-python prints its python's path on stdout.
 *
 * What it installs: `arcgis==2.4.4` with its declared dependencies, plus `six`, which
 * `arcgis.gis.admin` imports (through arcgis.raster) but arcgis 2.4.4 does not declare: without it
 * `gis.admin` fails with "No module named 'six'".
 *
 * Cache: ARCGIS_ADMIN_PYTHON_CACHE, else `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/python-api`,
 * one folder per package set (`arcgis-2.4.4-py<python version>`).
 */
const { toolCache } = require("./cache.cjs");
const { command } = require("./command.cjs");
const { ensureVenv } = require("./python.cjs");

/** The packages installed, pinned: the library under test and what it forgets to declare. */
const ARCGIS_VERSION = "2.4.4";
const PACKAGES = [`arcgis==${ARCGIS_VERSION}`, "six"];

/** The cache's folder. */
function cacheRoot(env = process.env) {
  return toolCache("python-api", "ARCGIS_ADMIN_PYTHON_CACHE", env);
}

/**
 * The virtualenv's python, installed first when missing.
 *
 * @param {{log?: (line: string) => void, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<string>}
 */
function ensurePythonApi(options = {}) {
  const env = options.env ?? process.env;
  return ensureVenv({
    root: cacheRoot(env),
    name: `arcgis-${ARCGIS_VERSION}`,
    packages: PACKAGES,
    probe: "import arcgis, six; print(arcgis.__version__)",
    version: ARCGIS_VERSION,
    who: "The ArcGIS API for Python tests",
    what: `the ArcGIS API for Python ${ARCGIS_VERSION}`,
    env,
    log: options.log ?? ((line) => process.stderr.write(`python-api: ${line}\n`)),
  });
}

module.exports = { ARCGIS_VERSION, cacheRoot, ensurePythonApi };

command(require.main === module, "python-api", async ({ args, options }) => {
  const python = await ensurePythonApi(options);
  if (args.includes("--print-python")) process.stdout.write(`${python}\n`);
});

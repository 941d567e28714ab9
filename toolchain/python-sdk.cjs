#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Installs what the provider's Python SDK needs around it into a virtualenv in the cache
 * (python.cjs), and reuses it when it is there: Pulumi's Python SDK (`pulumi` from PyPI, whose
 * automation API runs the Python quick start, and whose gRPC stubs the Python language host uses),
 * the SDK's other dependencies, and the build tools that turn the generated SDK into a wheel.
 * `npm run sdk` builds the wheel with it; tests/real-engine/quickstart-python.test.ts also runs
 * the quick start with it.
 *
 * Usage: node toolchain/python-sdk.cjs [--print-python] [--quiet]
 *   installs (or finds) the virtualenv; with --print-python prints its python's path on stdout.
 *
 * What it installs: {@link PACKAGES}. `pulumi` is the newest release on PyPI at or below the
 * engine's version (PyPI has no 3.274.x; the automation API of 3.272.0 drives the engine
 * v3.274.1, which needs only a CLI of 3.181 or newer for destroy).
 *
 * Cache: ARCGIS_ADMIN_PYTHON_SDK_CACHE, else
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/python-sdk`, one folder per package set
 * (`pulumi-3.272.0-py<python version>`).
 */
const { toolCache } = require("./cache.cjs");
const { command } = require("./command.cjs");
const { ensureVenv } = require("./python.cjs");

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

/** The cache's folder. */
function cacheRoot(env = process.env) {
  return toolCache("python-sdk", "ARCGIS_ADMIN_PYTHON_SDK_CACHE", env);
}

/**
 * The virtualenv's python, installed first when missing.
 *
 * @param {{log?: (line: string) => void, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<string>}
 */
function ensurePythonSdk(options = {}) {
  const env = options.env ?? process.env;
  return ensureVenv({
    root: cacheRoot(env),
    name: `pulumi-${PULUMI_VERSION}`,
    packages: PACKAGES,
    probe:
      "import importlib.metadata as m, pulumi.automation, packaging, semver, setuptools, wheel; " +
      "print(m.version('pulumi'))",
    version: PULUMI_VERSION,
    who: "The Python SDK's build and the Python quick start",
    what: `Pulumi's Python SDK ${PULUMI_VERSION}`,
    env,
    log: options.log ?? ((line) => process.stderr.write(`python-sdk: ${line}\n`)),
  });
}

module.exports = { PULUMI_VERSION, cacheRoot, ensurePythonSdk };

command(require.main === module, "python-sdk", async ({ args, options }) => {
  const python = await ensurePythonSdk(options);
  if (args.includes("--print-python")) process.stdout.write(`${python}\n`);
});

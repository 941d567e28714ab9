// @ts-check
"use strict";
/**
 * The Python language host beside an engine: language-hosts/python.py, a small gRPC server run
 * by the virtualenv of python-sdk.cjs (Pulumi's Python SDK: grpcio and the generated stubs),
 * whose `Run` starts `pulumi-language-python-exec` from the Go module github.com/pulumi/pulumi/
 * sdk/v3 at the engine's version, as Pulumi's own host does; with it, the dynamic-provider
 * launcher Pulumi ships beside it, `pulumi-resource-pulumi-python`.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, writeIfChanged } = require("../cache.cjs");
const { launcher } = require("./nodejs.cjs");

/**
 * The folder of the Go module github.com/pulumi/pulumi/sdk/v3 at a version, downloaded into Go's
 * module cache when it is not there (the engine's build already fetched it).
 *
 * @param {string} go
 * @param {string} version
 * @param {NodeJS.ProcessEnv} env
 */
function sdkModuleDir(go, version, env) {
  const module = `github.com/pulumi/pulumi/sdk/v3@v${version}`;
  const out = spawnSync(go, ["mod", "download", "-json", module], { encoding: "utf8", env });
  /** @type {unknown} */
  const parsed = out.status === 0 ? JSON.parse(out.stdout) : {};
  const dir = /** @type {{Dir?: string}} */ (parsed).Dir;
  if (dir === undefined) {
    throw new ToolchainError(
      `Could not download ${module} for the Python language host: ${out.stderr || out.stdout}`,
    );
  }
  return dir;
}

/**
 * Installs (or brings up to date) the Python host: its exec entry and dynamic-provider launcher
 * from the sdk/v3 module, and a launcher that runs the host with `python`, a virtualenv's
 * interpreter holding Pulumi's Python SDK.
 *
 * @param {{root: string, version: string}} engine
 * @param {{go: string, python: string, env?: NodeJS.ProcessEnv}} tools
 */
function installPythonHost(engine, { go, python, env = process.env }) {
  const hosts = path.join(engine.root, "language-hosts");
  const exec = path.join(hosts, "pulumi-language-python-exec");
  const dynamic = path.join(engine.root, "bin", "pulumi-resource-pulumi-python");
  if (!fs.existsSync(exec) || !fs.existsSync(dynamic)) {
    const sdk = sdkModuleDir(go, engine.version, env);
    const from = (/** @type {string} */ dir, /** @type {string} */ file) =>
      fs.readFileSync(path.join(sdk, "python", dir, path.basename(file)));
    writeIfChanged(exec, from("cmd", exec), 0o755);
    writeIfChanged(dynamic, from("dist", dynamic), 0o755);
  }
  writeIfChanged(
    path.join(hosts, "python.py"),
    fs.readFileSync(path.join(__dirname, "python.py")),
    0o644,
  );
  writeIfChanged(
    path.join(engine.root, "bin", "pulumi-language-python"),
    launcher(python, "python.py", engine.version),
    0o755,
  );
}

module.exports = { installPythonHost };

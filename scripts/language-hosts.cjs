#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Installs the Node.js and Python language hosts beside an engine that scripts/engine.cjs built,
 * where the engine looks for them as it looks for Pulumi's own (beside the CLI): a Pulumi
 * release ships `pulumi-language-nodejs` and `pulumi-language-python` as Go binaries, which the
 * Go module proxy does not serve. Ours are small gRPC servers (scripts/language-hosts/: the
 * Node.js one a Go module of ours, the Python one a script) whose `Run` starts the program
 * through the entry points Pulumi's own hosts start:
 * `@pulumi/pulumi/cmd/run` of the program's SDK, and `pulumi-language-python-exec` from the Go
 * module github.com/pulumi/pulumi/sdk/v3 at the engine's version (with
 * `pulumi-resource-pulumi-python`, the dynamic-provider launcher Pulumi ships beside it).
 *
 * Layout, in `<engine root>`: `bin/pulumi-language-{nodejs,python}` (launchers),
 * `bin/pulumi-language-yaml` (a link to the build of scripts/engine.cjs's ensureLanguageYaml),
 * `bin/pulumi-resource-pulumi-python`, and `language-hosts/` (the hosts and the exec entry; the
 * Node.js host a link to its build in `<project cache>/language-hosts/`). The Python host runs in
 * the virtualenv of scripts/python-sdk.cjs (Pulumi's Python SDK from PyPI: grpcio and the
 * generated stubs). Files are rewritten only when they differ, so a cached engine picks up a
 * changed host without a rebuild.
 */
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { findGo, isExecutable, projectCache } = require("./go-build.cjs");

const SOURCES = path.join(__dirname, "language-hosts");

/**
 * `JSON.parse`, typed `unknown`: the caller states what it expects.
 *
 * @param {string} text
 * @returns {unknown}
 */
function parseJson(text) {
  return JSON.parse(text);
}

/**
 * Writes a file when its content differs (a temporary file renamed over it, so a running engine
 * never starts half a script).
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
 * A launcher that runs a host of `language-hosts/` (with an interpreter, or itself when
 * `interpreter` is undefined), passing the engine's arguments on; the host reports the engine's
 * version as its own.
 *
 * @param {string | undefined} interpreter a command, or an absolute path
 * @param {string} host the host's file name in language-hosts/
 * @param {string} version
 */
function launcher(interpreter, host, version) {
  const command = interpreter === undefined ? "" : `${JSON.stringify(interpreter)} `;
  return [
    "#!/bin/sh",
    "# A Pulumi language host for an engine built from source, written by pulumi-arcgis-admin's",
    "# scripts/language-hosts.cjs (see there); a Pulumi install from Pulumi's installer has its own.",
    'dir=$(dirname "$0")',
    `exec ${command}"$dir/../language-hosts/${host}" --host-version=${version} "$@"`,
    "",
  ].join("\n");
}

/** The Node.js host's Go module, and the files whose content makes a build. */
const NODEJS_HOST = {
  dir: path.join(SOURCES, "nodejs"),
  files: ["main.go", "go.mod", "go.sum"],
  binary: "pulumi-language-nodejs",
};

/**
 * The Node.js host's build for the current source, built now when the cache does not have it:
 * `<project cache>/language-hosts/nodejs-<hash of its files>/`. Concurrent builders each build
 * into a folder of their own and the first rename wins, so no lock is needed.
 *
 * @param {NodeJS.ProcessEnv} env
 * @returns {string} the binary
 */
function buildNodejsHost(env) {
  const hash = crypto.createHash("sha256");
  for (const file of NODEJS_HOST.files) {
    hash
      .update(`${file}\0`)
      .update(fs.readFileSync(path.join(NODEJS_HOST.dir, file)))
      .update("\0");
  }
  const key = `nodejs-${hash.digest("hex").slice(0, 16)}`;
  const dir = path.join(projectCache("language-hosts", env), key);
  const binary = path.join(dir, NODEJS_HOST.binary);
  if (isExecutable(binary)) return binary;
  const go = findGo(env);
  if (go === undefined) {
    throw new Error(
      "The Node.js language host (scripts/language-hosts/nodejs) is built with Go, and there is " +
        "no `go` on PATH (nor in $GOROOT/bin): install Go and run `npm run engine` again.",
    );
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const work = fs.mkdtempSync(`${dir}.build-`);
  fs.chmodSync(work, 0o755);
  try {
    const out = path.join(work, NODEJS_HOST.binary);
    const built = spawnSync(go, ["build", "-trimpath", "-ldflags", "-s -w", "-o", out, "."], {
      cwd: NODEJS_HOST.dir,
      encoding: "utf8",
      // go.sum pins every module: the build must not change go.mod or go.sum.
      env: {
        ...env,
        GOFLAGS: [env.GOFLAGS, "-buildvcs=false", "-mod=readonly"].filter(Boolean).join(" "),
      },
    });
    if (built.status !== 0) {
      throw new Error(
        "Compiling the Node.js language host (scripts/language-hosts/nodejs) failed:\n" +
          `${built.error?.message ?? ""}${built.stderr ?? ""}`,
      );
    }
    try {
      fs.renameSync(work, dir);
    } catch (error) {
      if (!isExecutable(binary)) throw error; // else another builder's rename came first
    }
    return binary;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Points `link` at `target` unless it already does (a new link renamed over it, so a running
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

/**
 * Installs (or brings up to date) the Node.js host: a Go program of ours, built once per content
 * of its source. The engine starts a host for every program run; a Go host starts in
 * milliseconds, where one in Node.js first loads grpc-js and the SDK's stubs.
 *
 * @param {{root: string, version: string}} engine
 */
function installNodejsHost(engine, env = process.env) {
  const hosts = path.join(engine.root, "language-hosts");
  linkIfChanged(path.join(hosts, NODEJS_HOST.binary), buildNodejsHost(env));
  fs.rmSync(path.join(hosts, "nodejs.cjs"), { force: true }); // an earlier version's host
  writeIfChanged(
    path.join(engine.root, "bin", NODEJS_HOST.binary),
    launcher(undefined, NODEJS_HOST.binary, engine.version),
    0o755,
  );
}

/**
 * The folder of the Go module github.com/pulumi/pulumi/sdk/v3 at a version, downloaded into Go's
 * module cache when it is not there (the engine's build already fetched it).
 *
 * @param {string} go
 * @param {string} version
 * @param {NodeJS.ProcessEnv} env
 */
function sdkModuleDir(go, version, env) {
  const out = spawnSync(
    go,
    ["mod", "download", "-json", `github.com/pulumi/pulumi/sdk/v3@v${version}`],
    {
      encoding: "utf8",
      env,
    },
  );
  const listed = /** @type {{Dir?: string}} */ (out.status === 0 ? parseJson(out.stdout) : {});
  const dir = listed.Dir;
  if (dir === undefined) {
    throw new Error(
      `Could not download github.com/pulumi/pulumi/sdk/v3@v${version} for the Python language ` +
        `host: ${out.stderr || out.stdout}`,
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
    writeIfChanged(
      exec,
      fs.readFileSync(path.join(sdk, "python", "cmd", path.basename(exec))),
      0o755,
    );
    writeIfChanged(
      dynamic,
      fs.readFileSync(path.join(sdk, "python", "dist", path.basename(dynamic))),
      0o755,
    );
  }
  writeIfChanged(
    path.join(hosts, "python.py"),
    fs.readFileSync(path.join(SOURCES, "python.py")),
    0o644,
  );
  writeIfChanged(
    path.join(engine.root, "bin", "pulumi-language-python"),
    launcher(python, "python.py", engine.version),
    0o755,
  );
}

/**
 * Installs both hosts beside the engine that scripts/engine.cjs builds or finds; resolves with
 * where they are. The Python host needs Go (for the sdk/v3 module) and Python 3 (its
 * virtualenv, scripts/python-sdk.cjs).
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 */
async function ensureLanguageHosts(options = {}) {
  const env = options.env ?? process.env;
  const engine = await require("./engine.cjs").ensureEngine(options);
  installNodejsHost(engine);
  // Without Python or Go, Node.js and YAML programs still run: say so and go on.
  try {
    const python = await require("./python-sdk.cjs").ensurePythonSdk(options);
    const go = findGo(env);
    if (go === undefined) throw new Error("Go is needed for the host's exec entry (sdk/v3).");
    installPythonHost(engine, { go, python, env });
  } catch (error) {
    (options.log ?? ((line) => process.stderr.write(`${line}\n`)))(
      `The Python language host is not installed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // Pulumi YAML's host beside the CLI too, as in a Pulumi release: found without PATH, and
  // without the engine's warning about a host from PATH.
  const yaml = await require("./engine.cjs").ensureLanguageYaml(options);
  const link = path.join(engine.root, "bin", "pulumi-language-yaml");
  if (!fs.existsSync(link) || fs.realpathSync(link) !== fs.realpathSync(yaml.bin)) {
    fs.rmSync(link, { force: true });
    fs.symlinkSync(yaml.bin, link);
  }
  return { version: engine.version, bin: path.join(engine.root, "bin"), built: false };
}

module.exports = { ensureLanguageHosts, installNodejsHost, installPythonHost };

if (require.main === module) {
  ensureLanguageHosts().then(
    (hosts) => process.stdout.write(`Language hosts for Node.js and Python: ${hosts.bin}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

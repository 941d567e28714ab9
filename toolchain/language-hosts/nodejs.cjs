// @ts-check
"use strict";
/**
 * The Node.js language host beside an engine: a Go program of ours (language-hosts/nodejs/), built
 * once per content of its source into `<project cache>/language-hosts/nodejs-<hash>/`, whose
 * `Run` starts `@pulumi/pulumi/cmd/run` of the program's SDK, as Pulumi's own host does, and whose
 * `GenerateProgram` (`pulumi import`) writes TypeScript with Pulumi's Node.js code generator. The
 * engine starts a host for every program run; a Go host starts in milliseconds, where one in
 * Node.js first loads grpc-js and the SDK's stubs.
 */
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const cache = require("../cache.cjs");
const { goEnv, requireGo } = require("../go.cjs");

/** The Node.js host's Go module, and the files whose content makes a build. */
const NODEJS_HOST = {
  dir: path.join(__dirname, "nodejs"),
  files: ["main.go", "go.mod", "go.sum"],
  binary: "pulumi-language-nodejs",
};

/**
 * A launcher that runs a host of `<engine root>/language-hosts/` (with an interpreter, or itself
 * when `interpreter` is undefined), passing the engine's arguments on; the host reports the
 * engine's version as its own.
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
    "# toolchain/language-hosts.cjs (see there); a Pulumi install from Pulumi's installer has its own.",
    'dir=$(dirname "$0")',
    `exec ${command}"$dir/../language-hosts/${host}" --host-version=${version} "$@"`,
    "",
  ].join("\n");
}

/**
 * The Node.js host's build for the current source, built now when the cache does not have it.
 * Concurrent builders each build into a folder of their own and the first rename wins.
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
  const root = cache.projectCache("language-hosts", env);
  const key = `nodejs-${hash.digest("hex").slice(0, 16)}`;
  const binary = path.join(root, key, NODEJS_HOST.binary);
  if (cache.isExecutable(binary)) return binary;
  const what = "the Node.js language host (toolchain/language-hosts/nodejs)";
  // Go 1.21 and later switch to the toolchain go.mod asks for by themselves.
  const go = requireGo({ what, minimum: [1, 21], env });
  // Synchronous: the engine is looked up synchronously. The build compiles Pulumi's code generator
  // (pkg/v3, at the engine's version): long on a first build, short once the engine's build
  // has filled Go's cache.
  const build = (/** @type {string} */ out) => {
    fs.mkdirSync(out);
    const built = spawnSync(
      go,
      ["build", "-trimpath", "-ldflags", "-s -w", "-o", path.join(out, NODEJS_HOST.binary), "."],
      // go.sum pins every module: the build must not change go.mod or go.sum.
      { cwd: NODEJS_HOST.dir, encoding: "utf8", env: goEnv(env, "readonly") },
    );
    if (built.status !== 0) {
      throw new cache.ToolchainError(
        `Compiling ${what} failed:\n${built.error?.message ?? ""}${built.stderr ?? ""}`,
      );
    }
  };
  cache.buildIntoSync(root, key, build, { firstWins: true });
  return binary;
}

/**
 * Installs (or brings up to date) the Node.js host beside an engine.
 *
 * @param {{root: string, version: string}} engine
 */
function installNodejsHost(engine, env = process.env) {
  const hosts = path.join(engine.root, "language-hosts");
  cache.linkIfChanged(path.join(hosts, NODEJS_HOST.binary), buildNodejsHost(env));
  fs.rmSync(path.join(hosts, "nodejs.cjs"), { force: true }); // an earlier version's host
  cache.writeIfChanged(
    path.join(engine.root, "bin", NODEJS_HOST.binary),
    launcher(undefined, NODEJS_HOST.binary, engine.version),
    0o755,
  );
}

module.exports = { launcher, installNodejsHost };

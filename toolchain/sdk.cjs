#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `npm run sdk`: writes the provider plugin's SDKs from its schema into `sdk/` (git-ignored;
 * nothing generated is committed):
 *
 * - `sdk/schema.json`: the package schema, from the built package (dist/provider/plugin/schema.js,
 *   what `pulumi package get-schema` gets from the plugin);
 * - `sdk/python/`: the Python SDK (package `pulumi_arcgis_admin`), and its wheel in `sdk/dist/`
 *   (`pip install sdk/dist/pulumi_arcgis_admin-<version>-py3-none-any.whl`);
 * - `sdk/go/`: the Go SDK, module `github.com/pulumi-arcgis-admin/sdk/go` with its own go.mod
 *   (requiring Pulumi's Go SDK at the generator's version), checked with `go build ./...`.
 *
 * Usage: node toolchain/sdk.cjs [--language python|go] [--out <folder>] (after `npm run build`;
 *   `npm run sdk` builds first).
 *
 * The generator is toolchain/sdkgen (Pulumi's code generators at the engine's version), built by
 * sdkgen.cjs; the wheel is built with the virtualenv of python-sdk.cjs (setuptools
 * and wheel, no download), the Go SDK's dependencies come from the Go module proxy.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { parseArgs } = require("node:util");
const { ToolchainError } = require("./cache.cjs");
const { command } = require("./command.cjs");
const { findGo } = require("./go.cjs");
const { ensurePythonSdk } = require("./python-sdk.cjs");
const { ensureSdkgen, pkgVersion } = require("./sdkgen.cjs");

const REPO_ROOT = path.resolve(__dirname, "..");
/** The Go SDK's module path: the schema's go importBasePath without its last element. */
const GO_MODULE = "github.com/pulumi-arcgis-admin/sdk/go";
/** Pulumi's Go SDK, which the generated Go SDK requires. */
const PULUMI_GO_SDK = "github.com/pulumi/pulumi/sdk/v3";

/**
 * `require`, its result typed `unknown`: the caller states what it expects of the module.
 *
 * @param {string} id
 * @returns {unknown}
 */
function load(id) {
  return require(id);
}

/**
 * The package schema of a built package (a folder holding dist/provider/plugin/schema.js: the
 * repository after `npm run build`, or an installed pulumi-arcgis-admin).
 *
 * @param {string} packageDir
 * @returns {{name: string, version: string}}
 */
function schemaOf(packageDir = REPO_ROOT) {
  const module = path.join(packageDir, "dist", "provider", "plugin", "schema.js");
  if (!fs.existsSync(module)) {
    throw new ToolchainError(`${module} is missing: build the package first (npm run build).`);
  }
  const built = /** @type {{packageSchema(): {name: string, version: string}}} */ (load(module));
  return built.packageSchema();
}

/**
 * Runs a command, throwing a ToolchainError with its output's end when it fails.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, env?: NodeJS.ProcessEnv, what: string}} options
 */
function mustRun(command, args, { cwd, env = process.env, what }) {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8" });
  if (result.error !== undefined || result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim().split("\n").slice(-15);
    throw new ToolchainError(
      `${what} failed (\`${path.basename(command)} ${args.join(" ")}\`): ${result.error?.message ?? output.join("\n")}`,
    );
  }
  return result.stdout;
}

/**
 * Writes one language's SDK from a schema file into `out` (emptied first).
 *
 * @param {string} sdkgen the generator's binary
 * @param {"python" | "go"} language
 * @param {string} schemaFile
 * @param {string} out
 */
function generate(sdkgen, language, schemaFile, out) {
  fs.rmSync(out, { recursive: true, force: true });
  mustRun(sdkgen, [language, schemaFile, out], { what: `Generating the ${language} SDK` });
}

/**
 * Builds the wheel of a generated Python SDK into `dist` with the virtualenv's pip (setuptools
 * from the virtualenv: no download). Returns the wheel's path.
 *
 * @param {string} python the virtualenv's python (python-sdk.cjs)
 * @param {string} sdkDir the generated SDK (holding pyproject.toml)
 * @param {string} dist
 */
function buildWheel(python, sdkDir, dist) {
  fs.mkdirSync(dist, { recursive: true });
  for (const old of fs.readdirSync(dist)) {
    if (old.startsWith("pulumi_arcgis_admin-") && old.endsWith(".whl")) {
      fs.rmSync(path.join(dist, old));
    }
  }
  mustRun(
    python,
    [
      "-m",
      "pip",
      "wheel",
      "--no-deps",
      "--no-build-isolation",
      "--disable-pip-version-check",
      "--no-input",
      "--wheel-dir",
      dist,
      sdkDir,
    ],
    { what: "Building the Python SDK's wheel" },
  );
  // pip leaves setuptools' build folders in the source.
  for (const leftover of ["build", "pulumi_arcgis_admin.egg-info"]) {
    fs.rmSync(path.join(sdkDir, leftover), { recursive: true, force: true });
  }
  const wheel = fs.readdirSync(dist).find((f) => /^pulumi_arcgis_admin-.*\.whl$/.test(f));
  if (wheel === undefined) throw new ToolchainError(`pip wheel wrote no wheel into ${dist}.`);
  return path.join(dist, wheel);
}

/**
 * Completes a generated Go SDK's go.mod (Pulumi's Go SDK at the generator's version, every
 * dependency resolved through the Go module proxy) and checks that it compiles.
 *
 * @param {string} goDir the generated SDK (holding go.mod)
 * @param {NodeJS.ProcessEnv} [env]
 */
function completeGoModule(goDir, env = process.env) {
  const go = findGo(env);
  if (go === undefined) {
    throw new ToolchainError(
      "The Go SDK's go.mod is completed with Go, and there is no `go` on PATH.",
    );
  }
  if (!fs.existsSync(path.join(goDir, "go.mod"))) {
    throw new ToolchainError(
      `The generator wrote no go.mod into ${goDir}: the schema must set meta.supportPack ` +
        "(provider/plugin/schema.ts).",
    );
  }
  const goEnv = { ...env, GOFLAGS: [env.GOFLAGS, "-mod=mod"].filter(Boolean).join(" ") };
  const what = "Completing the Go SDK's go.mod";
  mustRun(go, ["mod", "edit", `-require=${PULUMI_GO_SDK}@v${pkgVersion()}`], {
    cwd: goDir,
    env: goEnv,
    what,
  });
  mustRun(go, ["mod", "tidy"], { cwd: goDir, env: goEnv, what });
  mustRun(go, ["build", "./..."], { cwd: goDir, env: goEnv, what: "Compiling the Go SDK" });
}

/**
 * Writes the schema and the SDKs into `out` (see the file's comment).
 *
 * @param {{out?: string, languages?: Array<"python" | "go">, packageDir?: string,
 *   log?: (line: string) => void, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<{schemaFile: string, wheel?: string, goDir?: string}>}
 */
async function writeSdks({
  out = path.join(REPO_ROOT, "sdk"),
  languages = ["python", "go"],
  packageDir = REPO_ROOT,
  log = (l) => process.stderr.write(`${l}\n`),
  env = process.env,
} = {}) {
  const schema = schemaOf(packageDir);
  fs.mkdirSync(out, { recursive: true });
  const schemaFile = path.join(out, "schema.json");
  fs.writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
  log(`Schema of ${schema.name} ${schema.version}: ${schemaFile}`);
  const sdkgen = (await ensureSdkgen({ env, log })).bin;
  /** @type {{schemaFile: string, wheel?: string, goDir?: string}} */
  const result = { schemaFile };
  if (languages.includes("python")) {
    const python = await ensurePythonSdk({ env, log });
    const dir = path.join(out, "python");
    generate(sdkgen, "python", schemaFile, dir);
    result.wheel = buildWheel(python, dir, path.join(out, "dist"));
    log(`Python SDK: ${dir}; wheel: ${result.wheel}`);
  }
  if (languages.includes("go")) {
    const dir = path.join(out, "go");
    generate(sdkgen, "go", schemaFile, dir);
    completeGoModule(dir, env);
    log(`Go SDK (module ${GO_MODULE}, compiles): ${dir}`);
    result.goDir = dir;
  }
  return result;
}

module.exports = {
  GO_MODULE,
  schemaOf,
  generate,
  buildWheel,
  completeGoModule,
  writeSdks,
};

command(require.main === module, "sdk", async () => {
  const { values } = parseArgs({
    options: { language: { type: "string", multiple: true }, out: { type: "string" } },
  });
  const languages = /** @type {Array<"python" | "go">} */ (values.language ?? ["python", "go"]);
  const unknown = languages.filter((l) => l !== "python" && l !== "go");
  if (unknown.length > 0) {
    process.stderr.write(`Unknown --language ${unknown.join(", ")}: python or go.\n`);
    process.exit(2);
  }
  await writeSdks({
    languages,
    ...(values.out === undefined ? {} : { out: path.resolve(values.out) }),
  });
});

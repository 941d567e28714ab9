#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * `npm run sdk`: writes the provider plugin's SDKs from its schema into `sdk/` (git-ignored;
 * nothing generated is committed), each as the artifact its language installs:
 *
 * - `sdk/schema.json`: the package schema, from the built package (dist/provider/plugin/schema.js,
 *   what `pulumi package get-schema` gets from the plugin);
 * - `sdk/python/`: the Python SDK (package `pulumi_arcgis_admin`), its wheel and its sdist in
 *   `sdk/dist/` (`pip install sdk/dist/pulumi_arcgis_admin-<version>-py3-none-any.whl`);
 * - `sdk/go/`: the Go SDK, module `github.com/pulumi-arcgis-admin/sdk/go` with its own go.mod
 *   (requiring Pulumi's Go SDK at the generator's version), checked with `go build ./...`;
 * - `sdk/nodejs/`: the Node.js SDK the schema names (`pulumi-arcgis-admin-sdk`), compiled into
 *   `sdk/nodejs/bin/` and packed as `sdk/dist/pulumi-arcgis-admin-sdk-<version>.tgz`.
 *
 * Each names the plugin at the package's version (pulumi-plugin.json, package.json's `pulumi`):
 * the engine runs that version of the plugin for its resources.
 *
 * Usage: node toolchain/sdk.cjs [--language python|go|nodejs]... [--out <folder>] (after
 *   `npm run build`; `npm run sdk` builds first).
 *
 * The generator is toolchain/sdkgen (Pulumi's code generators at the engine's version), built by
 * sdkgen.cjs; the wheel and the sdist are built with the virtualenv of python-sdk.cjs (setuptools
 * and wheel, no download); the Node.js SDK is compiled with this repository's TypeScript against
 * its `@pulumi/pulumi` and packed with npm (no download); the Go SDK's dependencies come from the
 * Go module proxy.
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
/** The languages `--language` takes, in the order they are written. */
const LANGUAGES = /** @type {const} */ (["python", "go", "nodejs"]);
/** @typedef {typeof LANGUAGES[number]} Language */

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
 * @param {Language} language
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
 * Builds the sdist (source archive) of a generated Python SDK into `dist` with setuptools of the
 * virtualenv (what `python -m build --sdist` runs, without the download of an isolated build).
 * Returns the archive's path.
 *
 * @param {string} python the virtualenv's python (python-sdk.cjs)
 * @param {string} sdkDir the generated SDK (holding pyproject.toml)
 * @param {string} dist
 */
function buildSdist(python, sdkDir, dist) {
  fs.mkdirSync(dist, { recursive: true });
  for (const old of fs.readdirSync(dist)) {
    if (/^pulumi_arcgis_admin-.*\.tar\.gz$/.test(old)) fs.rmSync(path.join(dist, old));
  }
  const name = mustRun(
    python,
    [
      "-c",
      "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))",
      dist,
    ],
    { cwd: sdkDir, what: "Building the Python SDK's sdist" },
  )
    .trim()
    .split("\n")
    .pop();
  fs.rmSync(path.join(sdkDir, "pulumi_arcgis_admin.egg-info"), { recursive: true, force: true });
  const sdist = path.join(dist, name ?? "");
  if (name === undefined || !fs.existsSync(sdist)) {
    throw new ToolchainError(`setuptools wrote no sdist into ${dist}.`);
  }
  return sdist;
}

/**
 * Compiles a generated Node.js SDK with this repository's TypeScript, against its `@pulumi/pulumi`
 * and `@types/node` (a `node_modules` link in the SDK's folder while it compiles), into `bin/`, as
 * Pulumi's providers publish theirs: the compiled files with package.json, README and LICENSE.
 * Then packs that folder with npm into `dist`. Returns the tarball's path.
 *
 * @param {string} sdkDir the generated SDK (holding package.json and tsconfig.json)
 * @param {string} dist
 * @param {string} packageDir the folder whose node_modules holds typescript and @pulumi/pulumi
 * @param {NodeJS.ProcessEnv} env
 */
function packNodejs(sdkDir, dist, packageDir, env) {
  const modules = path.join(packageDir, "node_modules");
  const tsc = path.join(modules, "typescript", "bin", "tsc");
  if (!fs.existsSync(tsc) || !fs.existsSync(path.join(modules, "@pulumi", "pulumi"))) {
    throw new ToolchainError(
      `The Node.js SDK is compiled with the TypeScript and @pulumi/pulumi of ${modules}, ` +
        "which has none: run `npm ci` first.",
    );
  }
  const link = path.join(sdkDir, "node_modules");
  fs.symlinkSync(modules, link, "dir");
  try {
    mustRun(process.execPath, [tsc, "-p", sdkDir], {
      cwd: sdkDir,
      env,
      what: "Compiling the Node.js SDK",
    });
  } finally {
    fs.rmSync(link, { force: true });
  }
  const bin = path.join(sdkDir, "bin");
  fs.copyFileSync(path.join(sdkDir, "package.json"), path.join(bin, "package.json"));
  fs.copyFileSync(path.join(sdkDir, "README.md"), path.join(bin, "README.md"));
  fs.copyFileSync(path.join(REPO_ROOT, "LICENSE"), path.join(bin, "LICENSE"));
  fs.mkdirSync(dist, { recursive: true });
  /** @type {unknown} */
  const manifest = JSON.parse(fs.readFileSync(path.join(bin, "package.json"), "utf8"));
  const { name, version } = /** @type {{name: string, version: string}} */ (manifest);
  const tarball = path.join(dist, `${name}-${version}.tgz`);
  fs.rmSync(tarball, { force: true });
  mustRun(
    "npm",
    ["pack", "--silent", "--ignore-scripts", "--offline", "--pack-destination", dist],
    { cwd: bin, env, what: "Packing the Node.js SDK" },
  );
  if (!fs.existsSync(tarball)) throw new ToolchainError(`npm pack wrote no ${tarball}.`);
  return tarball;
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
 * What {@link writeSdks} wrote, for the languages it was asked for.
 *
 * @typedef {{schemaFile: string, wheel?: string, sdist?: string, goDir?: string,
 *   nodejsTarball?: string}} SdkArtifacts
 */

/**
 * Writes the schema and the SDKs into `out` (see the file's comment).
 *
 * @param {{out?: string, languages?: readonly Language[], packageDir?: string,
 *   log?: (line: string) => void, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<SdkArtifacts>}
 */
async function writeSdks({
  out = path.join(REPO_ROOT, "sdk"),
  languages = LANGUAGES,
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
  /** @type {SdkArtifacts} */
  const result = { schemaFile };
  if (languages.includes("python")) {
    const python = await ensurePythonSdk({ env, log });
    const dir = path.join(out, "python");
    generate(sdkgen, "python", schemaFile, dir);
    result.wheel = buildWheel(python, dir, path.join(out, "dist"));
    result.sdist = buildSdist(python, dir, path.join(out, "dist"));
    log(`Python SDK: ${dir}; wheel: ${result.wheel}; sdist: ${result.sdist}`);
  }
  if (languages.includes("go")) {
    const dir = path.join(out, "go");
    generate(sdkgen, "go", schemaFile, dir);
    completeGoModule(dir, env);
    log(`Go SDK (module ${GO_MODULE}, compiles): ${dir}`);
    result.goDir = dir;
  }
  if (languages.includes("nodejs")) {
    const dir = path.join(out, "nodejs");
    generate(sdkgen, "nodejs", schemaFile, dir);
    result.nodejsTarball = packNodejs(dir, path.join(out, "dist"), packageDir, env);
    log(`Node.js SDK: ${dir}; npm tarball: ${result.nodejsTarball}`);
  }
  return result;
}

module.exports = {
  GO_MODULE,
  LANGUAGES,
  schemaOf,
  generate,
  buildWheel,
  buildSdist,
  packNodejs,
  completeGoModule,
  writeSdks,
};

command(require.main === module, "sdk", async () => {
  const { values } = parseArgs({
    options: { language: { type: "string", multiple: true }, out: { type: "string" } },
  });
  const asked = values.language ?? [...LANGUAGES];
  const unknown = asked.filter((l) => !(/** @type {readonly string[]} */ (LANGUAGES).includes(l)));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown --language ${unknown.join(", ")}: ${LANGUAGES.join(", ")}.\n`);
    process.exit(2);
  }
  const languages = /** @type {Language[]} */ (asked);
  await writeSdks({
    languages,
    ...(values.out === undefined ? {} : { out: path.resolve(values.out) }),
  });
});

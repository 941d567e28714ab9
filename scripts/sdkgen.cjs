#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Builds the SDK generator (tools/sdkgen: Pulumi's own code generators, at the engine's version,
 * writing the provider's Python or Go SDK from its schema) with Go, into a cache outside the
 * repository, and reuses it when it is there. scripts/sdk.cjs (`npm run sdk`) and
 * tests/real-engine/quickstart-python.test.ts run it.
 *
 * Usage: node scripts/sdkgen.cjs [--print-bin] [--quiet]
 *   builds (or finds) `sdkgen`; with --print-bin prints its path on stdout.
 *
 * What it builds: the module in tools/sdkgen, whose go.mod requires
 * github.com/pulumi/pulumi/pkg/v3 at the version scripts/engine.cjs builds the engine from (and
 * repeats pkg's `replace` of a forked module), and whose go.sum pins every dependency. About a
 * minute on a first build when the engine's modules are already downloaded.
 *
 * Cache: ARCGIS_ADMIN_SDKGEN_CACHE, else `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/sdkgen`,
 * one folder per content of tools/sdkgen (`v<pkg version>-<hash of main.go, go.mod, go.sum>`), so
 * an edited generator is built again. A build goes to a temporary folder renamed into place only
 * once the binary answers, so an interrupted build leaves nothing that looks finished. Concurrent
 * callers wait for each other (a lock folder holding the builder's pid).
 */
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const {
  findGo,
  goAtLeast,
  goVersion,
  isExecutable,
  isPackageLine,
  projectCache,
  run,
  takeLock,
} = require("./go-build.cjs");

/** The generator's Go module in the repository. */
const SDKGEN_DIR = path.resolve(__dirname, "..", "tools", "sdkgen");
/** The files that make the generator: a change to any of them is another build. */
const SOURCES = ["main.go", "go.mod", "go.sum"];
/** The module whose code generators it uses. */
const PKG_MODULE = "github.com/pulumi/pulumi/pkg/v3";
/**
 * The first Go that switches to the toolchain a go.mod asks for (tools/sdkgen/go.mod's `go` line,
 * which pkg/v3 sets) by itself.
 *
 * @type {[number, number]}
 */
const MINIMUM_GO = [1, 21];

class SdkgenError extends Error {}

function cacheRoot(env = process.env) {
  if (env.ARCGIS_ADMIN_SDKGEN_CACHE) return path.resolve(env.ARCGIS_ADMIN_SDKGEN_CACHE);
  return projectCache("sdkgen", env);
}

/** The version of pkg/v3 that tools/sdkgen/go.mod requires (`3.274.1`). */
function pkgVersion(dir = SDKGEN_DIR) {
  const gomod = fs.readFileSync(path.join(dir, "go.mod"), "utf8");
  const match = /^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 v(\S+)/m.exec(gomod);
  if (match?.[1] === undefined) {
    throw new SdkgenError(`${path.join(dir, "go.mod")} does not require ${PKG_MODULE}.`);
  }
  return match[1];
}

/** The cache folder's name for the generator's current source. */
function buildKey(dir = SDKGEN_DIR) {
  const hash = crypto.createHash("sha256");
  for (const file of SOURCES) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(dir, file)));
    hash.update("\0");
  }
  return `v${pkgVersion(dir)}-${hash.digest("hex").slice(0, 16)}`;
}

/** The cached generator of the current source, or undefined. */
function cachedSdkgen(env = process.env) {
  const bin = path.join(cacheRoot(env), buildKey(), "bin", "sdkgen");
  return isExecutable(bin) ? bin : undefined;
}

/**
 * Builds the generator into `<cache>/<key>/bin/sdkgen`.
 *
 * @param {string} go
 * @param {{env: NodeJS.ProcessEnv, log: (line: string) => void}} options
 */
async function build(go, { env, log }) {
  const cache = cacheRoot(env);
  const key = buildKey();
  fs.mkdirSync(cache, { recursive: true });
  const work = fs.mkdtempSync(path.join(cache, `.build-${key}-`));
  const goEnv = {
    ...env,
    // go.sum pins every module: the build must not change go.mod or go.sum.
    GOFLAGS: [env.GOFLAGS, "-buildvcs=false", "-mod=readonly"].filter(Boolean).join(" "),
  };
  try {
    log(
      `Building the SDK generator (tools/sdkgen, ${PKG_MODULE} v${pkgVersion()}) with ${go} into ` +
        `${cache} (once; about a minute when the engine's modules are downloaded, more otherwise).`,
    );
    const bin = path.join(work, "bin");
    fs.mkdirSync(bin);
    let compiled = 0;
    let downloads = 0;
    const started = Date.now();
    const built = await run(
      go,
      ["build", "-v", "-trimpath", "-ldflags", "-s -w", "-o", path.join(bin, "sdkgen"), "."],
      {
        cwd: SDKGEN_DIR,
        env: goEnv,
        log,
        what: () => `${downloads} modules downloaded, ${compiled} packages compiled`,
        onLine: (line) => {
          if (line.startsWith("go: downloading")) downloads += 1;
          else if (isPackageLine(line)) compiled += 1;
        },
      },
    );
    if (built.code !== 0) {
      throw new SdkgenError(
        `Compiling the SDK generator failed:\n${built.output.split("\n").slice(-15).join("\n")}`,
      );
    }
    log(`  compiled in ${Math.round((Date.now() - started) / 1000)} s.`);
    // Without arguments it answers with its usage (and exit code 1): it runs.
    const check = spawnSync(path.join(bin, "sdkgen"), [], { encoding: "utf8" });
    if (!/usage: sdkgen/.test(check.stderr ?? "")) {
      throw new SdkgenError(
        `The built sdkgen does not answer with its usage: ${check.stdout}${check.stderr}`,
      );
    }
    const target = path.join(cache, key);
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target, { recursive: true });
    fs.renameSync(bin, path.join(target, "bin"));
    fs.writeFileSync(
      path.join(target, "build.json"),
      `${JSON.stringify({ pkg: pkgVersion(), go: spawnSync(go, ["env", "GOVERSION"], { encoding: "utf8" }).stdout.trim(), builtAt: new Date().toISOString() })}\n`,
    );
    const sdkgen = cachedSdkgen(env);
    if (sdkgen === undefined) throw new SdkgenError(`The sdkgen built into ${target} is missing.`);
    return sdkgen;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The SDK generator to run: the cached one, or a fresh build. Throws an SdkgenError with a
 * message for people when Go is missing or too old, or the build fails.
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<{bin: string, pkgVersion: string, built: boolean, seconds: number}>}
 */
async function ensureSdkgen({
  env = process.env,
  log = (l) => process.stderr.write(`${l}\n`),
} = {}) {
  const started = Date.now();
  const done = (/** @type {string} */ bin, /** @type {boolean} */ built) => ({
    bin,
    pkgVersion: pkgVersion(),
    built,
    seconds: (Date.now() - started) / 1000,
  });
  const found = cachedSdkgen(env);
  if (found) return done(found, false);
  const go = findGo(env);
  if (go === undefined) {
    throw new SdkgenError(
      "Building the SDK generator (tools/sdkgen) needs Go, and there is no `go` on PATH (nor in " +
        `$GOROOT/bin).\nInstall Go ${MINIMUM_GO.join(".")} or later (https://go.dev/doc/install) ` +
        "and run this again.",
    );
  }
  const goVer = goVersion(go);
  if (!goAtLeast(goVer, MINIMUM_GO)) {
    throw new SdkgenError(
      `Building the SDK generator needs Go ${MINIMUM_GO.join(".")} or later; ${go} is ${goVer ? goVer.join(".") : "of unknown version"}.`,
    );
  }
  const cache = cacheRoot(env);
  const release = await takeLock(path.join(cache, ".lock"), log, "building the SDK generator");
  try {
    const built = cachedSdkgen(env); // by whoever held the lock
    if (built) return done(built, false);
    return done(await build(go, { env, log }), true);
  } finally {
    release();
  }
}

module.exports = { SDKGEN_DIR, SdkgenError, cacheRoot, pkgVersion, cachedSdkgen, ensureSdkgen };

if (require.main === module) {
  const args = process.argv.slice(2);
  const quiet = args.includes("--quiet");
  ensureSdkgen(quiet ? { log: () => {} } : {}).then(
    (sdkgen) => {
      if (args.includes("--print-bin")) process.stdout.write(`${sdkgen.bin}\n`);
      else if (!quiet)
        process.stderr.write(
          `SDK generator (pkg v${sdkgen.pkgVersion}): ${sdkgen.bin}${sdkgen.built ? ` (built in ${Math.round(sdkgen.seconds)} s)` : " (cached)"}\n`,
        );
    },
    /** @param {unknown} error */
    (error) => {
      const shown =
        error instanceof SdkgenError ? error.message : error instanceof Error ? error.stack : error;
      process.stderr.write(`\n${String(shown)}\n`);
      process.exit(1);
    },
  );
}

#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Builds the SDK generator (toolchain/sdkgen/: Pulumi's own code generators, at the engine's
 * version, writing the provider's Python or Go SDK from its schema) with Go, into the cache, and
 * reuses it when it is there. sdk.cjs (`npm run sdk`) and tests/real-engine/quickstart-python.test.ts
 * run it.
 *
 * Usage: node toolchain/sdkgen.cjs [--print-bin] [--quiet]
 *   builds (or finds) `sdkgen`; with --print-bin prints its path on stdout.
 *
 * What it builds: the module in toolchain/sdkgen, whose go.mod requires
 * github.com/pulumi/pulumi/pkg/v3 at the version engine.cjs builds the engine from (and repeats
 * pkg's `replace` of a forked module), and whose go.sum pins every dependency. About a minute on a
 * first build when the engine's modules are already downloaded.
 *
 * Cache: ARCGIS_ADMIN_SDKGEN_CACHE, else `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/sdkgen`,
 * one folder per content of toolchain/sdkgen (`v<pkg version>-<hash of main.go, go.mod, go.sum>`),
 * so an edited generator is built again.
 */
const { spawnSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, buildOnce, isExecutable, toolCache } = require("./cache.cjs");
const { command } = require("./command.cjs");
const go = require("./go.cjs");

/** The generator's Go module in the repository. */
const SDKGEN_DIR = path.join(__dirname, "sdkgen");
/** The files that make the generator: a change to any of them is another build. */
const SOURCES = ["main.go", "go.mod", "go.sum"];
/** The module whose code generators it uses. */
const PKG_MODULE = "github.com/pulumi/pulumi/pkg/v3";
/**
 * The first Go that switches to the toolchain a go.mod asks for (toolchain/sdkgen/go.mod's `go`
 * line, which pkg/v3 sets) by itself.
 *
 * @type {[number, number]}
 */
const MINIMUM_GO = [1, 21];

/** The cache's folder. */
function cacheRoot(env = process.env) {
  return toolCache("sdkgen", "ARCGIS_ADMIN_SDKGEN_CACHE", env);
}

/** The version of pkg/v3 that toolchain/sdkgen/go.mod requires (`3.274.1`). */
function pkgVersion(dir = SDKGEN_DIR) {
  const gomod = fs.readFileSync(path.join(dir, "go.mod"), "utf8");
  const match = /^\s*github\.com\/pulumi\/pulumi\/pkg\/v3 v(\S+)/m.exec(gomod);
  if (match?.[1] === undefined) {
    throw new ToolchainError(`${path.join(dir, "go.mod")} does not require ${PKG_MODULE}.`);
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
 * The SDK generator to run: the cached one, or a fresh build. Throws a ToolchainError with a
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
  const root = cacheRoot(env);
  const what = "the SDK generator (toolchain/sdkgen)";
  const { value, built } = await buildOnce({
    root,
    key: buildKey(),
    find: () => cachedSdkgen(env),
    log,
    what: "building the SDK generator",
    prepare: () => go.requireGo({ what, minimum: MINIMUM_GO, env }),
    build: async (out, _work, goBin) => {
      log(
        `Building ${what}, ${PKG_MODULE} v${pkgVersion()}, with ${goBin} into ${root} (once; ` +
          "about a minute when the engine's modules are downloaded, more otherwise).",
      );
      const bin = path.join(out, "bin", "sdkgen");
      fs.mkdirSync(path.dirname(bin), { recursive: true });
      // go.sum pins every module: the build must not change go.mod or go.sum.
      await go.goCompile(goBin, ".", bin, {
        cwd: SDKGEN_DIR,
        env: go.goEnv(env, "readonly"),
        log,
        step: "[1/1]",
        what: "the SDK generator",
        ldflags: "-s -w",
      });
      // Without arguments it answers with its usage (and exit code 1): it runs.
      const check = spawnSync(bin, [], { encoding: "utf8" });
      if (!/usage: sdkgen/.test(check.stderr ?? "")) {
        throw new ToolchainError(
          `The built sdkgen does not answer with its usage: ${check.stdout}${check.stderr}`,
        );
      }
      go.writeBuildRecord(out, goBin, { pkg: pkgVersion() });
    },
  });
  return { bin: value, pkgVersion: pkgVersion(), built, seconds: (Date.now() - started) / 1000 };
}

module.exports = { SDKGEN_DIR, cacheRoot, pkgVersion, cachedSdkgen, ensureSdkgen };

command(require.main === module, "sdkgen", async ({ args, quiet, options }) => {
  const sdkgen = await ensureSdkgen(options);
  if (args.includes("--print-bin")) process.stdout.write(`${sdkgen.bin}\n`);
  else if (!quiet)
    process.stderr.write(
      `SDK generator (pkg v${sdkgen.pkgVersion}): ${sdkgen.bin}${sdkgen.built ? ` (built in ${Math.round(sdkgen.seconds)} s)` : " (cached)"}\n`,
    );
});

#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Builds SeaweedFS (an S3-compatible object store, Apache-2.0) from source with Go, into the
 * cache, and reuses it when it is there: SiteExport's and SiteImport's object storage is tested
 * against it, never against a mock of S3. object-store/start.cjs starts it.
 *
 * Usage: node toolchain/object-store.cjs [--print-bin] [--quiet]
 *   builds (or finds) `weed`; with --print-bin prints its path on stdout.
 *
 * What it builds: `weed`, from the Go module github.com/seaweedfs/seaweedfs at
 * {@link SEAWEEDFS_VERSION} (cmd `weed`), through a small build module that repeats the module's
 * one `replace` (github.com/tyler-smith/go-bip39 => github.com/cosmos/go-bip39 v1.0.0): a
 * dependency's `replace`s are ignored, so `go install seaweedfs/weed@version` refuses it. A first
 * build takes minutes and makes a large binary, hence the cache.
 *
 * Cache: ARCGIS_ADMIN_OBJECT_STORE_CACHE, else
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/object-store`, one folder per version.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, buildOnce, isExecutable, toolCache } = require("./cache.cjs");
const { command } = require("./command.cjs");
const go = require("./go.cjs");

/** The Go module SeaweedFS is built from, and the version (a pseudo-version of its master). */
const SEAWEEDFS_MODULE = "github.com/seaweedfs/seaweedfs";
const SEAWEEDFS_VERSION = "v0.0.0-20261109003541-7506e5f91cd6";
/** The module's own `replace`, which a build module must repeat. */
const FORK_REPLACES = [["github.com/tyler-smith/go-bip39", "github.com/cosmos/go-bip39", "v1.0.0"]];
/** @type {[number, number]} */
const MINIMUM_GO = [1, 26];

/** The cache's folder. */
function cacheRoot(env = process.env) {
  return toolCache("object-store", "ARCGIS_ADMIN_OBJECT_STORE_CACHE", env);
}

/** The cached `weed` of {@link SEAWEEDFS_VERSION}, or undefined. */
function cachedWeed(env = process.env) {
  const bin = path.join(cacheRoot(env), SEAWEEDFS_VERSION, "bin", "weed");
  return isExecutable(bin) ? bin : undefined;
}

/**
 * The `weed` to run: the cached one, or a fresh build. Throws a ToolchainError with a message for
 * people when Go is missing or too old, or the build fails.
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<{bin: string, version: string, built: boolean, seconds: number}>}
 */
async function ensureObjectStore({
  env = process.env,
  log = (l) => process.stderr.write(`${l}\n`),
} = {}) {
  const started = Date.now();
  const root = cacheRoot(env);
  const { value, built } = await buildOnce({
    root,
    key: SEAWEEDFS_VERSION,
    find: () => cachedWeed(env),
    log,
    what: "building SeaweedFS",
    prepare: () => {
      const what = "SeaweedFS (the S3-compatible object store the tests use)";
      return go.requireGo({ what, minimum: MINIMUM_GO, env });
    },
    build: async (out, work, goBin) => {
      log(
        `Building SeaweedFS ${SEAWEEDFS_VERSION} with ${goBin} into ${root} (once; the first build takes a few minutes).`,
      );
      fs.writeFileSync(
        path.join(work, "go.mod"),
        `module pulumi-arcgis-admin.local/object-store\n\ngo 1.26\n\n` +
          `require ${SEAWEEDFS_MODULE} ${SEAWEEDFS_VERSION}\n\n` +
          FORK_REPLACES.map(([from, to, at]) => `replace ${from} => ${to} ${at}\n`).join(""),
      );
      const steps = { cwd: work, work, env: go.goEnv(env, "mod"), log };
      const pkg = `${SEAWEEDFS_MODULE}/weed`;
      await go.goGet(goBin, `${pkg}@${SEAWEEDFS_VERSION}`, `SeaweedFS (${SEAWEEDFS_VERSION})`, {
        ...steps,
        step: "[1/3]",
      });
      const bin = path.join(out, "bin", "weed");
      fs.mkdirSync(path.dirname(bin), { recursive: true });
      await go.goCompile(goBin, pkg, bin, {
        ...steps,
        step: "[2/3]",
        what: "weed",
        ldflags: "-s -w",
      });
      log("[3/3] Checking `weed version`...");
      const check = spawnSync(bin, ["version"], { encoding: "utf8" });
      if (check.status !== 0 || !/version/i.test(check.stdout)) {
        throw new ToolchainError(
          `The built weed does not answer \`weed version\`: ${check.stdout}${check.stderr}`,
        );
      }
      go.writeBuildRecord(out, goBin, { module: SEAWEEDFS_MODULE, version: SEAWEEDFS_VERSION });
    },
  });
  if (built) log(`SeaweedFS ready: ${value}`);
  const seconds = (Date.now() - started) / 1000;
  return { bin: value, version: SEAWEEDFS_VERSION, built, seconds };
}

module.exports = { SEAWEEDFS_MODULE, SEAWEEDFS_VERSION, cacheRoot, cachedWeed, ensureObjectStore };

command(require.main === module, "object-store", async ({ args, quiet, options }) => {
  const store = await ensureObjectStore(options);
  if (args.includes("--print-bin")) process.stdout.write(`${store.bin}\n`);
  else if (!quiet)
    process.stderr.write(
      `SeaweedFS ${store.version}: ${store.bin}${store.built ? ` (built in ${Math.round(store.seconds)} s)` : " (cached)"}\n`,
    );
});

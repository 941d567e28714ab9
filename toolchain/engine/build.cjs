// @ts-check
"use strict";
/**
 * Builds the Pulumi engine (the `pulumi` CLI) from source with Go, into the cache
 * (engine/versions.cjs says which version and where), and reuses it when it is there.
 *
 * What it builds, in `<cache>/v<version>/bin/`:
 * - `pulumi`, from the Go module github.com/pulumi/pulumi/pkg/v3 (cmd/pulumi), through a small
 *   build module that requires pkg/v3 and sdk/v3 at the same version and repeats pkg's `replace`
 *   of a forked module (pkg's go.mod `replace`s are ignored for a dependency, so
 *   `go install pkg/...@version` refuses it), with the version stamped in by -ldflags;
 * - the dynamic-provider launcher (engine/launcher.cjs).
 * The Node.js language host is installed beside a cached engine each time it is found
 * (language-hosts/nodejs.cjs), so that an engine picks up a changed host without a rebuild.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, buildInto, takeLock, writeIfChanged } = require("../cache.cjs");
const go = require("../go.cjs");
const { installNodejsHost } = require("../language-hosts/nodejs.cjs");
const { LAUNCHER, launcherScript, refreshLauncher } = require("./launcher.cjs");
const versions = require("./versions.cjs");

/** pkg/v3's own `replace` of a forked module, which a build module must repeat. */
const FORK_REPLACES = [
  [
    "github.com/atotto/clipboard",
    "github.com/tgummerer/clipboard",
    "v0.0.0-20241001131231-d02d263e614e",
  ],
];
/** @type {[number, number]} */
const MINIMUM_GO = [1, 25];

/** @typedef {{root: string, version: string, bin: string}} CachedEngine */

/**
 * The engine of one version in the cache, with its launcher and Node.js host brought up to date;
 * undefined when the cache has no complete engine of that version.
 *
 * @param {string} version
 * @returns {CachedEngine | undefined}
 */
function cachedEngine(version, env = process.env) {
  const root = versions.completeEngine(version, env);
  if (root === undefined) return undefined;
  refreshLauncher(root);
  installNodejsHost({ root, version }, env);
  return { root, version, bin: path.join(root, "bin", "pulumi") };
}

/**
 * Builds one version into `<cache>/v<version>`. Throws a RefusedError when the proxy refuses it.
 *
 * @param {string} version
 * @param {string} goBin
 * @param {{env: NodeJS.ProcessEnv, log: (line: string) => void}} options
 * @returns {Promise<CachedEngine>}
 */
async function build(version, goBin, { env, log }) {
  // The version goes into go.mod and names folders.
  if (versions.parseVersion(version) !== version) {
    throw new ToolchainError(`Not a version: ${version}`);
  }
  await buildInto(versions.cacheRoot(env), `v${version}`, async (out, work) => {
    const replaces = FORK_REPLACES.map(([from, to, at]) => `replace ${from} => ${to} ${at}\n`);
    fs.writeFileSync(
      path.join(work, "go.mod"),
      `module pulumi-arcgis-admin.local/engine\n\ngo 1.25\n\nrequire (\n` +
        `\tgithub.com/pulumi/pulumi/pkg/v3 v${version}\n\tgithub.com/pulumi/pulumi/sdk/v3 v${version}\n)\n\n` +
        replaces.join(""),
    );
    const steps = { cwd: work, work, env: go.goEnv(env, "mod"), log };
    const cmd = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
    await go.goGet(goBin, `${cmd}@v${version}`, `the Pulumi engine (v${version})`, {
      ...steps,
      step: "[1/3]",
    });
    const bin = path.join(out, "bin");
    fs.mkdirSync(bin, { recursive: true });
    await go.goCompile(goBin, cmd, path.join(bin, "pulumi"), {
      ...steps,
      step: "[2/3]",
      what: "the pulumi CLI",
      ldflags: `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
    });
    log(
      `[3/3] Writing ${LAUNCHER} (the dynamic-provider launcher) and checking \`pulumi version\`...`,
    );
    writeIfChanged(path.join(bin, LAUNCHER), launcherScript(), 0o755);
    const check = spawnSync(path.join(bin, "pulumi"), ["version"], {
      encoding: "utf8",
      env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_HOME: path.join(work, "home") },
    });
    if (check.status !== 0 || check.stdout.trim() !== `v${version}`) {
      throw new ToolchainError(
        `The built pulumi does not answer \`pulumi version\` with v${version}: ${check.stdout}${check.stderr}`,
      );
    }
    go.writeBuildRecord(out, goBin, { version });
  });
  const engine = cachedEngine(version, env);
  if (engine === undefined) throw new ToolchainError(`The engine v${version} built is incomplete.`);
  return engine;
}

/**
 * The engine to use: the cached one, or a fresh build. Throws a ToolchainError with a message for
 * people when Go is missing or every candidate version fails.
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<CachedEngine & {built: boolean, seconds: number}>}
 */
async function ensureEngine({
  env = process.env,
  log = (l) => process.stderr.write(`${l}\n`),
} = {}) {
  const started = Date.now();
  /** @param {CachedEngine} engine @param {boolean} built */
  const done = (engine, built) => ({ ...engine, built, seconds: (Date.now() - started) / 1000 });
  const resolved = versions.resolveVersions(env, go.findGo(env));
  const cached = () => {
    for (const version of resolved.versions) {
      const found = cachedEngine(version, env);
      if (found) {
        if (resolved.note !== undefined) log(resolved.note);
        return done(found, false);
      }
    }
    return undefined;
  };
  const found = cached();
  if (found) return found;
  const cache = versions.cacheRoot(env);
  const lock = path.join(cache, ".lock");
  if (resolved.versions.length === 0 && fs.existsSync(lock)) {
    // Nothing cached and the newest version unknown: what another process is building now is
    // the best there is.
    (await takeLock(lock, log, "building the engine"))();
    resolved.versions = versions.cachedVersions(env);
    if (resolved.versions[0] !== undefined) {
      resolved.note ??= `Using v${resolved.versions[0]}, which another process has just built.`;
    }
    const built = cached();
    if (built) return built;
  }
  const what = "the Pulumi engine";
  const goBin = go.requireGo({
    what,
    minimum: MINIMUM_GO,
    otherwise: versions.OR_INSTALL_PULUMI,
    env,
  });
  if (resolved.versions.length === 0) {
    throw new ToolchainError(
      `Cannot tell which Pulumi engine to build: ${resolved.unreachable ?? "no version"}, and the ` +
        `cache (${cache}) holds no engine. Check the network or GOPROXY (\`go list -m -versions ` +
        `${versions.ENGINE_MODULE}\` must answer), or set ARCGIS_ADMIN_PULUMI_VERSION to the version to build.`,
    );
  }
  const forced = versions.forcedVersion(env) !== undefined;
  const why = forced
    ? "ARCGIS_ADMIN_PULUMI_VERSION"
    : `the newest release the Go module proxy serves at or above the @pulumi/pulumi ${versions.lockedSdkVersion()} of package-lock.json`;
  const release = await takeLock(lock, log, "building the engine");
  try {
    const failures = [];
    const candidates = resolved.versions;
    for (const version of candidates) {
      const found = cachedEngine(version, env); // built by whoever held the lock
      if (found) return done(found, false);
      log(
        `Building the Pulumi engine v${version} (${why}) with ${goBin} into ${cache} (once; the first build takes several minutes).`,
      );
      try {
        const engine = await build(version, goBin, { env, log });
        log(`Pulumi engine v${version} ready: ${engine.bin}`);
        return done(engine, true);
      } catch (error) {
        if (!(error instanceof go.RefusedError)) throw error;
        failures.push(`v${version}`);
        log(
          `The Go module proxy does not serve the source of pulumi v${version} ("not available").` +
            (version === candidates[candidates.length - 1] ? "" : " Trying the next version."),
        );
      }
    }
    const fallback = versions.cachedVersions(env)[0];
    const engine = fallback === undefined || forced ? undefined : cachedEngine(fallback, env);
    if (engine !== undefined) {
      log(`Using the newest cached engine instead, v${engine.version}.`);
      return done(engine, false);
    }
    throw new ToolchainError(
      `The Go module proxy serves none of ${failures.join(", ")} of the Pulumi engine.`,
    );
  } finally {
    release();
  }
}

module.exports = { cachedEngine, ensureEngine };

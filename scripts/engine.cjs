#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Builds the Pulumi engine (the `pulumi` CLI) from source with Go, into a cache outside the
 * repository, and reuses it when it is there. `npm start`, `npm run destroy` and the real-engine
 * suite (tests/real-engine/) use it when no other Pulumi CLI is installed.
 *
 * Usage: node scripts/engine.cjs [--print-root] [--quiet]
 *   builds (or finds) the engine, then the tools of {@link ALSO_BUILT}, and prints where each is;
 *   with --print-root, the engine only, and prints its root folder (the one whose bin/ holds
 *   `pulumi` and the language hosts) on stdout.
 *
 * What it builds, in `<cache>/v<version>/bin/`:
 * - `pulumi`, from the Go module github.com/pulumi/pulumi/pkg/v3 (cmd/pulumi), through a small
 *   build module that requires pkg/v3 and sdk/v3 at the same version and repeats pkg's `replace`
 *   of a forked module (pkg's go.mod `replace`s are ignored for a dependency, so
 *   `go install pkg/...@version` refuses it), with the version stamped in by -ldflags;
 * - `pulumi-resource-pulumi-nodejs`, the launcher the engine starts for dynamic providers: Pulumi
 *   ships it as a small shell script in its release archive (no Go module has it). Ours does the
 *   same: it resolves `@pulumi/pulumi/cmd/dynamic-provider` from its working directory (the
 *   Pulumi project) and runs it with the `node` on PATH.
 * - Pulumi YAML's language host `pulumi-language-yaml` v1.25.0, in its own Go module (pkg/v3 at
 *   the version pulumi-yaml requires), into `<cache>/pulumi-language-yaml/v1.25.0/bin/`: see
 *   {@link LANGUAGE_YAML}; {@link ALSO_BUILT} lists such further tools.
 * The Go helpers (finding Go, the build lock, progress lines) are scripts/go-build.cjs's.
 * - `pulumi-language-nodejs` and `pulumi-language-python`, which the Go module proxy does not
 *   serve: scripts/language-hosts.cjs installs ours beside the CLI, where the engine finds them.
 *
 * Version: the newest release of github.com/pulumi/pulumi/pkg/v3 that the Go module proxy serves
 * and that is at least the version of `@pulumi/pulumi` in package-lock.json (the SDK the package
 * is tested with). The proxy's version list comes from `go list -m -versions` (so GOPROXY,
 * GOPRIVATE, GOFLAGS and the rest apply as they do to the build); when the proxy refuses the
 * newest one's source ("not available"), the next newer-than-the-SDK one is tried. When the list
 * cannot be had (no network, GOPROXY=off, no Go), the newest engine already in the cache is used,
 * and it says so. A version already in the cache is never built again.
 * ARCGIS_ADMIN_PULUMI_VERSION forces one version: a strict semantic version MAJOR.MINOR.PATCH of
 * major 3, with an optional leading `v` and an optional prerelease (`3.274.1`, `v3.274.1`,
 * `3.275.0-alpha.1`); anything else (a path, build metadata, leading zeros) is refused, as it names
 * a cache folder and goes into the build's go.mod.
 *
 * Cache: ARCGIS_ADMIN_ENGINE_CACHE, else `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/engine`.
 * A build goes to a temporary folder that is renamed into place only once `pulumi version`
 * answers, so an interrupted build leaves nothing that looks finished. Concurrent callers wait
 * for each other (a lock folder holding the builder's pid).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const {
  projectCache,
  isExecutable,
  findGo,
  goVersion,
  goAtLeast,
  takeLock,
  run,
  isPackageLine,
} = require("./go-build.cjs");
const { ensureLanguageHosts, installNodejsHost } = require("./language-hosts.cjs");

const REPO_ROOT = path.resolve(__dirname, "..");
/** How long the Go module proxy may take to list the engine's versions. */
const LIST_TIMEOUT_MS = 20_000;
/** The Go module the engine is built from; its version list is what the proxy serves. */
const ENGINE_MODULE = "github.com/pulumi/pulumi/pkg/v3";
/**
 * A semantic version (semver.org 2.0.0, without build metadata) of major 3, optionally with a
 * leading `v` (Go's spelling). Groups: 1 the version without the `v`.
 */
const VERSION_PATTERN =
  /^v?(3\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?)$/;
/** pkg/v3's own `replace` of a forked module, which a build module must repeat. */
const FORK_REPLACES = [
  [
    "github.com/atotto/clipboard",
    "github.com/tgummerer/clipboard",
    "v0.0.0-20241001131231-d02d263e614e",
  ],
];
const LAUNCHER = "pulumi-resource-pulumi-nodejs";
/** @type {[number, number]} */
const MINIMUM_GO = [1, 25];

class EngineError extends Error {
  /** Whether the Go module proxy refused the version (the next one may be tried). */
  refused = false;
}

/** @typedef {{root: string, version: string, bin: string}} CachedEngine */

function cacheRoot(env = process.env) {
  if (env.ARCGIS_ADMIN_ENGINE_CACHE) return path.resolve(env.ARCGIS_ADMIN_ENGINE_CACHE);
  return projectCache("engine", env);
}

/** The version of @pulumi/pulumi that package-lock.json pins. */
function lockedSdkVersion(root = REPO_ROOT) {
  /** @type {unknown} */
  const parsed = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const lock = /** @type {{packages?: Record<string, {version?: unknown}>}} */ (parsed);
  const version = lock.packages?.["node_modules/@pulumi/pulumi"]?.version;
  if (typeof version !== "string") {
    throw new EngineError("package-lock.json has no node_modules/@pulumi/pulumi entry.");
  }
  return version;
}

/**
 * The version a text names (without its `v`), or undefined when it is not a version
 * {@link VERSION_PATTERN} accepts.
 *
 * @param {string} text
 * @example parseVersion("v3.274.1") // "3.274.1"; parseVersion("x/../bin") // undefined
 */
function parseVersion(text) {
  return VERSION_PATTERN.exec(text)?.[1];
}

/**
 * Compares two versions {@link parseVersion} accepted, by semver precedence.
 *
 * @param {string} a
 * @param {string} b
 * @returns {number} negative when a < b, 0 when equal, positive when a > b.
 */
function compareVersions(a, b) {
  /** @param {string} v */
  const split = (v) => {
    const [core = "", pre] = v.split(/-(.*)/s, 2);
    return { core: core.split(".").map(Number), pre: pre === undefined ? [] : pre.split(".") };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const p = /** @type {string} */ (x.pre[i]);
    const q = /** @type {string} */ (y.pre[i]);
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return x.pre.length - y.pre.length;
}

/**
 * ARCGIS_ADMIN_PULUMI_VERSION, checked: the version it forces, or undefined when it is unset or
 * empty. Throws an EngineError naming the variable when it is not a version.
 */
function forcedVersion(env = process.env) {
  const forced = env.ARCGIS_ADMIN_PULUMI_VERSION;
  if (forced === undefined || forced === "") return undefined;
  const version = parseVersion(forced);
  if (version === undefined) {
    throw new EngineError(
      `ARCGIS_ADMIN_PULUMI_VERSION must be a version of ${ENGINE_MODULE} such as 3.274.1 or ` +
        `v3.274.1 (MAJOR.MINOR.PATCH of major 3, optionally with a -prerelease), got ` +
        `${JSON.stringify(forced)}. Unset it to build the newest version the Go module proxy serves.`,
    );
  }
  return version;
}

/**
 * The complete engines in the cache, newest first (only folders named v<version>).
 *
 * @returns {string[]}
 */
function cachedVersions(env = process.env) {
  let names;
  try {
    names = fs.readdirSync(cacheRoot(env));
  } catch {
    return [];
  }
  return names
    .map((name) => (name.startsWith("v") ? parseVersion(name) : undefined))
    .filter(/** @returns {v is string} */ (v) => v !== undefined)
    .filter((v) => cachedEngine(v, env) !== undefined)
    .sort((a, b) => compareVersions(b, a));
}

/**
 * The released versions of {@link ENGINE_MODULE} the Go module proxy lists (`go list -m
 * -versions`, which honours GOPROXY and GOFLAGS like the build), or why they could not be had.
 *
 * @param {string | undefined} go
 * @returns {{versions: string[]} | {error: string}}
 */
function servedVersions(go, env = process.env) {
  if (go === undefined) return { error: "there is no `go` to ask the Go module proxy with" };
  const result = spawnSync(go, ["list", "-m", "-versions", ENGINE_MODULE], {
    cwd: os.tmpdir(),
    encoding: "utf8",
    env: { ...env, GO111MODULE: "on", GOFLAGS: "" },
    // A proxy that does not answer must not hold `npm start` up for long: the cache is used then.
    timeout: LIST_TIMEOUT_MS,
  });
  if (
    result.error !== undefined &&
    /** @type {NodeJS.ErrnoException} */ (result.error).code === "ETIMEDOUT"
  ) {
    return {
      error: `\`go list -m -versions ${ENGINE_MODULE}\` got no answer within ${LIST_TIMEOUT_MS / 1000} s`,
    };
  }
  const words = (result.stdout ?? "").trim().split(/\s+/);
  if (result.status !== 0 || words[0] !== ENGINE_MODULE) {
    const why = (result.stderr ?? "").trim().split("\n").slice(-3).join(" ");
    return { error: why || (result.error?.message ?? `go list exited with ${result.status}`) };
  }
  return {
    versions: words
      .slice(1)
      .map(parseVersion)
      .filter(/** @returns {v is string} */ (v) => v !== undefined && !v.includes("-")),
  };
}

/**
 * The versions to use, in order of preference, and why:
 * - ARCGIS_ADMIN_PULUMI_VERSION when set (checked by {@link forcedVersion});
 * - else the releases the proxy lists that are at least the locked SDK's, newest first;
 * - else (the list cannot be had) the cached engines, newest first, with a note saying so.
 * Asks the proxy (a fraction of a second) but never builds.
 *
 * @returns {{versions: string[], note?: string, unreachable?: string}}
 */
function resolveVersions(env = process.env, go = findGo(env)) {
  const forced = forcedVersion(env);
  if (forced !== undefined) return { versions: [forced] };
  const locked = lockedSdkVersion();
  const served = servedVersions(go, env);
  if ("versions" in served) {
    const usable = served.versions
      .filter((v) => compareVersions(v, locked) >= 0)
      .sort((a, b) => compareVersions(b, a));
    if (usable.length > 0) return { versions: usable };
    const cached = cachedVersions(env);
    return {
      versions: cached,
      unreachable: `the Go module proxy lists no version of ${ENGINE_MODULE} at or above ${locked} (the @pulumi/pulumi of package-lock.json; newest listed: ${served.versions.sort(compareVersions).at(-1) ?? "none"})`,
      ...(cached.length > 0 && {
        note: `The Go module proxy lists no version of the engine at or above v${locked}; using the cached v${cached[0]}.`,
      }),
    };
  }
  const cached = cachedVersions(env);
  return {
    versions: cached,
    unreachable: `the Go module proxy's version list of ${ENGINE_MODULE} could not be had: ${served.error}`,
    ...(cached.length > 0 && {
      note: `Could not ask the Go module proxy for the newest engine (${served.error}); using the newest cached one, v${cached[0]}.`,
    }),
  };
}

/**
 * The versions to use, in order of preference ({@link resolveVersions} without its notes).
 * Throws an EngineError when ARCGIS_ADMIN_PULUMI_VERSION is not a version.
 */
function candidateVersions(env = process.env) {
  return resolveVersions(env).versions;
}

/**
 * The engine root of one version: `<root>/bin/pulumi` and the launcher, or undefined.
 *
 * @param {string} version
 * @returns {CachedEngine | undefined}
 */
function cachedEngine(version, env = process.env) {
  // The version names a folder: never one outside the cache.
  if (parseVersion(version) !== version) return undefined;
  const root = path.join(cacheRoot(env), `v${version}`);
  const ok = ["pulumi", LAUNCHER].every((f) => isExecutable(path.join(root, "bin", f)));
  if (!ok) return undefined;
  refreshLauncher(root);
  installNodejsHost({ root, version });
  return { root, version, bin: path.join(root, "bin", "pulumi") };
}

/**
 * The launcher script: what Pulumi's release ships under the same name, for node. Pulumi's runs
 * `node ./node_modules/@pulumi/pulumi/cmd/dynamic-provider` from the project folder (the working
 * directory, as the engine starts it). Ours looks for that file there and in each parent folder
 * (where a workspace hoists it), as Node's resolution does, and runs it; only when none has it,
 * it asks Node to resolve the module (NODE_PATH, global folders), which costs a second Node start
 * before every dynamic-provider host.
 */
function launcherScript() {
  return [
    "#!/bin/sh",
    "# Starts the dynamic-provider host of the @pulumi/pulumi that the Pulumi project (the working",
    "# directory, as the engine starts it) resolves, with the node on PATH. Written by",
    "# pulumi-arcgis-admin's scripts/engine.cjs, in place of the script Pulumi's release ships.",
    "host=node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js",
    "dir=$PWD",
    'while [ -n "$dir" ]; do',
    '  if [ -f "$dir/$host" ]; then exec node "$dir/$host" "$@"; fi',
    "  dir=${dir%/*}",
    "done",
    'if [ -f "/$host" ]; then exec node "/$host" "$@"; fi',
    "script=$(node -e 'process.stdout.write(require.resolve(\"@pulumi/pulumi/cmd/dynamic-provider\", { paths: [process.cwd()] }))') || exit 1",
    'exec node "$script" "$@"',
    "",
  ].join("\n");
}

/**
 * Brings the launcher of an engine built before its script last changed up to date (written
 * anew, then renamed over the old one), so that a cached engine never needs a rebuild for it.
 *
 * @param {string} root
 */
function refreshLauncher(root) {
  const file = path.join(root, "bin", LAUNCHER);
  const script = launcherScript();
  try {
    if (fs.readFileSync(file, "utf8") === script) return;
    const next = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(next, script, { mode: 0o755 });
    fs.renameSync(next, file);
  } catch {
    // Left as it is: an older launcher still starts the host, a little later.
  }
}

/**
 * `go get <target>` in a build module, with a progress line every 30 s. Throws an EngineError
 * (with `refused` when the Go module proxy refuses the version).
 *
 * @param {string} go
 * @param {string} target `<package>@v<version>`.
 * @param {string} what what is downloaded, for the messages.
 * @param {{work: string, env: NodeJS.ProcessEnv, log: (line: string) => void, step: string}} options
 */
async function goGet(go, target, what, { work, env, log, step }) {
  log(`${step} Downloading ${target} and its dependencies (Go module proxy)...`);
  let downloads = 0;
  const got = await run(go, ["get", target], {
    cwd: work,
    env,
    log,
    what: () => `downloaded ${downloads} modules`,
    onLine: (line) => {
      if (line.startsWith("go: downloading")) downloads += 1;
    },
  });
  if (got.code !== 0) {
    const refused = /not available|403 Forbidden|410 Gone|404 Not Found/.test(got.output);
    const error = new EngineError(
      `Downloading the source of ${what} failed:\n${got.output.split("\n").slice(-8).join("\n")}`,
    );
    error.refused = refused;
    throw error;
  }
  log(`      ${downloads} modules downloaded.`);
}

/**
 * `go build` of one package into `out`, with a count of compiled packages every 30 s. Throws an
 * EngineError with the compiler's last lines.
 *
 * @param {string} go
 * @param {string} pkg
 * @param {string} out
 * @param {{work: string, env: NodeJS.ProcessEnv, log: (line: string) => void, step: string,
 *   what: string, ldflags: string}} options
 */
async function goCompile(go, pkg, out, { work, env, log, step, what, ldflags }) {
  log(`${step} Compiling ${what} (several minutes on a first build; Go caches the rest)...`);
  let compiled = 0;
  const started = Date.now();
  const built = await run(go, ["build", "-v", "-trimpath", "-ldflags", ldflags, "-o", out, pkg], {
    cwd: work,
    env,
    log,
    what: () => `${compiled} packages compiled`,
    onLine: (line) => {
      if (isPackageLine(line)) compiled += 1;
    },
  });
  if (built.code !== 0) {
    throw new EngineError(
      `Compiling ${what} failed:\n${built.output.split("\n").slice(-15).join("\n")}`,
    );
  }
  log(`      done in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/** The Go environment of a build: no VCS stamping, go.mod updated as needed. */
function buildEnv(env = process.env) {
  return {
    ...env,
    GOFLAGS: [env.GOFLAGS, "-buildvcs=false", "-mod=mod"].filter(Boolean).join(" "),
  };
}

/**
 * Moves a finished build's bin/ into `target` (replacing what was there), with a build.json.
 *
 * @param {string} bin
 * @param {string} target
 * @param {string} go
 * @param {string} version
 */
function install(bin, target, go, version) {
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  fs.renameSync(bin, path.join(target, "bin"));
  fs.writeFileSync(
    path.join(target, "build.json"),
    `${JSON.stringify({ version, go: spawnSync(go, ["env", "GOVERSION"], { encoding: "utf8" }).stdout.trim(), builtAt: new Date().toISOString() })}\n`,
  );
}

/**
 * Checks that Go is there and recent enough to build `what`; throws an EngineError saying what to
 * install otherwise.
 *
 * @param {string | undefined} go
 * @param {string} what
 * @returns {asserts go is string}
 */
function requireGo(go, what) {
  if (go === undefined) {
    throw new EngineError(
      `Building ${what} needs Go, and there is no \`go\` on PATH (nor in $GOROOT/bin).\n` +
        `Install Go ${MINIMUM_GO.join(".")} or later (https://go.dev/doc/install) and run this again, ` +
        "or install the Pulumi CLI (https://www.pulumi.com/docs/install/) and put it on PATH.",
    );
  }
  const goVer = goVersion(go);
  if (!goAtLeast(goVer, MINIMUM_GO)) {
    throw new EngineError(
      `Building ${what} needs Go ${MINIMUM_GO.join(".")} or later; ${go} is ${goVer ? goVer.join(".") : "of unknown version"}.`,
    );
  }
}

/**
 * Builds one version into `<cache>/v<version>`. Throws {refused: true} when the proxy refuses it.
 *
 * @param {string} version
 * @param {string} go
 * @param {{env: NodeJS.ProcessEnv, log: (line: string) => void}} options
 * @returns {Promise<CachedEngine>}
 */
async function build(version, go, { env, log }) {
  // The version goes into go.mod and names folders.
  if (parseVersion(version) !== version) throw new EngineError(`Not a version: ${version}`);
  const cache = cacheRoot(env);
  const work = fs.mkdtempSync(path.join(cache, `.build-v${version}-`));
  try {
    const replaces = FORK_REPLACES.map(([from, to, at]) => `replace ${from} => ${to} ${at}\n`).join(
      "",
    );
    fs.writeFileSync(
      path.join(work, "go.mod"),
      `module pulumi-arcgis-admin.local/engine\n\ngo 1.25\n\nrequire (\n` +
        `\tgithub.com/pulumi/pulumi/pkg/v3 v${version}\n\tgithub.com/pulumi/pulumi/sdk/v3 v${version}\n)\n\n` +
        replaces,
    );
    const steps = { work, env: buildEnv(env), log };
    await goGet(
      go,
      `github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v${version}`,
      `the Pulumi engine (v${version})`,
      { ...steps, step: "[1/3]" },
    );
    const bin = path.join(work, "bin");
    fs.mkdirSync(bin);
    await goCompile(go, "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi", path.join(bin, "pulumi"), {
      ...steps,
      step: "[2/3]",
      what: "the pulumi CLI",
      ldflags: `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
    });
    log(
      `[3/3] Writing ${LAUNCHER} (the dynamic-provider launcher) and checking \`pulumi version\`...`,
    );
    fs.writeFileSync(path.join(bin, LAUNCHER), launcherScript(), { mode: 0o755 });
    const check = spawnSync(path.join(bin, "pulumi"), ["version"], {
      encoding: "utf8",
      env: { ...env, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_HOME: path.join(work, "home") },
    });
    if (check.status !== 0 || check.stdout.trim() !== `v${version}`) {
      throw new EngineError(
        `The built pulumi does not answer \`pulumi version\` with v${version}: ${check.stdout}${check.stderr}`,
      );
    }
    fs.rmSync(path.join(work, "home"), { recursive: true, force: true });
    const target = path.join(cache, `v${version}`);
    install(bin, target, go, version);
    const engine = cachedEngine(version, env);
    if (engine === undefined)
      throw new EngineError(`The engine built into ${target} is incomplete.`);
    return engine;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The engine to use: the cached one, or a fresh build. Throws an EngineError with a message for
 * people when Go is missing or every candidate version fails.
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<{root: string, version: string, bin: string, built: boolean, seconds: number}>}
 */
async function ensureEngine({
  env = process.env,
  log = (l) => process.stderr.write(`${l}\n`),
} = {}) {
  const started = Date.now();
  const go = findGo(env);
  const resolved = resolveVersions(env, go);
  const cached = () => {
    for (const version of resolved.versions) {
      const found = cachedEngine(version, env);
      if (found) {
        if (resolved.note !== undefined) log(resolved.note);
        return { ...found, built: false, seconds: (Date.now() - started) / 1000 };
      }
    }
    return undefined;
  };
  const found = cached();
  if (found) return found;
  const cache = cacheRoot(env);
  if (resolved.versions.length === 0 && fs.existsSync(path.join(cache, ".lock"))) {
    // Nothing cached and the newest version unknown: what another process is building now is
    // the best there is.
    (await takeLock(path.join(cache, ".lock"), log, "building the engine"))();
    resolved.versions = cachedVersions(env);
    if (resolved.versions[0] !== undefined) {
      resolved.note ??= `Using v${resolved.versions[0]}, which another process has just built.`;
    }
    const built = cached();
    if (built) return built;
  }
  requireGo(go, "the Pulumi engine");
  if (resolved.versions.length === 0) {
    throw new EngineError(
      `Cannot tell which Pulumi engine to build: ${resolved.unreachable ?? "no version"}, and the ` +
        `cache (${cache}) holds no engine. Check the network or GOPROXY (\`go list -m -versions ` +
        `${ENGINE_MODULE}\` must answer), or set ARCGIS_ADMIN_PULUMI_VERSION to the version to build.`,
    );
  }
  const release = await takeLock(path.join(cache, ".lock"), log, "building the engine");
  try {
    const failures = [];
    const { versions } = resolved;
    for (const version of versions) {
      const found = cachedEngine(version, env); // built by whoever held the lock
      if (found) return { ...found, built: false, seconds: (Date.now() - started) / 1000 };
      log(
        `Building the Pulumi engine v${version} (${forcedVersion(env) === undefined ? `the newest release the Go module proxy serves at or above the @pulumi/pulumi ${lockedSdkVersion()} of package-lock.json` : "ARCGIS_ADMIN_PULUMI_VERSION"}) with ${go} into ${cache} (once; the first build takes several minutes).`,
      );
      try {
        const engine = await build(version, go, { env, log });
        log(`Pulumi engine v${version} ready: ${engine.bin}`);
        return { ...engine, built: true, seconds: (Date.now() - started) / 1000 };
      } catch (error) {
        if (!(error instanceof EngineError) || !error.refused) throw error;
        failures.push(`v${version}`);
        log(
          `The Go module proxy does not serve the source of pulumi v${version} ("not available").` +
            (version === versions[versions.length - 1] ? "" : " Trying the next version."),
        );
      }
    }
    const fallback = cachedVersions(env)[0];
    if (fallback !== undefined && forcedVersion(env) === undefined) {
      log(`Using the newest cached engine instead, v${fallback}.`);
      const engine = /** @type {CachedEngine} */ (cachedEngine(fallback, env));
      return { ...engine, built: false, seconds: (Date.now() - started) / 1000 };
    }
    throw new EngineError(
      `The Go module proxy serves none of ${failures.join(", ")} of the Pulumi engine.`,
    );
  } finally {
    release();
  }
}

/**
 * Pulumi YAML's language host: its Go module, the version built, and the package of the binary.
 * It builds only in its own module, at the pkg/v3 version that module requires (v3.206.0 for
 * v1.25.0): built with the engine's newer pkg/v3 it does not compile (API drift). It runs under
 * the engine above all the same (the language host protocol is stable).
 */
const LANGUAGE_YAML = {
  module: "github.com/pulumi/pulumi-yaml",
  version: "1.25.0",
  pkg: "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  binary: "pulumi-language-yaml",
};

/** The folder of the YAML language host's builds: `<cache>/pulumi-language-yaml`. */
function languageYamlRoot(env = process.env) {
  return path.join(cacheRoot(env), LANGUAGE_YAML.binary);
}

/**
 * The cached YAML language host, or undefined: `<cache>/pulumi-language-yaml/v<version>/bin/`.
 *
 * @returns {{root: string, version: string, bin: string} | undefined}
 */
function cachedLanguageYaml(env = process.env) {
  const root = path.join(languageYamlRoot(env), `v${LANGUAGE_YAML.version}`);
  const bin = path.join(root, "bin", LANGUAGE_YAML.binary);
  return isExecutable(bin) ? { root, version: LANGUAGE_YAML.version, bin } : undefined;
}

/**
 * Builds the YAML language host in a module of its own (`go get` resolves pkg/v3 at the version
 * pulumi-yaml requires), checks that it starts, and moves it into the cache.
 *
 * @param {string} go
 * @param {{env: NodeJS.ProcessEnv, log: (line: string) => void}} options
 */
async function buildLanguageYaml(go, { env, log }) {
  const { module, version, pkg, binary } = LANGUAGE_YAML;
  const dir = languageYamlRoot(env);
  fs.mkdirSync(dir, { recursive: true });
  const work = fs.mkdtempSync(path.join(dir, `.build-v${version}-`));
  try {
    fs.writeFileSync(
      path.join(work, "go.mod"),
      `module pulumi-arcgis-admin.local/language-yaml\n\ngo 1.25\n\nrequire ${module} v${version}\n`,
    );
    const steps = { work, env: buildEnv(env), log };
    await goGet(go, `${pkg}@v${version}`, `Pulumi YAML's language host (v${version})`, {
      ...steps,
      step: "[1/3]",
    });
    const bin = path.join(work, "bin");
    fs.mkdirSync(bin);
    await goCompile(go, pkg, path.join(bin, binary), {
      ...steps,
      step: "[2/3]",
      what: `${binary} v${version}`,
      ldflags: `-s -w -X ${module}/pkg/version.Version=v${version}`,
    });
    log(`[3/3] Checking that ${binary} starts...`);
    const check = spawnSync(path.join(bin, binary), ["-help"], {
      encoding: "utf8",
      timeout: 30_000,
    });
    if (check.status !== 0 || !(check.stderr ?? "").includes("Usage of")) {
      throw new EngineError(
        `The built ${binary} does not start: ${check.error?.message ?? ""}${check.stdout}${check.stderr}`,
      );
    }
    const target = path.join(dir, `v${version}`);
    install(bin, target, go, version);
    const built = cachedLanguageYaml(env);
    if (built === undefined)
      throw new EngineError(`The ${binary} built into ${target} is incomplete.`);
    return built;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Pulumi YAML's language host, cached or freshly built (the engine's cache, lock style and
 * progress lines; its own lock, so it builds while nobody waits on the engine's). Throws an
 * EngineError with a message for people when Go is missing or the build fails.
 *
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 * @returns {Promise<{root: string, version: string, bin: string, built: boolean}>}
 */
async function ensureLanguageYaml({
  env = process.env,
  log = (l) => process.stderr.write(`${l}\n`),
} = {}) {
  const found = cachedLanguageYaml(env);
  if (found) return { ...found, built: false };
  const what = `Pulumi YAML's language host v${LANGUAGE_YAML.version}`;
  const go = findGo(env);
  requireGo(go, what);
  const release = await takeLock(
    path.join(languageYamlRoot(env), ".lock"),
    log,
    `building ${what}`,
  );
  try {
    const again = cachedLanguageYaml(env); // built by whoever held the lock
    if (again) return { ...again, built: false };
    log(`Building ${what} (${LANGUAGE_YAML.pkg}) with ${go} into ${languageYamlRoot(env)} (once).`);
    const built = await buildLanguageYaml(go, { env, log });
    log(`${what} ready: ${built.bin}`);
    return { ...built, built: true };
  } finally {
    release();
  }
}

/**
 * What `npm run engine` builds (or finds in the cache) besides the engine, in order: each entry
 * names the tool and ensures it, resolving with where it is and whether it was built now. Every
 * tool is its own Go module with its own cache folder and lock. To build one more tool, add an
 * entry here (its builder may live in a script of its own).
 *
 * @type {Array<{name: string, ensure: (options: {env?: NodeJS.ProcessEnv, log?: (line: string) => void}) => Promise<{version: string, bin: string, built: boolean}>}>}
 */
const ALSO_BUILT = [
  { name: "Pulumi YAML language host", ensure: ensureLanguageYaml },
  {
    name: "Node.js, Python and YAML language hosts beside the CLI",
    ensure: (options) => ensureLanguageHosts(options),
  },
  {
    name: "SDK generator tools/sdkgen, with Pulumi's code generators",
    ensure: async (options) => {
      const sdkgen = await require("./sdkgen.cjs").ensureSdkgen(options);
      return { version: sdkgen.pkgVersion, bin: sdkgen.bin, built: sdkgen.built };
    },
  },
];

module.exports = {
  ENGINE_MODULE,
  LAUNCHER,
  EngineError,
  cacheRoot,
  lockedSdkVersion,
  candidateVersions,
  resolveVersions,
  forcedVersion,
  parseVersion,
  compareVersions,
  cachedVersions,
  cachedEngine,
  findGo,
  launcherScript,
  ensureEngine,
  LANGUAGE_YAML,
  cachedLanguageYaml,
  ensureLanguageYaml,
  ALSO_BUILT,
};

if (require.main === module) {
  const args = process.argv.slice(2);
  const quiet = args.includes("--quiet");
  const options = quiet ? { log: () => {} } : {};
  const main = async () => {
    const engine = await ensureEngine(options);
    if (args.includes("--print-root")) {
      // The engine only: its root is what is asked for.
      process.stdout.write(`${engine.root}\n`);
      return;
    }
    const tools = [];
    for (const tool of ALSO_BUILT) tools.push({ name: tool.name, ...(await tool.ensure(options)) });
    if (!quiet) {
      process.stderr.write(
        `Pulumi engine v${engine.version}: ${engine.bin}${engine.built ? ` (built in ${Math.round(engine.seconds)} s)` : " (cached)"}\n`,
      );
      for (const tool of tools) {
        process.stderr.write(
          `${tool.name} v${tool.version}: ${tool.bin}${tool.built ? " (built)" : " (cached)"}\n`,
        );
      }
    }
  };
  main().catch(
    /** @param {unknown} error */
    (error) => {
      const shown =
        error instanceof EngineError || error instanceof require("./sdkgen.cjs").SdkgenError
          ? error.message
          : error instanceof Error
            ? error.stack
            : error;
      process.stderr.write(`\n${String(shown)}\n`);
      process.exit(1);
    },
  );
}

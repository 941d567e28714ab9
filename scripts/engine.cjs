#!/usr/bin/env node
// @ts-check
"use strict";
/**
 * Builds the Pulumi engine (the `pulumi` CLI) from source with Go, into a cache outside the
 * repository, and reuses it when it is there. `npm start`, `npm run destroy` and the real-engine
 * suite (tests/real-engine/) use it when no other Pulumi CLI is installed.
 *
 * Usage: node scripts/engine.cjs [--print-root] [--quiet]
 *   builds (or finds) the engine; with --print-root prints its root folder (the one whose bin/
 *   holds `pulumi`, what the automation API's `PulumiCommand.get({ root })` takes) on stdout.
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
 * Not built: `pulumi-language-nodejs`. The Go module proxy refuses that module here (every
 * version), so this engine runs Node.js programs the way the automation API runs inline
 * programs: the program's own process serves the language runtime and `pulumi` connects to it
 * (`--client`). See docs/testing.md, "The Pulumi engine".
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
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

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
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "pulumi-arcgis-admin", "engine");
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
  return ok ? { root, version, bin: path.join(root, "bin", "pulumi") } : undefined;
}

/** @param {string} file */
function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The `go` command: on PATH, else in $GOROOT/bin. Undefined when there is none. */
function findGo(env = process.env) {
  const dirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  if (env.GOROOT) dirs.push(path.join(env.GOROOT, "bin"));
  for (const dir of dirs) {
    const candidate = path.join(dir, process.platform === "win32" ? "go.exe" : "go");
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * @param {string} go
 * @returns {[number, number] | undefined}
 */
function goVersion(go) {
  const result = spawnSync(go, ["env", "GOVERSION"], { encoding: "utf8" });
  const match = /^go(\d+)\.(\d+)/.exec((result.stdout ?? "").trim());
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** The launcher script: what Pulumi's release ships under the same name, for node. */
function launcherScript() {
  return [
    "#!/bin/sh",
    "# Starts the dynamic-provider host of the @pulumi/pulumi that the Pulumi project (the working",
    "# directory, as the engine starts it) resolves, with the node on PATH. Written by",
    "# pulumi-arcgis-admin's scripts/engine.cjs, in place of the script Pulumi's release ships.",
    "script=$(node -e 'process.stdout.write(require.resolve(\"@pulumi/pulumi/cmd/dynamic-provider\", { paths: [process.cwd()] }))') || exit 1",
    'exec node "$script" "$@"',
    "",
  ].join("\n");
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @param {number} pid */
function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * Takes the cache's build lock; waits while a live process holds it. Returns the release.
 *
 * @param {string} dir
 * @param {(line: string) => void} log
 * @returns {Promise<() => void>}
 */
async function takeLock(dir, log) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "pid"), String(process.pid));
      return () => fs.rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    }
    let holder;
    try {
      holder = Number(fs.readFileSync(path.join(dir, "pid"), "utf8"));
    } catch {
      holder = undefined;
    }
    if (holder !== undefined && Number.isInteger(holder) && holder > 0 && !processAlive(holder)) {
      fs.rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (!told)
      log(`Another process (${holder ?? "starting"}) is building the engine; waiting for it.`);
    told = true;
    await sleep(1000);
  }
}

/**
 * Runs a command, passing its output lines to `onLine`, and prints a heartbeat every 30 s
 * (`what`: a text, or a function that gives the current one).
 * Resolves with {code, output} (the output's last 200 lines).
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{
 *   cwd: string,
 *   env: NodeJS.ProcessEnv,
 *   log: (line: string) => void,
 *   onLine?: (line: string) => void,
 *   what: string | (() => string),
 * }} options
 * @returns {Promise<{code: number, output: string}>}
 */
function run(command, args, { cwd, env, log, onLine, what }) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    /** @type {string[]} */
    const tail = [];
    let buffered = "";
    /** @param {string} chunk */
    const take = (chunk) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 200) tail.shift();
        onLine?.(line);
      }
    };
    child.stdout.setEncoding("utf8").on("data", take);
    child.stderr.setEncoding("utf8").on("data", take);
    const heartbeat = setInterval(() => {
      const doing = typeof what === "function" ? what() : what;
      log(`  ... ${doing} (${Math.round((Date.now() - started) / 1000)} s so far)`);
    }, 30_000);
    child.on("error", (error) => {
      clearInterval(heartbeat);
      reject(error);
    });
    child.on("close", (code) => {
      clearInterval(heartbeat);
      if (buffered !== "") tail.push(buffered);
      resolve({ code: code ?? 1, output: tail.join("\n") });
    });
  });
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
  const goEnv = {
    ...env,
    GOFLAGS: [env.GOFLAGS, "-buildvcs=false", "-mod=mod"].filter(Boolean).join(" "),
  };
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
    log(
      `[1/3] Downloading github.com/pulumi/pulumi/pkg/v3@v${version} and its dependencies (Go module proxy)...`,
    );
    let downloads = 0;
    const got = await run(go, ["get", `github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v${version}`], {
      cwd: work,
      env: goEnv,
      log,
      what: () => `downloaded ${downloads} modules`,
      onLine: (line) => {
        if (line.startsWith("go: downloading")) downloads += 1;
      },
    });
    if (got.code !== 0) {
      const refused = /not available|403 Forbidden|410 Gone|404 Not Found/.test(got.output);
      const error = new EngineError(
        `Downloading the Pulumi engine's source (v${version}) failed:\n${got.output.split("\n").slice(-8).join("\n")}`,
      );
      error.refused = refused;
      throw error;
    }
    log(`      ${downloads} modules downloaded.`);
    log("[2/3] Compiling the pulumi CLI (several minutes on a first build; Go caches the rest)...");
    const bin = path.join(work, "bin");
    fs.mkdirSync(bin);
    let compiled = 0;
    const started = Date.now();
    const heartbeat = setInterval(() => {
      log(`      ${compiled} packages compiled, ${Math.round((Date.now() - started) / 1000)} s`);
    }, 30_000);
    let built;
    try {
      built = await run(
        go,
        [
          "build",
          "-v",
          "-trimpath",
          "-ldflags",
          `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
          "-o",
          path.join(bin, "pulumi"),
          "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
        ],
        {
          cwd: work,
          env: goEnv,
          log: () => {},
          what: "compiling",
          onLine: (line) => {
            if (/^[\w.-]+(\/[\w.@~-]+)*$/.test(line)) compiled += 1;
          },
        },
      );
    } finally {
      clearInterval(heartbeat);
    }
    if (built.code !== 0) {
      throw new EngineError(
        `Compiling the pulumi CLI failed:\n${built.output.split("\n").slice(-15).join("\n")}`,
      );
    }
    log(`      done in ${Math.round((Date.now() - started) / 1000)} s.`);
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
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target, { recursive: true });
    fs.renameSync(bin, path.join(target, "bin"));
    fs.writeFileSync(
      path.join(target, "build.json"),
      `${JSON.stringify({ version, go: spawnSync(go, ["env", "GOVERSION"], { encoding: "utf8" }).stdout.trim(), builtAt: new Date().toISOString() })}\n`,
    );
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
    (await takeLock(path.join(cache, ".lock"), log))();
    resolved.versions = cachedVersions(env);
    if (resolved.versions[0] !== undefined) {
      resolved.note ??= `Using v${resolved.versions[0]}, which another process has just built.`;
    }
    const built = cached();
    if (built) return built;
  }
  if (go === undefined) {
    throw new EngineError(
      "Building the Pulumi engine needs Go, and there is no `go` on PATH (nor in $GOROOT/bin).\n" +
        `Install Go ${MINIMUM_GO.join(".")} or later (https://go.dev/doc/install) and run this again, ` +
        "or install the Pulumi CLI (https://www.pulumi.com/docs/install/) and put it on PATH.",
    );
  }
  if (resolved.versions.length === 0) {
    throw new EngineError(
      `Cannot tell which Pulumi engine to build: ${resolved.unreachable ?? "no version"}, and the ` +
        `cache (${cache}) holds no engine. Check the network or GOPROXY (\`go list -m -versions ` +
        `${ENGINE_MODULE}\` must answer), or set ARCGIS_ADMIN_PULUMI_VERSION to the version to build.`,
    );
  }
  const goVer = goVersion(go);
  if (
    goVer === undefined ||
    goVer[0] < MINIMUM_GO[0] ||
    (goVer[0] === MINIMUM_GO[0] && goVer[1] < MINIMUM_GO[1])
  ) {
    throw new EngineError(
      `Building the Pulumi engine needs Go ${MINIMUM_GO.join(".")} or later; ${go} is ${goVer ? goVer.join(".") : "of unknown version"}.`,
    );
  }
  const release = await takeLock(path.join(cache, ".lock"), log);
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
};

if (require.main === module) {
  const args = process.argv.slice(2);
  const quiet = args.includes("--quiet");
  ensureEngine(quiet ? { log: () => {} } : {}).then(
    (engine) => {
      if (args.includes("--print-root")) process.stdout.write(`${engine.root}\n`);
      else if (!quiet)
        process.stderr.write(
          `Pulumi engine v${engine.version}: ${engine.bin}${engine.built ? ` (built in ${Math.round(engine.seconds)} s)` : " (cached)"}\n`,
        );
    },
    /** @param {unknown} error */
    (error) => {
      const shown =
        error instanceof EngineError ? error.message : error instanceof Error ? error.stack : error;
      process.stderr.write(`\n${String(shown)}\n`);
      process.exit(1);
    },
  );
}

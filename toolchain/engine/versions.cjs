// @ts-check
"use strict";
/**
 * Which version of the Pulumi engine to use, and which are in the cache.
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
 * Cache: ARCGIS_ADMIN_ENGINE_CACHE, else `${XDG_CACHE_HOME:-~/.cache}/pulumi-arcgis-admin/engine`,
 * one folder `v<version>` per engine.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { ToolchainError, isExecutable, toolCache } = require("../cache.cjs");
const { findGo } = require("../go.cjs");
const { LAUNCHER } = require("./launcher.cjs");

const REPO_ROOT = path.resolve(__dirname, "..", "..");
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

/** What to do instead of installing Go to build the engine or its hosts, for the message. */
const OR_INSTALL_PULUMI =
  ", or install the Pulumi CLI (https://www.pulumi.com/docs/install/) and put it on PATH";

/** The engine cache's folder. */
function cacheRoot(env = process.env) {
  return toolCache("engine", "ARCGIS_ADMIN_ENGINE_CACHE", env);
}

/**
 * Whether the cache holds a complete engine of this version (`bin/pulumi` and the launcher);
 * never one outside the cache, whatever the version names.
 *
 * @param {string} version
 * @returns {string | undefined} its root folder
 */
function completeEngine(version, env = process.env) {
  if (parseVersion(version) !== version) return undefined;
  const root = path.join(cacheRoot(env), `v${version}`);
  const ok = ["pulumi", LAUNCHER].every((f) => isExecutable(path.join(root, "bin", f)));
  return ok ? root : undefined;
}

/** The version of @pulumi/pulumi that package-lock.json pins. */
function lockedSdkVersion(root = REPO_ROOT) {
  /** @type {unknown} */
  const parsed = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const lock = /** @type {{packages?: Record<string, {version?: unknown}>}} */ (parsed);
  const version = lock.packages?.["node_modules/@pulumi/pulumi"]?.version;
  if (typeof version !== "string") {
    throw new ToolchainError("package-lock.json has no node_modules/@pulumi/pulumi entry.");
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
 * empty. Throws an ToolchainError naming the variable when it is not a version.
 */
function forcedVersion(env = process.env) {
  const forced = env.ARCGIS_ADMIN_PULUMI_VERSION;
  if (forced === undefined || forced === "") return undefined;
  const version = parseVersion(forced);
  if (version === undefined) {
    throw new ToolchainError(
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
    .filter((v) => completeEngine(v, env) !== undefined)
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
 * Throws an ToolchainError when ARCGIS_ADMIN_PULUMI_VERSION is not a version.
 */
function candidateVersions(env = process.env) {
  return resolveVersions(env).versions;
}

module.exports = {
  ENGINE_MODULE,
  OR_INSTALL_PULUMI,
  cacheRoot,
  completeEngine,
  lockedSdkVersion,
  parseVersion,
  compareVersions,
  forcedVersion,
  cachedVersions,
  resolveVersions,
  candidateVersions,
};

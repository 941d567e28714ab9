// @ts-check
"use strict";
/**
 * Building a Go program for the cache (the engine, the language hosts, SeaweedFS, local-kms, the
 * SDK generator): finding `go` and checking its version, `go get` and `go build` with a progress
 * line every 30 s, and the build's record (build.json).
 */
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { ToolchainError, isExecutable } = require("./cache.cjs");

/** A Go module proxy's refusal of a version ("not available"): the next version may be tried. */
class RefusedError extends ToolchainError {}

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

/**
 * The `go` to build `what` with, checked to be at least `minimum`; a ToolchainError saying what
 * to install otherwise (`otherwise`: another way out, appended to the message).
 *
 * @param {{what: string, minimum: [number, number], otherwise?: string, env?: NodeJS.ProcessEnv}} options
 * @returns {string}
 */
function requireGo({ what, minimum, otherwise = "", env = process.env }) {
  const go = findGo(env);
  const wanted = minimum.join(".");
  if (go === undefined) {
    throw new ToolchainError(
      `Building ${what} needs Go, and there is no \`go\` on PATH (nor in $GOROOT/bin).\n` +
        `Install Go ${wanted} or later (https://go.dev/doc/install) and run this again${otherwise}.`,
    );
  }
  const version = goVersion(go);
  const atLeast =
    version !== undefined &&
    (version[0] > minimum[0] || (version[0] === minimum[0] && version[1] >= minimum[1]));
  if (!atLeast) {
    throw new ToolchainError(
      `Building ${what} needs Go ${wanted} or later; ${go} is ${version ? version.join(".") : "of unknown version"}.`,
    );
  }
  return go;
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

/** Whether a `go build -v` output line names a compiled package. */
function isPackageLine(/** @type {string} */ line) {
  return /^[\w.-]+(\/[\w.@~-]+)*$/.test(line);
}

/**
 * The Go environment of a build: no VCS stamping; go.mod updated as needed (`mod`), or left as it
 * is when go.sum pins every module (`readonly`).
 *
 * @param {NodeJS.ProcessEnv} env
 * @param {"mod" | "readonly"} mod
 */
function goEnv(env, mod) {
  return {
    ...env,
    GOFLAGS: [env.GOFLAGS, "-buildvcs=false", `-mod=${mod}`].filter(Boolean).join(" "),
  };
}

/**
 * `go get <target>` in a build module, with a progress line every 30 s. Throws a ToolchainError
 * (a RefusedError when the Go module proxy refuses the version).
 *
 * @param {string} go
 * @param {string} target `<package>@<version>`.
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
    const Failure = refused ? RefusedError : ToolchainError;
    throw new Failure(
      `Downloading the source of ${what} failed:\n${got.output.split("\n").slice(-8).join("\n")}`,
    );
  }
  log(`      ${downloads} modules downloaded.`);
}

/**
 * `go build` of one package into `out`, counting the modules downloaded and the packages compiled
 * for a progress line every 30 s. Throws a ToolchainError with the compiler's last lines.
 *
 * @param {string} go
 * @param {string} pkg
 * @param {string} out
 * @param {{cwd: string, env: NodeJS.ProcessEnv, log: (line: string) => void, step: string,
 *   what: string, ldflags: string}} options
 */
async function goCompile(go, pkg, out, { cwd, env, log, step, what, ldflags }) {
  log(`${step} Compiling ${what} (several minutes on a first build; Go caches the rest)...`);
  let compiled = 0;
  let downloads = 0;
  const started = Date.now();
  const built = await run(go, ["build", "-v", "-trimpath", "-ldflags", ldflags, "-o", out, pkg], {
    cwd,
    env,
    log,
    what: () => `${downloads} modules downloaded, ${compiled} packages compiled`,
    onLine: (line) => {
      if (line.startsWith("go: downloading")) downloads += 1;
      else if (isPackageLine(line)) compiled += 1;
    },
  });
  if (built.code !== 0) {
    throw new ToolchainError(
      `Compiling ${what} failed:\n${built.output.split("\n").slice(-15).join("\n")}`,
    );
  }
  log(`      done in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/**
 * Writes `<dir>/build.json`: what was built (`fields`), with which Go, and when.
 *
 * @param {string} dir
 * @param {string} go
 * @param {Record<string, string>} fields
 */
function writeBuildRecord(dir, go, fields) {
  const goVersionText = spawnSync(go, ["env", "GOVERSION"], { encoding: "utf8" }).stdout.trim();
  const record = { ...fields, go: goVersionText, builtAt: new Date().toISOString() };
  fs.writeFileSync(path.join(dir, "build.json"), `${JSON.stringify(record)}\n`);
}

module.exports = {
  RefusedError,
  findGo,
  goVersion,
  requireGo,
  run,
  isPackageLine,
  goEnv,
  goGet,
  goCompile,
  writeBuildRecord,
};

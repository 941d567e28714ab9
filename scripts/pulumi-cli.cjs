// @ts-check
"use strict";
/**
 * The Pulumi CLI that `npm start` and `npm run destroy` run: the one on PATH, else the engine the
 * toolchain builds (toolchain/engine.cjs), in an environment of the demo's own.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const REPO_ROOT = path.resolve(__dirname, "..");
/** Encrypts the demo stack's secrets (documented in README.md; demo only). */
const DEMO_PASSPHRASE = "quickstart-demo-passphrase";

/**
 * @typedef {{input?: string, capture?: boolean, onSpawn?: (pid: number) => void,
 *   onExit?: (signal: NodeJS.Signals | null) => void}} RunOptions
 * @typedef {(args: string[], options?: RunOptions) => Promise<{stdout: string}>} Pulumi
 */

/** @param {string} line @returns {void} */
const log = (line) => void process.stderr.write(`${line}\n`);

/** The executable `pulumi` on PATH, if any. */
function findPulumiCli({ env = process.env } = {}) {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const command = path.join(dir, process.platform === "win32" ? "pulumi.exe" : "pulumi");
    try {
      fs.accessSync(command, fs.constants.X_OK);
      if (fs.statSync(command).isFile()) return { command, source: `${command} (on PATH)` };
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * The CLI on PATH, else the engine toolchain/engine.cjs builds (now if there is Go to build with).
 * @param {{env?: NodeJS.ProcessEnv, log?: (line: string) => void}} [options]
 */
async function resolvePulumiCli({ env = process.env, log: say = log } = {}) {
  const installed = findPulumiCli({ env });
  if (installed !== undefined) return installed;
  const {
    candidateVersions,
    cachedEngine,
    findGo,
    ensureEngine,
  } = require("../toolchain/engine.cjs");
  const versions = candidateVersions(env);
  const cached = versions.map((v) => cachedEngine(v, env)).find(Boolean);
  if (cached === undefined && findGo(env) === undefined) return undefined;
  const built = cached ?? (await ensureEngine({ env, log: say }));
  const source = `${built.bin} (the Pulumi engine v${built.version} built by toolchain/engine.cjs)`;
  return { command: built.bin, source };
}

/**
 * A file backend of its own (the user's `pulumi login` stays), this Node first on PATH (the hosts
 * run `node`), no proxy for the emulator, no second type check. @param {{stateDir: string}} settings
 */
function pulumiEnv(settings, env = process.env) {
  const next = { ...env };
  delete next.PULUMI_CONFIG_PASSPHRASE_FILE;
  const pathKey = Object.keys(next).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
  next[pathKey] = [path.dirname(process.execPath), next[pathKey] ?? ""].join(path.delimiter);
  const local = ["127.0.0.1", "localhost", "::1"];
  const noProxy = [next.no_proxy ?? next.NO_PROXY ?? "", ...local].filter(Boolean).join(",");
  return {
    ...next,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    // metadata=skip: the file backend then writes no `.attrs` sidecar, which it does not write
    // atomically; one emptied by a killed run fails every command (docs/troubleshooting.md).
    PULUMI_BACKEND_URL: `file://${settings.stateDir.split(path.sep).join("/")}?metadata=skip`,
    PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: env.PULUMI_NODEJS_TRANSPILE_ONLY ?? "true",
  };
}

/**
 * Rejects when `pulumi <args>` fails; secrets go in as `input`, never on a command line.
 * @param {{command: string}} cli @param {string[]} args
 * @param {RunOptions & {env?: NodeJS.ProcessEnv}} [options] @returns {Promise<{stdout: string}>}
 */
function runPulumi(cli, args, { env, input, capture = false, onSpawn, onExit } = {}) {
  const shown = args.map((a) => (a.length > 60 || a.includes("\n") ? `${a.slice(0, 40)}…` : a));
  log(`$ pulumi ${shown.join(" ")}${input === undefined ? "" : " < (stdin)"}`);
  const name = args.slice(0, 2).filter((a) => !a.startsWith("-"));
  return new Promise((resolve, reject) => {
    const child = spawn(cli.command, args, {
      cwd: REPO_ROOT,
      env,
      stdio: [input === undefined ? "ignore" : "pipe", capture ? "pipe" : "inherit", "pipe"],
    });
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr?.pipe(process.stderr, { end: false });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    child.stdin?.end(input);
    // Ctrl-C or a runner's SIGTERM reaches pulumi too, which cancels gracefully: wait for that.
    const wait = () => log("Waiting for pulumi to cancel...");
    process.on("SIGINT", wait).on("SIGTERM", wait);
    const done = () => process.off("SIGINT", wait).off("SIGTERM", wait);
    child.on("error", (error) => (done(), reject(error)));
    child.on("close", (code, signal) => {
      done();
      onExit?.(signal);
      if (code === 0) resolve({ stdout });
      else reject(new Error(`\`pulumi ${name.join(" ")}\` failed (its output is above).`));
    });
  });
}

module.exports = { DEMO_PASSPHRASE, log, findPulumiCli, resolvePulumiCli, pulumiEnv, runPulumi };

// @ts-check
"use strict";
/**
 * What `npm start` (scripts/start.mjs) and `npm run destroy` (scripts/destroy.mjs) share: the
 * demo values, their flags, finding the Pulumi CLI and running it, and the emulator that runs in
 * the background between the two commands. Plain CommonJS, so that tests can require it.
 */
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { parseArgs } = require("node:util");
const buildStamp = require("./build-stamp.cjs");

/** The repository root: the quick start's Pulumi project (Pulumi.yaml) and the package itself. */
const REPO_ROOT = path.resolve(__dirname, "..");
const STACK = "quickstart";
/** Encrypts the demo stack's secrets (documented in README.md; demo only). */
const DEMO_PASSPHRASE = "quickstart-demo-passphrase";
/** Fixed, so that the URLs in config and state stay the same across restarts. */
const DEFAULT_PORT = 20443;
/** The demo portal: its administrator and the collaboration the stack deletes. */
const SEED_FILE = path.join(REPO_ROOT, "examples", "quickstart", "emulator-seed.json");
/** The primary administrator the Site creates (demo values). */
const SITE_ADMIN = { username: "siteadmin", password: "quickstart-Site-Admin-1" };
/** The detached emulator's record in its data dir (DAEMON_FILE of emulator/process/daemon.ts). */
const EMULATOR_RECORD = "emulator.daemon.json";

const INSTALL_HELP = [
  "Install the Pulumi CLI, then run this command again:",
  "  - see https://www.pulumi.com/docs/install/ (e.g. `curl -fsSL https://get.pulumi.com | sh`);",
  "  - or `npm install -g pulumi` (Pulumi's npm installer);",
  "  - or install Go (https://go.dev/doc/install): then `npm run engine` builds the Pulumi CLI",
  "    and its language hosts from source (scripts/engine.cjs; several minutes, once).",
].join("\n");

/**
 * @typedef {{port: number, stack: string, stateDir: string, dataDir: string,
 *   downloadDir: string, skipBuild: boolean}} Settings
 * @typedef {{command: string, source: string}} PulumiCli
 * @typedef {(line: string) => void} Log
 */

/** @type {Log} */
function defaultLog(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * `JSON.parse`, typed `unknown`: each caller states what it expects.
 *
 * @param {string} text
 * @returns {unknown}
 */
function parseJson(text) {
  return JSON.parse(text);
}

/**
 * `require`, typed `unknown`: each caller states what it expects of the module.
 *
 * @param {string} id
 * @returns {unknown}
 */
function load(id) {
  return require(id);
}

/** Default locations, all inside the repository and ignored by git. */
function defaultPaths(root = REPO_ROOT) {
  return {
    stateDir: path.join(root, ".pulumi-state"),
    dataDir: path.join(root, ".emulator-data", "quickstart"),
    downloadDir: path.join(root, "site-exports"),
  };
}

/**
 * The flags of `npm start` / `npm run destroy`, every default applied: a bad flag exits with
 * code 2 and the reason, `--help` prints `usage` and exits with 0.
 *
 * @param {string} command how the user ran it, for messages
 * @param {string[]} usage
 * @returns {Settings}
 */
function readCommandLine(command, usage, args = process.argv.slice(2)) {
  try {
    const string = /** @type {const} */ ({ type: "string" });
    const { values } = parseArgs({
      args,
      options: {
        port: string,
        stack: string,
        "state-dir": string,
        "data-dir": string,
        "download-dir": string,
        "skip-build": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help === true) {
      for (const line of usage) console.log(line);
      process.exit(0);
    }
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`--port must be a whole number from 0 to 65535, got ${values.port}.`);
    }
    const defaults = defaultPaths();
    return {
      port,
      stack: values.stack ?? STACK,
      stateDir: path.resolve(values["state-dir"] ?? defaults.stateDir),
      dataDir: path.resolve(values["data-dir"] ?? defaults.dataDir),
      downloadDir: path.resolve(values["download-dir"] ?? defaults.downloadDir),
      skipBuild: values["skip-build"] === true,
    };
  } catch (error) {
    process.stderr.write(
      `${command}: ${error instanceof Error ? error.message : String(error)} (see --help)\n`,
    );
    process.exit(2);
  }
}

/**
 * The Pulumi CLI on PATH, or undefined.
 *
 * @returns {PulumiCli | undefined}
 */
function findPulumiCli({ env = process.env } = {}) {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, process.platform === "win32" ? "pulumi.exe" : "pulumi");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile())
        return { command: candidate, source: `${candidate} (on PATH)` };
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/**
 * The Pulumi CLI to use: the one on PATH, else the engine scripts/engine.cjs builds (with its
 * language hosts beside it; built now when Go is there, minutes the first time). Undefined when
 * none can be had.
 *
 * @returns {Promise<PulumiCli | undefined>}
 */
async function resolvePulumiCli({ env = process.env, log = defaultLog } = {}) {
  const installed = findPulumiCli({ env });
  if (installed !== undefined) return installed;
  const engine = require("./engine.cjs");
  const cached = engine
    .candidateVersions(env)
    .map((/** @type {string} */ v) => engine.cachedEngine(v, env))
    .find(Boolean);
  if (cached === undefined && engine.findGo(env) === undefined) return undefined;
  const built = cached ?? (await engine.ensureEngine({ env, log }));
  const source = `${built.bin} (the Pulumi engine v${built.version} built by scripts/engine.cjs)`;
  return { command: built.bin, source };
}

/** @param {string} what */
function noCliMessage(what) {
  return (
    `${what} needs the Pulumi CLI, and none was found: there is no \`pulumi\` on PATH, and ` +
    "there is no Go to build the engine with. " +
    `Nothing was started and nothing was deployed.\n\n${INSTALL_HELP}`
  );
}

/**
 * The environment of every Pulumi command: the file state backend in `stateDir` (for these
 * commands only: the user's `pulumi login` stays as it is), the demo passphrase, no update
 * check, this Node first on PATH (the hosts run `node`), no proxy for the local emulator, and
 * TypeScript without a second type check.
 *
 * @param {{stateDir: string}} settings
 * @returns {NodeJS.ProcessEnv}
 */
function pulumiEnv(settings, env = process.env) {
  const next = { ...env };
  delete next.PULUMI_CONFIG_PASSPHRASE_FILE;
  const pathKey = Object.keys(next).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
  next[pathKey] = [path.dirname(process.execPath), next[pathKey] ?? ""].join(path.delimiter);
  const noProxy = [next.no_proxy ?? next.NO_PROXY ?? "", "127.0.0.1", "localhost", "::1"]
    .filter(Boolean)
    .join(",");
  return {
    ...next,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    PULUMI_BACKEND_URL: `file://${settings.stateDir.split(path.sep).join("/")}`,
    PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // Pulumi's Node.js runtime then compiles the quick start without type-checking it again
    // (`npm run typecheck` does): seconds less on every run.
    PULUMI_NODEJS_TRANSPILE_ONLY: env.PULUMI_NODEJS_TRANSPILE_ONLY ?? "true",
  };
}

/**
 * Runs one `pulumi` command in the repository (the quick start's project), showing it first.
 * `input` goes to its stdin (how secrets are passed: never on a command line); `capture`
 * collects stdout instead of showing it.
 *
 * @param {PulumiCli} cli
 * @param {string[]} args
 * @param {{env?: NodeJS.ProcessEnv, input?: string, capture?: boolean, log?: Log, onSpawn?: (pid: number) => void}} [options]
 * @returns {Promise<{code: number, signal: NodeJS.Signals | null, stdout: string, stderr: string}>}
 */
function runPulumi(cli, args, { env, input, capture = false, log = defaultLog, onSpawn } = {}) {
  const shown = args.map((a) => (a.length > 60 || a.includes("\n") ? `${a.slice(0, 40)}…` : a));
  log(`$ pulumi ${shown.join(" ")}${input === undefined ? "" : " < (stdin)"}`);
  return new Promise((resolve, reject) => {
    const child = spawn(cli.command, args, {
      cwd: REPO_ROOT,
      env,
      stdio: [input === undefined ? "ignore" : "pipe", capture ? "pipe" : "inherit", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    // Shown as it comes, and kept: some answers come on stderr ("Created stack").
    child.stderr?.setEncoding("utf8").on("data", (/** @type {string} */ chunk) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    child.stdin?.end(input);
    // Ctrl-C or a runner's SIGTERM reaches the whole process group: pulumi cancels gracefully on
    // its own (it lets the operation in flight finish and records it), so this process waits for
    // it instead of exiting first.
    const wait = () => log("Waiting for pulumi to cancel...");
    process.on("SIGINT", wait).on("SIGTERM", wait);
    const done = () => process.off("SIGINT", wait).off("SIGTERM", wait);
    child.on("error", (error) => (done(), reject(error)));
    child.on(
      "close",
      (code, signal) => (done(), resolve({ code: code ?? 1, signal, stdout, stderr })),
    );
  });
}

/** The record of an `npm start` or `npm run destroy` whose Pulumi command is under way. */
const RUN_RECORD = "quickstart-run.json";

/**
 * Runs `pulumi up` or `pulumi destroy` under a record, in the state folder, of this process and
 * the CLI's: a record still there at the next start, with both processes gone, is a run that was
 * killed (see {@link killedRun}). The record goes once the CLI has exited by itself, its lock
 * released; a CLI killed by a signal leaves it.
 *
 * @param {PulumiCli} cli
 * @param {string[]} args
 * @param {string} stateDir
 * @param {Parameters<typeof runPulumi>[2]} [options]
 */
async function runRecorded(cli, args, stateDir, options = {}) {
  const file = path.join(stateDir, RUN_RECORD);
  const record = { command: args[0], pids: [process.pid], hostname: os.hostname() };
  fs.writeFileSync(file, JSON.stringify(record));
  const result = await runPulumi(cli, args, {
    ...options,
    onSpawn: (pid) =>
      fs.writeFileSync(file, JSON.stringify({ ...record, pids: [...record.pids, pid] })),
  });
  if (result.signal === null) fs.rmSync(file, { force: true });
  return result;
}

/**
 * The command of a run that was killed (its record is there and its processes are gone), or
 * undefined. A record whose process still runs stops this one: two runs of one stack at once
 * would wait on each other's lock.
 *
 * @param {string} stateDir
 * @returns {string | undefined}
 */
function killedRun(stateDir) {
  const file = path.join(stateDir, RUN_RECORD);
  if (!fs.existsSync(file)) return undefined;
  const record = /** @type {{command: string, pids: number[], hostname: string}} */ (
    parseJson(fs.readFileSync(file, "utf8"))
  );
  const running = record.pids.find((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
    }
  });
  if (record.hostname !== os.hostname() || running !== undefined) {
    throw new Error(
      `Another \`pulumi ${record.command}\` of the quick start is running (process ` +
        `${running ?? "?"} on ${record.hostname}). Wait for it to finish, or stop it first.`,
    );
  }
  return record.command;
}

/**
 * Finishes what a killed run left, with the commands docs/troubleshooting.md gives every user:
 * `pulumi cancel` removes the lock of the run that is gone, `pulumi refresh
 * --clear-pending-creates` forgets the creates it left pending (each resource's next create looks
 * at the server before it acts). The record of the killed run goes once both have run.
 *
 * @param {(args: string[]) => ReturnType<typeof runPulumi>} pulumi
 * @param {string} stack
 * @param {string} stateDir
 */
async function recoverKilledRun(pulumi, stack, stateDir) {
  const cancelled = await pulumi(["cancel", "--yes", "--stack", stack]);
  if (cancelled.code !== 0) throw new Error("`pulumi cancel` failed (its output is above).");
  const refreshed = await pulumi([
    "refresh",
    "--clear-pending-creates",
    "--yes",
    "--skip-preview",
    "--stack",
    stack,
  ]);
  if (refreshed.code !== 0) throw new Error("`pulumi refresh` failed (its output is above).");
  fs.rmSync(path.join(stateDir, RUN_RECORD), { force: true });
}

/**
 * {@link runPulumi}, throwing when the command fails.
 *
 * @param {PulumiCli} cli
 * @param {string[]} args
 * @param {Parameters<typeof runPulumi>[2]} [options]
 */
async function mustRunPulumi(cli, args, options) {
  const result = await runPulumi(cli, args, options);
  if (result.code !== 0) throw new Error(`\`pulumi ${args.slice(0, 2).join(" ")}\` failed.`);
  return result;
}

/**
 * @typedef {{portal: {id: string, users: {username: string, password: string, role: string}[],
 *   collaborations: {id: string}[]}}} Seed
 * @returns {Seed}
 */
function readSeed() {
  return /** @type {Seed} */ (parseJson(fs.readFileSync(SEED_FILE, "utf8")));
}

/**
 * The stack config `npm start` sets, from the emulator's ready line and the seed: the package's
 * connection keys (docs/connection.md) and the project's own; `secret` holds the passwords.
 *
 * @param {{adminUrl: string, sharingUrl: string, portalId: string, caCertFile: string | null}} ready
 * @param {{downloadDir: string}} settings
 */
function stackConfig(ready, settings, seed = readSeed()) {
  const admin = seed.portal.users.find((u) => u.role === "org_admin");
  const collaboration = seed.portal.collaborations[0];
  if (admin === undefined || collaboration === undefined) {
    throw new Error(`${SEED_FILE} must hold an org_admin user and a collaboration.`);
  }
  /** @type {Record<string, string>} */
  const plain = {
    "arcgis-admin:adminUrl": ready.adminUrl,
    "arcgis-admin:username": SITE_ADMIN.username,
    "arcgis-admin:sharingUrl": ready.sharingUrl,
    "arcgis-admin:portalUsername": admin.username,
    portalId: ready.portalId,
    collaborationId: collaboration.id,
    downloadDir: settings.downloadDir,
  };
  if (ready.caCertFile !== null) {
    plain["arcgis-admin:caCert"] = fs.readFileSync(ready.caCertFile, "utf8");
  }
  return { plain, secret: stackSecrets(seed) };
}

/**
 * The quick start's secret config, the site's and the portal's administrator passwords: they
 * depend on nothing the emulator reports.
 *
 * @returns {Record<string, string>}
 */
function stackSecrets(seed = readSeed()) {
  const admin = seed.portal.users.find((u) => u.role === "org_admin");
  if (admin === undefined) throw new Error(`${SEED_FILE} must hold an org_admin user.`);
  return {
    "arcgis-admin:password": SITE_ADMIN.password,
    "arcgis-admin:portalPassword": admin.password,
  };
}

/**
 * The emulator's daemon module (emulator/process/daemon.ts) from the build, loaded when first
 * needed: `npm start` builds dist/ after this file is loaded.
 *
 * @returns {typeof import("../emulator/process/daemon")}
 */
function daemon() {
  const file = path.join(REPO_ROOT, "dist", "emulator", "process", "daemon.js");
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  return /** @type {typeof import("../emulator/process/daemon")} */ (load(file));
}

/**
 * The emulator `npm start` left running on this data dir, or undefined.
 *
 * @param {string} dataDir
 */
function runningEmulator(dataDir) {
  return daemon().findRunning(dataDir);
}

/** Marks a data dir `npm start` made, which `npm run destroy` may then remove. */
const MADE_BY_START = ".made-by-npm-start";

/**
 * Starts the quick start's emulator in the background, seeded, logging into its data dir.
 *
 * @param {{dataDir: string, port: number}} settings
 */
async function startEmulatorInBackground(settings) {
  if (!fs.existsSync(settings.dataDir)) {
    fs.mkdirSync(settings.dataDir, { recursive: true });
    fs.writeFileSync(path.join(settings.dataDir, MADE_BY_START), "made by npm start\n");
  }
  try {
    return await daemon().startDetached({
      dataDir: settings.dataDir,
      args: ["--port", String(settings.port), "--seed", SEED_FILE],
    });
  } catch (error) {
    if (error instanceof Error && /EADDRINUSE/.test(error.message)) {
      error.message += `\nPort ${settings.port} is taken: choose another with \`npm start -- --port N\` (and the same for \`npm run destroy\`).`;
    }
    throw error;
  }
}

/**
 * Stops the emulator `npm start` started on this data dir; resolves with its pid, or undefined.
 *
 * @param {string} dataDir
 */
function stopEmulator(dataDir) {
  return daemon().stopDetached(dataDir);
}

/**
 * Removes the emulator's own files from a data dir where `npm start` ran one (an operator's
 * files stay), and the folder when `npm start` made it and it is empty then. Returns whether
 * there were such files.
 *
 * @param {string} dataDir
 */
function removeEmulatorData(dataDir) {
  if (!daemon().removeDetachedData(dataDir)) return false;
  const made = path.join(dataDir, MADE_BY_START);
  if (fs.existsSync(made) && fs.readdirSync(dataDir).length === 1) {
    fs.rmSync(dataDir, { recursive: true });
  }
  return true;
}

/** `npm run build`, unless dist/ is the build of the sources as they are. */
function build() {
  if (buildStamp.isFresh(REPO_ROOT)) return;
  const npmCli = process.env.npm_execpath;
  const [command, args] =
    npmCli !== undefined && /\.[cm]?js$/.test(npmCli)
      ? [process.execPath, [npmCli, "run", "build"]]
      : ["npm", ["run", "build"]];
  const result = spawnSync(command, args, {
    cwd: REPO_ROOT,
    stdio: "inherit",
    shell: process.platform === "win32" && command === "npm",
  });
  if (result.status !== 0) throw new Error("`npm run build` failed.");
}

module.exports = {
  REPO_ROOT,
  STACK,
  DEMO_PASSPHRASE,
  SEED_FILE,
  SITE_ADMIN,
  EMULATOR_RECORD,
  defaultPaths,
  readCommandLine,
  findPulumiCli,
  resolvePulumiCli,
  noCliMessage,
  pulumiEnv,
  runPulumi,
  mustRunPulumi,
  runRecorded,
  killedRun,
  recoverKilledRun,
  stackConfig,
  stackSecrets,
  readSeed,
  parseJson,
  runningEmulator,
  startEmulatorInBackground,
  stopEmulator,
  removeEmulatorData,
  build,
};

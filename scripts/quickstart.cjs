// @ts-check
"use strict";
/** What `npm start` and `npm run destroy` share; plain CommonJS, so that tests can require it. */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { parseArgs } = require("node:util");
const buildStamp = require("./build-stamp.cjs");
const cli = require("./pulumi-cli.cjs");

const { DEMO_PASSPHRASE, log } = cli;

const REPO_ROOT = path.resolve(__dirname, "..");
const STACK = "quickstart";
/** Fixed, so that the URLs in config and state stay the same across restarts. */
const DEFAULT_PORT = 20443;
const SEED_FILE = path.join(REPO_ROOT, "examples", "quickstart", "emulator-seed.json");
/** The primary administrator the Site creates (demo values). */
const SITE_ADMIN = { username: "siteadmin", password: "quickstart-Site-Admin-1" };
/** DAEMON_FILE of emulator/process/daemon.ts: the detached emulator's record in its data dir. */
const EMULATOR_RECORD = "emulator.daemon.json";
/** In the state dir while `pulumi up` or `destroy` runs: left there, that run was killed. */
const RUN_RECORD = "quickstart-run.json";
/** Marks a data dir `npm start` made, which `npm run destroy` may then remove. */
const MADE_BY_START = ".made-by-npm-start";

/**
 * @typedef {import("./pulumi-cli.cjs").Pulumi} Pulumi
 * @typedef {{command: string, pids: number[], hostname: string}} RunRecord
 * @typedef {{port: number, stack: string, stateDir: string, dataDir: string,
 *   downloadDir: string, skipBuild: boolean}} Settings
 * @typedef {{portal: {id: string, collaborations: {id: string}[],
 *   users: {username: string, password: string, role: string}[]}}} Seed
 */

/** @param {unknown} error */
const errorText = (error) => (error instanceof Error ? error.message : String(error));
/** @type {(text: string) => unknown} */ const parseJson = (text) => JSON.parse(text);

/** Default locations, all inside the repository and ignored by git. */
const defaultPaths = (root = REPO_ROOT) => ({
  stateDir: path.join(root, ".pulumi-state"),
  dataDir: path.join(root, ".emulator-data", "quickstart"),
  downloadDir: path.join(root, "site-exports"),
});

/**
 * Runs `pulumi up` or `destroy` under a record of this process and the CLI's, which a killed run
 * leaves behind ({@link recoverKilledRun}). @param {Pulumi} pulumi @param {Settings} settings
 * @param {string} command @param {...string} args
 */
function runRecorded(pulumi, { stack, stateDir }, command, ...args) {
  const file = path.join(stateDir, RUN_RECORD);
  const record = { command, pids: [process.pid], hostname: os.hostname() };
  fs.writeFileSync(file, JSON.stringify(record));
  return pulumi([command, "--yes", "--skip-preview", "--stack", stack, ...args], {
    onSpawn: (pid) =>
      fs.writeFileSync(file, JSON.stringify({ ...record, pids: [process.pid, pid] })),
    onExit: (signal) => signal === null && fs.rmSync(file, { force: true }),
  });
}

/**
 * Finishes a killed run with the commands docs/troubleshooting.md gives every user; returns
 * whether there was one. A run still going stops this one (each would wait for the other's lock).
 * @param {Pulumi} pulumi @param {Settings} settings
 */
async function recoverKilledRun(pulumi, { stack, stateDir }) {
  const file = path.join(stateDir, RUN_RECORD);
  if (!fs.existsSync(file)) return false;
  const text = fs.readFileSync(file, "utf8");
  const { command, pids, hostname } = /** @type {RunRecord} */ (parseJson(text));
  const running = pids.find((pid) => {
    try {
      return process.kill(pid, 0);
    } catch (error) {
      return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
    }
  });
  if (hostname !== os.hostname() || running !== undefined) {
    throw new Error(
      `Another \`pulumi ${command}\` of the quick start is running (process ` +
        `${running ?? "?"} on ${hostname}). Wait for it to finish, or stop it first.`,
    );
  }
  log(`The last \`pulumi ${command}\` was killed; finishing it with pulumi cancel and refresh.`);
  await pulumi(["cancel", "--yes", "--stack", stack]);
  await pulumi(["refresh", "--clear-pending-creates", "--yes", "--skip-preview", "--stack", stack]);
  fs.rmSync(file, { force: true });
  return true;
}

/** The demo portal, its administrator and collaboration, and the secret config. */
function readSeed() {
  const seed = /** @type {Seed} */ (parseJson(fs.readFileSync(SEED_FILE, "utf8")));
  const admin = seed.portal.users.find((u) => u.role === "org_admin");
  const collaboration = seed.portal.collaborations[0];
  if (admin === undefined || collaboration === undefined) {
    throw new Error(`${SEED_FILE} must hold an org_admin user and a collaboration.`);
  }
  const secret = {
    "arcgis-admin:password": SITE_ADMIN.password,
    "arcgis-admin:portalPassword": admin.password,
  };
  return { ...seed, admin, collaboration, secret };
}

/**
 * The stack config from the emulator's ready line and the seed (docs/connection.md).
 * @param {{adminUrl: string, sharingUrl: string, portalId: string, caCertFile: string | null}} ready
 * @param {{downloadDir: string}} settings
 */
function stackConfig(ready, settings) {
  const seed = readSeed();
  /** @type {Record<string, string>} */
  const plain = {
    "arcgis-admin:adminUrl": ready.adminUrl,
    "arcgis-admin:username": SITE_ADMIN.username,
    "arcgis-admin:sharingUrl": ready.sharingUrl,
    "arcgis-admin:portalUsername": seed.admin.username,
    portalId: ready.portalId,
    collaborationId: seed.collaboration.id,
    downloadDir: settings.downloadDir,
  };
  if (ready.caCertFile) plain["arcgis-admin:caCert"] = fs.readFileSync(ready.caCertFile, "utf8");
  return { plain, secret: seed.secret };
}

/** emulator/process/daemon.ts, loaded when first needed: `npm start` builds it after loading this. */
function daemon() {
  const file = path.join(REPO_ROOT, "dist", "emulator", "process", "daemon.js");
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  /** @type {unknown} */ const loaded = require(file);
  return /** @type {typeof import("../emulator/process/daemon")} */ (loaded);
}

/** Seeded, in the background. @param {{dataDir: string, port: number}} settings */
async function startEmulatorInBackground({ dataDir, port }) {
  if (!fs.existsSync(dataDir)) {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, MADE_BY_START), "made by npm start\n");
  }
  const args = ["--port", String(port), "--seed", SEED_FILE];
  const started = daemon().startDetached({ dataDir, args });
  return started.catch((/** @type {unknown} */ error) => {
    if (error instanceof Error && /EADDRINUSE/.test(error.message)) {
      error.message += `\nPort ${port} is taken: choose another with \`npm start -- --port N\` (and the same for \`npm run destroy\`).`;
    }
    throw error;
  });
}

/** Removes the emulator's files (an operator's stay); true if there were any. @param {string} dataDir */
function removeEmulatorData(dataDir) {
  if (!daemon().removeDetachedData(dataDir)) return false;
  if (fs.existsSync(path.join(dataDir, MADE_BY_START)) && fs.readdirSync(dataDir).length === 1) {
    fs.rmSync(dataDir, { recursive: true });
  }
  return true;
}

/** `npm run build` (scripts/build.cjs), unless dist/ is the build of the sources as they are. */
function build() {
  if (buildStamp.isFresh(REPO_ROOT)) return;
  const options = /** @type {const} */ ({ cwd: REPO_ROOT, stdio: "inherit" });
  const result = spawnSync(process.execPath, [path.join(__dirname, "build.cjs")], options);
  if (result.status !== 0) throw new Error("`npm run build` failed.");
}

/**
 * Runs `body` for `npm start` or `npm run destroy` (`name`): a bad flag exits with 2, a failure 1.
 * @param {string} name @param {string} usage
 * @param {(context: {settings: Settings, env: NodeJS.ProcessEnv, pulumi: Pulumi}) => Promise<void>} body
 */
async function runCommand(name, usage, body) {
  /** @type {Settings} */ let settings;
  try {
    const string = /** @type {const} */ ({ type: "string" });
    const { values } = parseArgs({
      options: {
        ...{ port: string, stack: string, "state-dir": string, "data-dir": string },
        ...{ "download-dir": string, "skip-build": { type: "boolean" } },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help === true) {
      console.log(usage);
      process.exit(0);
    }
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`--port must be a whole number from 0 to 65535, got ${values.port}.`);
    }
    const defaults = defaultPaths();
    settings = {
      port,
      stack: values.stack ?? STACK,
      stateDir: path.resolve(values["state-dir"] ?? defaults.stateDir),
      dataDir: path.resolve(values["data-dir"] ?? defaults.dataDir),
      downloadDir: path.resolve(values["download-dir"] ?? defaults.downloadDir),
      skipBuild: values["skip-build"] === true,
    };
  } catch (error) {
    process.stderr.write(`${name}: ${errorText(error)} (see --help)\n`);
    process.exit(2);
  }
  try {
    const found = await cli.resolvePulumiCli();
    if (found === undefined) {
      process.stderr.write(
        `\n${name} needs the Pulumi CLI, and none was found: there is no \`pulumi\` on PATH, and ` +
          "there is no Go to build the engine with. Nothing was started and nothing was deployed." +
          "\n\nInstall the Pulumi CLI, then run this command again:\n" +
          "  - see https://www.pulumi.com/docs/install/ (e.g. `curl -fsSL https://get.pulumi.com | sh`);\n" +
          "  - or install Go (https://go.dev/doc/install): then `npm run engine` builds the Pulumi CLI\n" +
          "    and its language hosts from source (toolchain/engine.cjs; several minutes, once).\n\n",
      );
      process.exit(1);
    }
    log(`Pulumi CLI: ${found.source}`);
    const env = cli.pulumiEnv(settings);
    const pulumi = /** @type {Pulumi} */ (
      (args, opts) => cli.runPulumi(found, args, { env, ...opts })
    );
    await body({ settings, env, pulumi });
  } catch (error) {
    process.stderr.write(`\n${name} failed: ${errorText(error)}\n`);
    process.exit(1);
  }
}

module.exports = {
  ...{ REPO_ROOT, STACK, DEMO_PASSPHRASE, SEED_FILE, SITE_ADMIN, EMULATOR_RECORD, log, parseJson },
  ...{ defaultPaths, ...cli, runCommand, runRecorded },
  ...{ recoverKilledRun, readSeed, stackConfig, build },
  ...{ daemon, startEmulatorInBackground, removeEmulatorData },
};

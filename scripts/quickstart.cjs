// @ts-check
"use strict";
/**
 * What `npm start` (scripts/start.mjs) and `npm run destroy` (scripts/destroy.mjs) share: the
 * paths and demo values, finding the Pulumi CLI, the package's link to itself, and the emulator
 * that runs in the background between the two commands.
 *
 * Plain CommonJS (tooling, not part of the published package) so that the Jest suites under
 * tests/examples can require it as it is.
 */
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const { createRequire } = require("node:module");
const path = require("node:path");
const buildStamp = require("./build-stamp.cjs");
const { parseArgs } = require("node:util");

/** The repository root: the Pulumi project (Pulumi.yaml) and the package itself. */
const REPO_ROOT = path.resolve(__dirname, "..");
/** Where Node keeps the compiled code of the processes npm start runs (NODE_COMPILE_CACHE). */
const COMPILE_CACHE = path.join(
  REPO_ROOT,
  "node_modules",
  ".cache",
  "pulumi-arcgis-admin",
  "node-compile-cache",
);
/** The package name the serialized providers require at run time. */
const PACKAGE_NAME = "pulumi-arcgis-admin";
/** The stack `npm start` creates. */
const STACK = "quickstart";
/** The passphrase that encrypts the demo stack's secrets (documented in README.md and docs/testing.md; demo only). */
const DEMO_PASSPHRASE = "quickstart-demo-passphrase";
/** The emulator's port: fixed, so that URLs in config and state stay the same across restarts. */
const DEFAULT_PORT = 20443;
/** The seed of the demo portal: its administrator and the collaboration the stack deletes. */
const SEED_FILE = path.join(REPO_ROOT, "examples", "quickstart", "emulator-seed.json");
/** The primary administrator the Site creates (demo values). */
const SITE_ADMIN = { username: "siteadmin", password: "quickstart-Site-Admin-1" };
/**
 * The file, inside the emulator's data dir, where the daemon module keeps the detached
 * emulator's pid and ready line (DAEMON_FILE of emulator/process/daemon.ts).
 */
const EMULATOR_RECORD = "emulator.daemon.json";

const INSTALL_HELP = [
  "Install the Pulumi CLI, then run this command again:",
  "  - see https://www.pulumi.com/docs/install/ (e.g. `curl -fsSL https://get.pulumi.com | sh`,",
  "    `brew install pulumi/tap/pulumi` or `winget install pulumi`);",
  "  - or `npm install -g pulumi` (Pulumi's official npm installer, which downloads the CLI on",
  "    first use);",
  "  - or install Go (https://go.dev/doc/install): without a CLI, this command builds the Pulumi",
  "    engine from source with Go (scripts/engine.cjs; the first build takes several minutes).",
].join("\n");

/** The quick start's program, run inline by scripts/pulumi-driver.cjs (the root Pulumi.yaml's main). */
const PROGRAM = path.join(REPO_ROOT, "examples", "quickstart", "index.ts");
const DRIVER = path.join(REPO_ROOT, "scripts", "pulumi-driver.cjs");

/**
 * @typedef {object} Settings What start.mjs and destroy.mjs run with (see settingsFrom).
 * @property {number} port
 * @property {string} stack
 * @property {string} stateDir
 * @property {string} dataDir
 * @property {string} downloadDir
 * @property {boolean} skipBuild
 */

/**
 * @typedef {object} PulumiCli How to run the Pulumi CLI.
 * @property {string} command
 * @property {string[]} prefix arguments before the CLI's own (the script of a Node.js bin)
 * @property {string} source what it is, for people
 * @property {string} [engineRoot] the root of the engine scripts/engine.cjs built
 */

/** @typedef {(line: string) => void} Log */

/**
 * `require`, its result typed `unknown`: each caller states what it expects of the module.
 *
 * @param {string} id
 * @returns {unknown}
 */
function load(id) {
  return require(id);
}

/**
 * `JSON.parse`, its result typed `unknown`: each caller states what it expects of the document.
 *
 * @param {string} text
 * @returns {unknown}
 */
function parseJson(text) {
  return JSON.parse(text);
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
 * The options start.mjs and destroy.mjs accept (node:util parseArgs format).
 *
 * @satisfies {import("node:util").ParseArgsOptionsConfig}
 */
const CLI_OPTIONS = {
  port: { type: /** @type {const} */ ("string") },
  stack: { type: /** @type {const} */ ("string") },
  "state-dir": { type: /** @type {const} */ ("string") },
  "data-dir": { type: /** @type {const} */ ("string") },
  "download-dir": { type: /** @type {const} */ ("string") },
  "skip-build": { type: /** @type {const} */ ("boolean") },
  help: { type: /** @type {const} */ ("boolean"), short: "h" },
};

/**
 * Turns parsed flags into settings with every default applied and every path absolute.
 *
 * @param {{
 *   port?: string, stack?: string, "state-dir"?: string, "data-dir"?: string,
 *   "download-dir"?: string, "skip-build"?: boolean, help?: boolean,
 * }} values
 * @returns {Settings}
 */
function settingsFrom(values) {
  const defaults = defaultPaths();
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a whole number from 0 to 65535, got ${values.port}.`);
  }
  return {
    port,
    stack: values.stack ?? STACK,
    stateDir: path.resolve(values["state-dir"] ?? defaults.stateDir),
    dataDir: path.resolve(values["data-dir"] ?? defaults.dataDir),
    downloadDir: path.resolve(values["download-dir"] ?? defaults.downloadDir),
    skipBuild: values["skip-build"] === true,
  };
}

/**
 * Reads the command line of `npm start` or `npm run destroy`: a bad flag exits with code 2 and
 * the reason, `--help` prints the usage and exits with 0.
 *
 * @param {string} command - how the user ran it, for messages: "npm start".
 * @param {string[]} usage - the lines `--help` prints.
 * @returns {Settings}
 */
function readCommandLine(command, usage) {
  let settings;
  let help = false;
  try {
    const { values } = parseArgs({ options: CLI_OPTIONS, strict: true });
    help = values.help === true;
    settings = settingsFrom(values);
  } catch (error) {
    process.stderr.write(
      `${command}: ${error instanceof Error ? error.message : String(error)} (see --help)\n`,
    );
    process.exit(2);
  }
  if (help) {
    for (const line of usage) console.log(line);
    process.exit(0);
  }
  return settings;
}

// ---------------------------------------------------------------------------
// The Pulumi CLI
// ---------------------------------------------------------------------------

/** @param {string} file */
function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first `name` on PATH (with PATHEXT on Windows), or undefined.
 *
 * @param {string} name
 */
function findOnPath(name, env = process.env) {
  const dirs = (env.PATH ?? env.Path ?? "").split(path.delimiter).filter((d) => d !== "");
  const extensions =
    process.platform === "win32" ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
  for (const dir of dirs) {
    for (const extension of extensions) {
      const candidate = path.join(dir, name + extension);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * Finds the Pulumi CLI: `pulumi` on PATH, or else the bin of the `pulumi` npm package (Pulumi's
 * installer) when it can be resolved from `resolveFrom`. Returns how to run it, or undefined.
 */
function findPulumiCli({ env = process.env, resolveFrom = REPO_ROOT } = {}) {
  const onPath = findOnPath("pulumi", env);
  if (onPath !== undefined) {
    return { command: onPath, prefix: [], source: `${onPath} (on PATH)` };
  }
  // The node_modules folders `require("pulumi")` would search from there (whatever the package
  // exports: only its package.json is read).
  const searched = createRequire(path.join(resolveFrom, "index.js")).resolve.paths("pulumi") ?? [];
  const manifestPath = searched
    .map((dir) => path.join(dir, "pulumi", "package.json"))
    .find((file) => fs.existsSync(file));
  if (manifestPath === undefined) return undefined;
  const manifest = /** @type {{bin?: string | Record<string, string>, version?: string}} */ (
    parseJson(fs.readFileSync(manifestPath, "utf8"))
  );
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.pulumi;
  if (typeof bin !== "string") return undefined;
  const script = path.resolve(path.dirname(manifestPath), bin);
  if (!fs.existsSync(script)) return undefined;
  const source = `${script} (the pulumi npm package ${manifest.version ?? ""})`.replace(" )", ")");
  // The installer's bin is a Node script: run it with this Node, on every platform.
  if (/\.[cm]?js$/.test(script)) return { command: process.execPath, prefix: [script], source };
  return { command: script, prefix: [], source };
}

/**
 * The Pulumi CLI to use: an installed one ({@link findPulumiCli}), else the engine that
 * scripts/engine.cjs built (from its cache, or built now when Go is there: minutes the first
 * time). Resolves with {command, prefix, source, engineRoot?}, or undefined when none can be had.
 */
async function resolvePulumiCli({ env = process.env, log = defaultLog } = {}) {
  const installed = findPulumiCli({ env });
  if (installed !== undefined) return installed;
  const engine = require("./engine.cjs");
  const cached = engine
    .candidateVersions(env)
    .map((v) => engine.cachedEngine(v, env))
    .find(Boolean);
  if (cached === undefined) {
    if (engine.findGo(env) === undefined) return undefined;
    log(
      "No Pulumi CLI is installed: building the Pulumi engine from source with Go " +
        "(scripts/engine.cjs). The first build takes several minutes; later runs reuse it.",
    );
  }
  const built = cached ?? (await engine.ensureEngine({ env, log }));
  return {
    command: built.bin,
    prefix: [],
    engineRoot: built.root,
    source: `${built.bin} (the Pulumi engine v${built.version} built by scripts/engine.cjs)`,
  };
}

/**
 * The message printed when no CLI can be had.
 *
 * @param {string} what
 */
function noCliMessage(what) {
  return (
    `${what} needs the Pulumi CLI, and none was found: there is no \`pulumi\` on PATH, the ` +
    "`pulumi` npm package is not installed, and there is no Go to build the engine with. " +
    "Nothing was started and nothing was deployed.\n\n" +
    INSTALL_HELP
  );
}

/**
 * Runs one operation of the quick start's stack (`up`, `destroy`, ...) through
 * scripts/pulumi-driver.cjs: the real `pulumi` CLI through the automation API, with the program
 * run inline (so the engine needs no Node.js language host; see docs/testing.md, "The Pulumi engine"). The CLI's output goes
 * to this terminal as it comes. `config` values with `secret: true` go to the CLI through stdin.
 * Resolves with the driver's result ({ok, error?, changeSummary?, outputs?}).
 *
 * @param {PulumiCli} cli
 * @param {string} op
 * @param {StackOperationOptions} options
 * @returns {Promise<DriverResult>}
 */
function runStackOperation(cli, op, options) {
  return startDriver(cli, options.env).run(op, options);
}

/**
 * @typedef {object} Driver A scripts/pulumi-driver.cjs process, started before its request is
 *   known: it loads the automation API (about 0.5 s) while the caller does other work.
 * @property {(op: string, options: StackOperationOptions) => Promise<DriverResult>} run Sends the
 *   request (on stdin: nothing with a secret is written to disk) and resolves with the result.
 * @property {() => void} close Ends the process without running anything.
 */

/**
 * @typedef {{
 *   env: NodeJS.ProcessEnv,
 *   stack: string,
 *   config?: Record<string, {value: string, secret?: boolean}>,
 *   log?: Log,
 *   state?: unknown,
 *   stackExists?: boolean,
 *   cliVersion?: string,
 *   stackFile?: string,
 *   configRecord?: string,
 * }} StackOperationOptions
 * @typedef {{ok: boolean, error?: string, changeSummary?: unknown, outputs?: Record<string, unknown>, state?: unknown}} DriverResult
 */

/**
 * Starts the driver for one operation of the quick start's stack; {@link runStackOperation} when
 * the request is known at once.
 *
 * @param {PulumiCli} cli
 * @param {NodeJS.ProcessEnv} env
 * @returns {Driver}
 */
function startDriver(cli, env) {
  const dir = fs.mkdtempSync(path.join(require("node:os").tmpdir(), "arcgis-quickstart-"));
  const resultFile = path.join(dir, "result.json");
  const shim = cliShim(cli, dir);
  const child = spawn(process.execPath, [DRIVER, "-", resultFile], {
    cwd: REPO_ROOT,
    env: { ...env, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" },
    stdio: ["pipe", "inherit", "inherit"],
  });
  /** @type {Promise<number | null>} */
  const closed = new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  // Not left behind when the caller fails before sending a request (its stdin then ends).
  child.stdin.on("error", () => {});
  const cleanUp = () => fs.rmSync(dir, { recursive: true, force: true });
  return {
    close() {
      child.stdin.end();
      cleanUp();
    },
    async run(op, { stack, config = {}, log = defaultLog, ...known }) {
      log(
        `$ pulumi ${op === "export" || op === "import" ? `stack ${op}` : op} --stack ${stack}` +
          (op === "up" || op === "destroy" ? " --yes" : ""),
      );
      // Ctrl-C (SIGINT to the whole group) or a pipeline's SIGTERM: this process stays to report,
      // and the driver, which counts copies of one signal as one, turns it into Pulumi's cancel.
      /** @param {NodeJS.Signals} name */
      const forward = (name) => {
        if (child.exitCode === null) child.kill(name);
      };
      const onInt = () => forward("SIGINT");
      const onTerm = () => forward("SIGTERM");
      process.on("SIGINT", onInt);
      process.on("SIGTERM", onTerm);
      child.stdin.end(
        JSON.stringify({
          op,
          stack,
          program: PROGRAM,
          config,
          ...(known.state === undefined ? {} : { state: known.state }),
          // Known already: the driver then runs no `pulumi version` and no `stack select` that fails.
          ...(known.stackExists === undefined ? {} : { stackExists: known.stackExists }),
          ...(known.cliVersion === undefined ? {} : { cliVersion: known.cliVersion }),
          // Read by the driver instead of `stack select`, `config set`, `stack output`, `stack history`.
          ...(known.stackFile === undefined ? {} : { stackFile: known.stackFile }),
          ...(known.configRecord === undefined ? {} : { configRecord: known.configRecord }),
          engineRoot: cli.engineRoot ?? shim,
        }),
      );
      try {
        const code = await closed;
        return fs.existsSync(resultFile)
          ? /** @type {DriverResult} */ (parseJson(fs.readFileSync(resultFile, "utf8")))
          : { ok: false, error: `the Pulumi driver exited ${code} without a result` };
      } finally {
        process.off("SIGINT", onInt);
        process.off("SIGTERM", onTerm);
        cleanUp();
      }
    },
  };
}

/**
 * The automation API runs `<root>/bin/pulumi`: a folder with a `pulumi` that runs this CLI (the
 * CLI itself when it is an executable named pulumi, else a small script).
 *
 * @param {PulumiCli} cli
 * @param {string} dir
 */
function cliShim(cli, dir) {
  const bin = path.dirname(cli.command);
  const plain = cli.prefix.length === 0 && path.basename(cli.command) === "pulumi";
  return plain && path.basename(bin) === "bin" ? path.dirname(bin) : shimDir(cli, dir);
}

/**
 * @param {PulumiCli} cli
 * @param {string} dir
 */
function shimDir(cli, dir) {
  const bin = path.join(dir, "cli", "bin");
  fs.mkdirSync(bin, { recursive: true });
  const quoted = [cli.command, ...cli.prefix].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  fs.writeFileSync(path.join(bin, "pulumi"), `#!/bin/sh\nexec ${quoted} "$@"\n`, { mode: 0o755 });
  return path.dirname(bin);
}

/** Where {@link cliVersion} remembers the versions of the CLIs it ran. */
const CLI_VERSIONS = path.join(
  REPO_ROOT,
  "node_modules",
  ".cache",
  "pulumi-arcgis-admin",
  "cli-versions.json",
);

/**
 * The CLI's version, from `pulumi version` (which also shows that it runs). Remembered per
 * executable: its path and its files' size and change time, so a CLI that is replaced (an
 * upgrade, a new engine build) is asked again; each `pulumi` process costs 0.2 s or more.
 *
 * @param {PulumiCli} cli
 * @param {{env: NodeJS.ProcessEnv, log?: Log}} options
 * @returns {Promise<string>}
 */
async function cliVersion(cli, { env, log = defaultLog }) {
  /** @type {string | undefined} */
  let key;
  try {
    key = JSON.stringify(
      [cli.command, ...cli.prefix].map((file) => {
        const stat = fs.statSync(file, { throwIfNoEntry: false });
        return stat?.isFile()
          ? [fs.realpathSync(file), stat.size, stat.mtimeMs, stat.ctimeMs]
          : file;
      }),
    );
  } catch {
    key = undefined;
  }
  /** @type {Record<string, string | undefined>} */
  let known;
  try {
    known = /** @type {Record<string, string>} */ (
      parseJson(fs.readFileSync(CLI_VERSIONS, "utf8"))
    );
  } catch {
    known = {};
  }
  const remembered = key === undefined ? undefined : known[key];
  if (typeof remembered === "string") return remembered;
  const version = await runPulumi(cli, ["version"], { env, capture: true, log });
  if (version.code !== 0) {
    throw new Error(
      `The Pulumi CLI at ${cli.source} does not run (\`pulumi version\` exited ${version.code}).\n` +
        INSTALL_HELP,
    );
  }
  const answer = version.stdout.trim();
  if (key !== undefined) {
    try {
      fs.mkdirSync(path.dirname(CLI_VERSIONS), { recursive: true });
      fs.writeFileSync(CLI_VERSIONS, JSON.stringify({ ...known, [key]: answer }));
    } catch {
      // Only a cache: the next run asks the CLI again.
    }
  }
  return answer;
}

/**
 * The environment of every Pulumi command: the file state backend inside the repository, the
 * demo passphrase, no update check, and this Node first on PATH (the language host and the
 * dynamic-provider host run `node` from PATH; this one is the supported version).
 *
 * PULUMI_BACKEND_URL selects the backend for these commands only: unlike `pulumi login`, it
 * leaves the user's current login (~/.pulumi/credentials.json) alone.
 *
 * @param {{stateDir: string}} settings
 * @returns {NodeJS.ProcessEnv}
 */
function pulumiEnv(settings, env = process.env) {
  const next = { ...env };
  delete next.PULUMI_CONFIG_PASSPHRASE_FILE;
  const pathKey = Object.keys(next).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
  next[pathKey] = [path.dirname(process.execPath), next[pathKey] ?? ""].join(path.delimiter);
  // The emulator is on this machine: its traffic never goes to a proxy set for the internet.
  const noProxy = [next.no_proxy ?? next.NO_PROXY ?? "", "127.0.0.1", "localhost", "::1"]
    .filter((entry) => entry !== "")
    .join(",");
  next.NO_PROXY = noProxy;
  next.no_proxy = noProxy;
  return {
    ...next,
    PULUMI_BACKEND_URL: `file://${settings.stateDir.split(path.sep).join("/")}`,
    PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // Node's own compile cache for the driver and the provider host, each of which loads
    // @pulumi/pulumi (some 700 modules): about half a second less per process after the first run.
    NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE ?? COMPILE_CACHE,
  };
}

/**
 * Runs one Pulumi command in the project (the repository root). `input` is written to its stdin
 * (how secrets are passed: never on the command line); `capture` collects stdout instead of
 * showing it. Resolves with the exit code and the captured output.
 *
 * @param {PulumiCli} cli
 * @param {string[]} args
 * @param {{env?: NodeJS.ProcessEnv, input?: string, capture?: boolean, log?: Log}} [options]
 * @returns {Promise<{code: number, signal: NodeJS.Signals | null, stdout: string}>}
 */
function runPulumi(cli, args, { env, input, capture = false, log = defaultLog } = {}) {
  log(`$ pulumi ${args.map(shellQuote).join(" ")}${input === undefined ? "" : " < (stdin)"}`);
  return new Promise((resolve, reject) => {
    const child = spawn(cli.command, [...cli.prefix, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: [input === undefined ? "ignore" : "pipe", capture ? "pipe" : "inherit", "inherit"],
      shell: process.platform === "win32" && /\.(cmd|bat)$/i.test(cli.command),
    });
    let stdout = "";
    if (capture) child.stdout?.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    if (input !== undefined) child.stdin?.end(input);
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? 1, signal, stdout }));
  });
}

/**
 * Like runPulumi, but throws when the command fails.
 *
 * @param {PulumiCli} cli
 * @param {string[]} args
 * @param {Parameters<typeof runPulumi>[2]} [options]
 */
async function mustRunPulumi(cli, args, options) {
  const result = await runPulumi(cli, args, options);
  if (result.code !== 0) {
    throw new Error(`\`pulumi ${args[0]} ${args[1] ?? ""}\` failed (exit ${result.code}).`);
  }
  return result;
}

/** @param {string} arg */
function shellQuote(arg) {
  const firstLine = arg.split("\n")[0] ?? "";
  const shown = firstLine !== arg || arg.length > 80 ? `${firstLine.slice(0, 60)}…` : arg;
  return /^[\w@%+=:,./-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, "'\\''")}'`;
}

/** @type {Log} */
function defaultLog(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * @typedef {object} Seed The part of the quick start's emulator seed read here.
 * @property {{
 *   id: string,
 *   users: {username: string, password: string, role: string}[],
 *   collaborations: {id: string}[],
 * }} portal
 */

/**
 * The stack config `npm start` sets, from the emulator's ready line and the seed.
 *
 * @param {{adminUrl: string, sharingUrl: string, portalId: string, caCertFile: string | null}} ready
 * @param {{downloadDir: string}} settings
 * @param {Seed} [seed]
 */
function stackConfig(ready, settings, seed = readSeed()) {
  const admin = seed.portal.users.find((u) => u.role === "org_admin");
  const collaboration = seed.portal.collaborations[0];
  if (admin === undefined || collaboration === undefined) {
    throw new Error(`${SEED_FILE} must hold an org_admin user and a collaboration.`);
  }
  // The connections are the package's own keys (docs/connection.md); the rest, the project's.
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
 * The quick start's secret config: the site's and the portal's administrator passwords. They
 * depend on nothing the emulator reports, so `npm start` sets them on a new stack while the
 * emulator starts.
 *
 * @param {Seed} [seed]
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

/** @returns {Seed} */
function readSeed() {
  return /** @type {Seed} */ (parseJson(fs.readFileSync(SEED_FILE, "utf8")));
}

// ---------------------------------------------------------------------------
// The package's link to itself
// ---------------------------------------------------------------------------

/**
 * Makes `node_modules/pulumi-arcgis-admin` a link to the repository root, so that the package
 * resolves by name from anywhere in the repository.
 *
 * Why: each resource's serialized provider runs `require("pulumi-arcgis-admin/dist/...")` in
 * Pulumi's dynamic-provider host. The host rebuilds the provider with require-from-string, i.e.
 * as a module without a file name, resolved from the host's working directory (the program's
 * folder). Package self-reference only works from files inside the package, so without this
 * link the require fails (MODULE_NOT_FOUND) and every create/delete with it.
 *
 * Returns "created" or "present"; throws when something else sits at that path.
 */
function ensureSelfLink(root = REPO_ROOT) {
  const link = path.join(root, "node_modules", PACKAGE_NAME);
  let stat;
  try {
    stat = fs.lstatSync(link);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ENOENT") throw error;
  }
  if (stat !== undefined) {
    if (fs.realpathSync(link) === fs.realpathSync(root)) return "present";
    throw new Error(
      `${link} exists but is not a link to this repository. Remove it (it is not one of the ` +
        "package's dependencies) and run the command again.",
    );
  }
  fs.mkdirSync(path.dirname(link), { recursive: true });
  // A junction needs no privilege on Windows (and an absolute target); elsewhere a relative
  // link survives moving the repository.
  if (process.platform === "win32") fs.symlinkSync(root, link, "junction");
  else fs.symlinkSync("..", link);
  return "created";
}

// ---------------------------------------------------------------------------
// A run that was killed
// ---------------------------------------------------------------------------

/** The type token of a Site (resource-options.ts: `pulumi-nodejs:dynamic/arcgis-admin:Site`). */
const SITE_TYPE = "pulumi-nodejs:dynamic/arcgis-admin:Site";
const FEDERATION_TYPE = "pulumi-nodejs:dynamic/arcgis-admin:Federation";

/**
 * @param {number} pid
 * @returns {boolean}
 */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * The lock files of `stack` in the local state backend, with the process that holds each.
 *
 * @param {string} stateDir
 * @param {string} stack
 * @returns {{file: string, pid: number, hostname: string}[]}
 */
function stackLocks(stateDir, stack) {
  const root = path.join(stateDir, ".pulumi", "locks");
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".json") && path.basename(path.dirname(f)) === stack)
    .map((f) => {
      const file = path.join(root, f);
      const holder = /** @type {{pid?: number, hostname?: string}} */ (
        parseJson(fs.readFileSync(file, "utf8"))
      );
      return { file, pid: holder.pid ?? -1, hostname: holder.hostname ?? "" };
    });
}

/**
 * Where the local state backend keeps the stack's checkpoint: the file there is (found by name,
 * in whichever layout the CLI used), else where the CLI will write it for this project. The
 * driver reads it instead of asking the CLI (see scripts/pulumi-driver.cjs, `stackFile`).
 *
 * @param {string} stateDir
 * @param {string} stack
 */
function stackFileOf(stateDir, stack) {
  const root = path.join(stateDir, ".pulumi", "stacks");
  const found = fs.existsSync(root)
    ? fs
        .readdirSync(root, { recursive: true })
        .map(String)
        .find((f) => [`${stack}.json`, `${stack}.json.gz`].includes(path.basename(f)))
    : undefined;
  if (found !== undefined) return path.join(root, found);
  const project = /^name:\s*(\S+)\s*$/m.exec(
    fs.readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8"),
  );
  return path.join(root, project?.[1] ?? "", `${stack}.json`);
}

/**
 * Whether the local state backend has the stack (its checkpoint file).
 *
 * @param {string} stateDir
 * @param {string} stack
 */
function stackFileExists(stateDir, stack) {
  return fs.existsSync(stackFileOf(stateDir, stack));
}

/**
 * Where the driver records the config it last set on the stack (see scripts/pulumi-driver.cjs,
 * `configRecord`): beside the stack's state, so that a new state dir starts without one.
 *
 * @param {string} stateDir
 * @param {string} stack
 */
function configRecordOf(stateDir, stack) {
  return path.join(stateDir, ".pulumi", "arcgis-admin-quickstart", `${stack}.config-hmac`);
}

/**
 * Whether the stack's checkpoint in the local state backend records operations that never ended
 * (read from the file, so that a clean stack costs no CLI call).
 *
 * @param {string} stateDir
 * @param {string} stack
 */
function hasPendingOperations(stateDir, stack) {
  const root = path.join(stateDir, ".pulumi", "stacks");
  if (!fs.existsSync(root)) return false;
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((f) => path.basename(f) === `${stack}.json`)
    .some((f) => {
      const state = /** @type {{checkpoint?: {latest?: {pending_operations?: unknown[]}}}} */ (
        parseJson(fs.readFileSync(path.join(root, f), "utf8"))
      );
      return (state.checkpoint?.latest?.pending_operations ?? []).length > 0;
    });
}

/**
 * How many resources the stack's checkpoint in the local state backend holds (what `pulumi stack
 * ls` reports as its resource count), read from the file: 0 without a checkpoint, undefined when
 * the file cannot be read here (compressed, or not a checkpoint): then ask the CLI.
 *
 * @param {string} stateDir
 * @param {string} stack
 * @returns {number | undefined}
 */
function stackResourceCount(stateDir, stack) {
  const file = stackFileOf(stateDir, stack);
  if (!fs.existsSync(file)) return 0;
  if (!file.endsWith(".json")) return undefined;
  try {
    const state = /** @type {{checkpoint?: {latest?: {resources?: unknown[]}}}} */ (
      parseJson(fs.readFileSync(file, "utf8"))
    );
    const resources = state.checkpoint?.latest?.resources;
    return state.checkpoint === undefined ? undefined : (resources ?? []).length;
  } catch {
    return undefined;
  }
}

/**
 * Finishes what a killed `pulumi up` (SIGKILL, a lost runner) left in the stack, so that the next
 * run completes without hand edits and without a second createNewSite:
 * - a lock whose process is gone on this machine is removed (one held by a live process, or by
 *   another machine, is left, and the run stops saying so);
 * - a Site whose create was interrupted is recorded under its id (its adminUrl) with the inputs the
 *   engine recorded and `state: "interrupted"`, and a refresh then asks the server (Site's read):
 *   a site that accepts the stack's credentials and whose declared configuration matches is the
 *   stack's own; anything else is dropped from state and left alone (`pulumi up` then asks for
 *   adoptExisting), and no site there drops it too, so that `pulumi up` creates it;
 * - a Federation whose create was interrupted is recorded likewise, and its refresh looks for the
 *   server in the portal's list: listed, it is the stack's (the create had found it absent before
 *   it sent federate); not listed, it is dropped, so that `pulumi up` federates it;
 * - any other interrupted create is forgotten: `pulumi up` sends it again (exportSite writes
 *   another archive; a Collaboration is confirmed again; a SiteMachine already in the site is
 *   adopted, not joined twice).
 * Returns what it did, for the log; nothing when the stack was left clean.
 *
 * @param {PulumiCli} cli
 * @param {{env: NodeJS.ProcessEnv, stack: string, stateDir: string, log?: Log}} options
 * @returns {Promise<string[]>}
 */
async function recoverInterruptedRun(cli, { env, stack, stateDir, log = defaultLog }) {
  const done = [];
  for (const lock of stackLocks(stateDir, stack)) {
    if (lock.hostname !== os.hostname() || alive(lock.pid)) {
      throw new Error(
        `Stack ${stack} is locked by process ${lock.pid} on ${lock.hostname || "another machine"}, ` +
          "which may still be running an update. Wait for it to finish; if it is gone, remove " +
          `${lock.file} and run again.`,
      );
    }
    fs.rmSync(lock.file, { force: true });
    fs.rmSync(`${lock.file}.attrs`, { force: true });
    done.push(`removed the lock of process ${lock.pid}, which is gone`);
  }
  if (!hasPendingOperations(stateDir, stack)) return done;
  const exported = await runStackOperation(cli, "export", { env, stack, log });
  if (!exported.ok) return done; // a new stack: nothing to recover
  const deployment =
    /** @type {{deployment?: {pending_operations?: {type: string, resource: {urn: string, type: string, inputs?: Record<string, unknown>, id?: string}}[], resources?: Record<string, unknown>[]}}} */ (
      exported.state
    );
  const pending = deployment.deployment?.pending_operations ?? [];
  if (pending.length === 0) return done;
  const resources = deployment.deployment?.resources ?? [];
  for (const op of pending) {
    const { resource } = op;
    const adminUrl = resource.inputs?.adminUrl;
    if (op.type === "creating" && resource.type === SITE_TYPE && typeof adminUrl === "string") {
      resources.push({
        ...resource,
        id: adminUrl,
        // Site's refresh proves it (credentials and declared configuration) before it keeps it.
        outputs: { ...resource.inputs, state: "interrupted" },
      });
      done.push(`recorded the interrupted create of ${resource.urn} to be checked on the server`);
    } else if (op.type === "creating" && resource.type === FEDERATION_TYPE) {
      resources.push({
        ...resource,
        // A placeholder: the portal's server id was never read. Federation's refresh looks for
        // the server in the portal's list and records it under the portal's id, or drops it.
        id: "interrupted",
        outputs: { ...resource.inputs, state: "interrupted" },
      });
      done.push(`recorded the interrupted federate of ${resource.urn} to be checked on the portal`);
    } else {
      done.push(`forgot the interrupted ${op.type} of ${resource.urn}; pulumi up sends it again`);
    }
  }
  deployment.deployment = { ...deployment.deployment, resources, pending_operations: [] };
  const imported = await runStackOperation(cli, "import", { env, stack, log, state: deployment });
  if (!imported.ok) throw new Error(`Could not record the recovery: ${imported.error ?? ""}`);
  const refreshed = await runStackOperation(cli, "refresh", { env, stack, log });
  if (!refreshed.ok) throw new Error("`pulumi refresh` after the recovery failed (see above).");
  return done;
}

// ---------------------------------------------------------------------------
// The emulator in the background
// ---------------------------------------------------------------------------

/**
 * The emulator's daemon module (emulator/process/daemon.ts) from the build: it starts the
 * emulator detached, finds it again by its data dir and stops it. Loaded when first needed, since
 * `npm start` builds dist/ after this file is loaded; the module alone, not the emulator's index,
 * which loads the whole server (0.3 s) into a process that only looks for it.
 *
 * @returns {typeof import("../emulator/process/daemon")}
 */
function daemon() {
  const file = path.join(REPO_ROOT, "dist", "emulator", "process", "daemon.js");
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  return /** @type {typeof import("../emulator/process/daemon")} */ (load(file));
}

/**
 * The emulator `npm start` left running on this data dir, or undefined when none runs. Throws
 * when another process holds the data dir or the recorded emulator stopped answering.
 *
 * @param {string} dataDir
 */
function runningEmulator(dataDir) {
  return daemon().findRunning(dataDir);
}

/**
 * Starts the quick start's emulator in the background (seeded from the quick start's seed, logs
 * in `<data dir>/emulator.log`) and resolves once it listens.
 *
 * @param {{dataDir: string, port: number}} settings
 */
async function startEmulatorInBackground(settings) {
  if (!fs.existsSync(settings.dataDir)) {
    // Made here: `npm run destroy` may remove the folder itself once the emulator's files are gone.
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
 * Stops the emulator `npm start` started on this data dir. Resolves with its pid, or undefined
 * when none was running. Never signals a process it did not start.
 *
 * @param {string} dataDir
 */
function stopEmulator(dataDir) {
  return daemon().stopDetached(dataDir);
}

/** The marker of a data dir that `npm start` made itself (it did not exist before). */
const MADE_BY_START = ".made-by-npm-start";

/**
 * What the emulator writes into its data dir (emulator/core/state.ts, emulator/process/,
 * emulator/server.ts, emulator/admin/site.ts): only these are ever removed.
 */
const EMULATOR_ENTRIES = [
  "state.json",
  "emulator.pid",
  "emulator.pid.takeover",
  "emulator.daemon.json",
  "emulator.ready",
  "emulator.log",
  "requests.log",
  "tls",
  "uploads",
];

/**
 * Removes the emulator's own files from the data dir, only if `npm start` ran an emulator there
 * (the record of its detached emulator is there). Nothing else in the folder is touched: an
 * operator's files and backups stay. The folder itself goes only when `npm start` made it and it
 * is empty afterwards. Returns whether the emulator's files were removed.
 *
 * @param {string} dataDir
 */
function removeEmulatorData(dataDir) {
  if (!fs.existsSync(path.join(dataDir, EMULATOR_RECORD))) return false;
  for (const name of fs.readdirSync(dataDir)) {
    // state.json.<n>: a temporary state file a killed write left behind.
    if (EMULATOR_ENTRIES.includes(name) || /^state\.json\.\d+$/.test(name)) {
      fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    }
  }
  const made = path.join(dataDir, MADE_BY_START);
  if (fs.existsSync(made) && fs.readdirSync(dataDir).length === 1) {
    fs.rmSync(made);
    fs.rmdirSync(dataDir);
  }
  return true;
}

/** Runs `npm run build` in the repository (npm's own CLI when run from npm). */
function build() {
  if (buildStamp.isFresh(REPO_ROOT)) {
    defaultLog("dist/ is the build of the sources as they are; not building again.");
    return;
  }
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
  PACKAGE_NAME,
  STACK,
  DEMO_PASSPHRASE,
  DEFAULT_PORT,
  SEED_FILE,
  SITE_ADMIN,
  PROGRAM,
  EMULATOR_RECORD,
  INSTALL_HELP,
  CLI_OPTIONS,
  defaultPaths,
  settingsFrom,
  readCommandLine,
  findOnPath,
  findPulumiCli,
  resolvePulumiCli,
  noCliMessage,
  runStackOperation,
  cliVersion,
  startDriver,
  recoverInterruptedRun,
  stackFileExists,
  stackResourceCount,
  stackFileOf,
  configRecordOf,
  pulumiEnv,
  runPulumi,
  mustRunPulumi,
  stackConfig,
  stackSecrets,
  readSeed,
  ensureSelfLink,
  runningEmulator,
  startEmulatorInBackground,
  stopEmulator,
  removeEmulatorData,
  build,
};

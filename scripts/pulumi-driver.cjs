// @ts-check
"use strict";
/**
 * Runs one Pulumi operation of a Node.js program through the real `pulumi` CLI, with the
 * automation API of the project's own `@pulumi/pulumi` and the program run inline (in this
 * process, which serves the language runtime the CLI connects to with `--client`). That is how
 * the engine that scripts/engine.cjs builds runs Node.js programs: it has no
 * `pulumi-language-nodejs` (see docs/testing.md, "The Pulumi engine"). With a full Pulumi install it
 * works the same way.
 *
 * Used by `npm start` / `npm run destroy` (scripts/quickstart.cjs) and by tests/real-engine/.
 *
 * Usage: node scripts/pulumi-driver.cjs <request.json | -> [<result.json>], with the Pulumi project as
 * cwd and the CLI's environment (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, PULUMI_HOME, ...)
 * set. With `-` the request comes on stdin (a JSON document, until stdin ends; nothing at all:
 * the driver exits without running anything). The request:
 *   { op: "preview" | "up" | "refresh" | "destroy" | "export" | "import" | "outputs",
 *     stack, engineRoot (the folder whose bin/ holds pulumi; omitted: `pulumi` on PATH),
 *     program (a file; module.exports or its default export is the program, or the file's own
 *       exports when it is a plain Pulumi program; TypeScript is compiled as Pulumi does),
 *     config: { key: { value, secret } } (set before the operation),
 *     options: { diff, expectNoChanges, refresh } (the automation API's own options),
 *     abortOnText: text that, once printed by the CLI, sends it SIGINT (Ctrl-C) }
 * The CLI's output is copied to stdout as it comes; then the result, into <result.json> when
 * given, else on stdout as one line RESULT_MARK + JSON
 * { ok, error?, changeSummary?, outputs?, state? } (state: `pulumi stack export`, for op
 * "export"). Exits 0 when the operation succeeded, 1 otherwise.
 *
 * Each CLI process costs the CLI's start-up (0.1 to 0.3 s), so the driver runs as few as the
 * caller's knowledge allows: no `pulumi version` with `cliVersion`; no `stack select` with
 * `stackFile`, and `stack init` alone with `stackExists: false`; no config commands when
 * `configRecord` shows the config set already; and after `up`, with `stackFile`, the outputs from
 * the checkpoint and the change summary from the engine's summary event instead of `stack output`
 * (twice) and `stack history` (after `destroy`, the summary the same way). Without these fields it
 * runs the automation API's own calls.
 *
 * A new stack's `stack init` and config commands start before the automation API is loaded (they
 * do not need it), in one shell, and run while it loads; and the closure serialization of dynamic
 * providers is warmed while the operation's CLI starts. See createStackInShell and
 * warmUpSerialization; with Node's compile cache (enableCompileCache), bench/RESULTS.md's figure
 * 7 (a new stack, one Site) went from about 2.5 s to 1.7 s on its 2-core machine, and with the
 * shell and the warm-up moved from the stack's commands to the operation, about 0.2 s further.
 */
const { spawn } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const nodeModule = require("node:module");
const os = require("node:os");
const path = require("node:path");
const { cacheProviderModules } = require("./provider-modules.cjs");

/**
 * Node's on-disk compile cache (V8 code cache of each module, checked against the module's source)
 * for this process and, through the environment the CLI inherits and hands on, for the
 * dynamic-provider host it starts: both load all of @pulumi/pulumi (grpc, protobuf, the
 * automation API), which Node otherwise compiles anew in every run. Measured with Node 24 on the
 * 2-core machine of bench/RESULTS.md: loading `@pulumi/pulumi/automation` 492 ms -> 335 ms, the
 * provider host's modules about 440 ms -> 270 ms. Kept in the user's own cache folder (next to the
 * engine scripts/engine.cjs builds), not a shared temporary one. A NODE_COMPILE_CACHE the user set
 * is used as it is; NODE_DISABLE_COMPILE_CACHE turns it off, as it does for Node itself.
 */
function enableCompileCache() {
  if (process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  if (typeof nodeModule.enableCompileCache !== "function") return;
  const dir =
    process.env.NODE_COMPILE_CACHE ||
    path.join(
      process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
      "pulumi-arcgis-admin",
      "node-compile-cache",
    );
  nodeModule.enableCompileCache(dir);
  process.env.NODE_COMPILE_CACHE = dir;
}
enableCompileCache();

const RESULT_MARK = "__PULUMI_DRIVER_RESULT__ ";

/**
 * @typedef {object} DriverRequest
 * @property {"preview" | "up" | "refresh" | "destroy" | "export" | "import" | "outputs"} op
 * @property {string} stack
 * @property {string} [engineRoot]
 * @property {string} [program]
 * @property {Record<string, {value: string, secret?: boolean, set?: boolean}>} [config] `set`:
 *   the caller has set this value on the stack already (`npm start` sets the secrets right after
 *   its own `stack init`, while the emulator starts): it is not set again, and is part of the
 *   config record like the others
 * @property {Record<string, unknown>} [options]
 * @property {string} [abortOnText]
 * @property {unknown} [state]
 * @property {boolean} [stackExists] whether the stack exists (else createOrSelect finds out)
 * @property {string} [cliVersion] the CLI's version, read by the caller already
 * @property {string} [stackFile] where a local (file://) state backend keeps the stack's
 *   checkpoint: when it is there, the stack is not selected by a CLI call (every command names it
 *   with --stack); after `up`, the outputs are read from it instead of `stack output`
 * @property {string} [configRecord] a file in which the driver records (an HMAC keyed with the
 *   stack's passphrase) the config it last set and the stack's config file it left; when both are
 *   the same at the next run, no config command runs
 */

/**
 * @typedef {object} DriverResult
 * @property {boolean} [ok]
 * @property {string} [error]
 * @property {unknown} [changeSummary]
 * @property {Record<string, unknown>} [outputs]
 * @property {unknown} [state]
 */

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

/**
 * The automation API of the project's own `@pulumi/pulumi` (the one the program runs with).
 *
 * @returns {typeof import("@pulumi/pulumi/automation")}
 */
function automation() {
  const file = require.resolve("@pulumi/pulumi/automation", { paths: [process.cwd()] });
  return /** @type {typeof import("@pulumi/pulumi/automation")} */ (load(file));
}

/**
 * Compiles TypeScript as @pulumi/pulumi's own cmd/run does for a CommonJS project, with the
 * tsconfig.json of the program's folder (the language host's working directory when Pulumi.yaml's
 * `main` names a file).
 */
/** @param {string} programDir */
function registerTypeScript(programDir) {
  const pulumiDir = path.dirname(
    require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd()] }),
  );
  // Internal to @pulumi/pulumi (its declarations leave these out): what cmd/run uses.
  const tsutils =
    /**
     * @type {{
     *   typeScriptRequireStrings(): {tsnodeRequire: string, typescriptRequire: string},
     *   loadTypeScriptCompilerOptions(file: string): Record<string, unknown>,
     * }}
     */ (load(path.join(pulumiDir, "tsutils")));
  const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
  const tsConfigPath =
    process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? path.join(programDir, "tsconfig.json");
  const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
  const tsnode = /** @type {{register(options: Record<string, unknown>): void}} */ (
    load(tsnodeRequire)
  );
  tsnode.register({
    compiler: typescriptRequire,
    transpileOnly: process.env.PULUMI_NODEJS_TRANSPILE_ONLY === "true",
    project: tsConfigPath,
    skipProject: !fs.existsSync(tsConfigPath),
    compilerOptions: {
      target: "ES2020",
      module: "commonjs",
      moduleResolution: "node",
      sourceMap: "true",
      ...compilerOptions,
    },
  });
}

/**
 * @param {string} file
 * @returns {import("@pulumi/pulumi/automation").PulumiFn}
 */
function programOf(file) {
  return async () => {
    if (/\.[cm]?ts$/.test(file)) registerTypeScript(path.dirname(file));
    const loaded = /** @type {Record<string, unknown> | (() => unknown) | null} */ (load(file));
    const fn = /** @type {(() => unknown) | Record<string, unknown> | undefined} */ (
      typeof loaded === "function" ? loaded : loaded?.default
    );
    if (typeof fn === "function") return /** @type {Record<string, unknown>} */ (await fn());
    // A plain program: its exports are the stack outputs.
    return { ...loaded };
  };
}

/**
 * Runs the CLI itself (stdin: `input`); resolves with its stdout.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {string} [input]
 * @returns {Promise<string>}
 */
function cli(command, args, input) {
  return new Promise((resolve, reject) => {
    // In a process group of its own, as the automation API's commands (see Cancellation): a
    // terminal's Ctrl-C stops no `stack init` or config command half-way.
    const child = spawn(command, [...args, "--non-interactive"], {
      cwd: process.cwd(),
      env: cliEnv(command, {}),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(new Error(`pulumi ${args.slice(0, 2).join(" ")} failed (exit ${code}): ${stderr}`));
    });
    child.stdin.end(input ?? "");
  });
}

/**
 * The CLI's environment, as the automation API gives it: `PULUMI_AUTOMATION_API`, and the CLI's
 * folder first on PATH when the command is a path.
 *
 * @param {string} command
 * @param {Record<string, string>} additionalEnv
 * @returns {Record<string, string | undefined>}
 */
function cliEnv(command, additionalEnv) {
  /** @type {Record<string, string | undefined>} */
  const env = { ...process.env, ...additionalEnv, PULUMI_AUTOMATION_API: "true" };
  if (path.isAbsolute(command)) {
    env.PATH = [path.dirname(command), additionalEnv.PATH ?? process.env.PATH].join(path.delimiter);
  }
  return env;
}

/**
 * Sets the requested config on the stack: the plain values with one `config set-all` (the
 * arguments the automation API's setAllConfig gives), each secret with `config set --secret`.
 *
 * @param {string} command
 * @param {string} stack
 * @param {Array<[string, {value: string, secret?: boolean, set?: boolean}]>} requested
 */
async function setConfig(command, stack, requested) {
  // What the caller set already (`set`) is not set again.
  const entries = requested.filter(([, v]) => v.set !== true);
  const plain = entries.filter(([, v]) => v.secret !== true);
  if (plain.length > 0) {
    await cli(command, [
      "config",
      "set-all",
      "--stack",
      stack,
      ...plain.flatMap(([k, v]) => ["--plaintext", `${k}=${v.value}`]),
    ]);
  }
  // Not the automation API's setConfig/setAllConfig for secrets: they put the value on the
  // CLI's command line, where every local user can read it (ps). stdin instead.
  for (const [key, v] of entries.filter(([, v]) => v.secret === true)) {
    await setSecretConfig(command, stack, key, v.value);
  }
}

/** The file descriptors a new stack's secrets reach their `config set` on (see createStackInShell). */
const SECRET_FDS = [3, 4, 5, 6, 7, 8, 9];

/** The line the shell of createStackInShell writes to stderr when a command fails. */
const FAILED_MARK = "__PULUMI_DRIVER_FAILED__";

/**
 * Creates the stack (`stack init`, as the automation API's Stack.create runs it) and sets its
 * config: CLI processes that need nothing of the automation API, so the driver starts them
 * before it loads that (0.3 to 0.5 s of module loading, during which its own thread can start
 * nothing) and they run meanwhile. Each costs the CLI's start-up (about 0.1 s), `stack init` and
 * each secret the key derivation of the passphrase secrets provider too (PBKDF2, 1,000,000
 * rounds: about 0.17 s).
 *
 * The commands run one after the other in one `/bin/sh`, started as soon as the request is read:
 * the shell starts each as soon as the one before has ended, which this thread could not while a
 * `require` blocks it. (A worker thread did the same and cost its own start-up first: figure 7's
 * single-Site `up` of a new stack was 25 to 75 ms faster with the shell, medians of 9 to 11 runs
 * in two hours of one day.) Nothing secret is in the
 * shell's script or arguments: the config keys and plain values are its arguments (as they are
 * the CLI's), each secret value comes on a pipe of its own (file descriptor 3 to 9) that becomes
 * the stdin of its `config set --secret`. Secrets beyond seven are set after the shell, one
 * `config set` each, the same way. A cancel lets the command in flight finish and starts no
 * further one (the shell's TERM trap waits for the command, as POSIX shells do).
 * `plainLater`: the plain values are left out, for the operation's own `--config` (see main).
 *
 * @param {string} command
 * @param {DriverRequest} request
 * @param {AbortSignal} signal the cancel (Ctrl-C)
 * @param {boolean} plainLater
 * @returns {Promise<void>}
 */
async function createStackInShell(command, request, signal, plainLater) {
  const entries = Object.entries(request.config ?? {}).filter(([, v]) => v.set !== true);
  const plain = plainLater ? [] : entries.filter(([, v]) => v.secret !== true);
  const secrets = entries.filter(([, v]) => v.secret === true);
  const piped = secrets.slice(0, SECRET_FDS.length);
  const closeAll = SECRET_FDS.slice(0, piped.length).map((fd) => `${fd}<&-`);
  /** @param {string} name @param {string} line */
  const step = (name, line) =>
    `${line} || { c=$?; printf '\\n${FAILED_MARK} %s %s\\n' '${name}' "$c" >&2; exit 1; }`;
  /** The shell's positional parameter `n` (braced: `$10` would be `${1}0`). @param {number} n */
  const arg = (n) => `\${${n}}`;
  // $1: the CLI, $2: the stack (both shifted off), then the plain `key=value`s, then the
  // secrets' keys.
  const script = [
    "trap 'exit 130' TERM",
    "p=$1 s=$2; shift 2",
    step("stack init", `"$p" stack init "$s" --non-interactive </dev/null ${closeAll.join(" ")}`),
  ];
  if (plain.length > 0) {
    const args = plain.map((_, i) => `--plaintext "${arg(i + 1)}"`).join(" ");
    script.push(
      step(
        "config set-all",
        `"$p" config set-all --stack "$s" ${args} --non-interactive </dev/null ${closeAll.join(" ")}`,
      ),
    );
  }
  piped.forEach((_, i) => {
    const fd = SECRET_FDS[i];
    const others = closeAll.filter((c) => !c.startsWith(`${fd}<`));
    script.push(
      step(
        "config set",
        `"$p" config set --secret --stack "$s" "${arg(plain.length + i + 1)}" --non-interactive <&${fd} ${others.join(" ")}`,
      ),
    );
  });
  const child = spawn(
    "/bin/sh",
    [
      "-c",
      script.join("\n"),
      "sh",
      command,
      request.stack,
      ...plain.map(([k, v]) => `${k}=${v.value}`),
      ...piped.map(([k]) => k),
    ],
    {
      cwd: process.cwd(),
      env: cliEnv(command, {}),
      // In a process group of its own, as the automation API's commands (see Cancellation): a
      // terminal's Ctrl-C stops no `stack init` or config command half-way.
      detached: true,
      stdio: ["ignore", "pipe", "pipe", ...piped.map(() => /** @type {const} */ ("pipe"))],
    },
  );
  piped.forEach(([, v], i) => {
    const pipe = /** @type {import("node:stream").Writable} */ (child.stdio[i + 3]);
    pipe.on("error", () => undefined); // a command that failed before reading it
    pipe.end(v.value);
  });
  const cancel = () => child.kill("SIGTERM");
  signal.addEventListener("abort", cancel, { once: true });
  let stderr = "";
  // Set as "pipe" above (the extra pipes' spread leaves them typed nullable).
  /** @type {import("node:stream").Readable} */ (child.stdout).resume();
  /** @type {import("node:stream").Readable} */ (child.stderr)
    .setEncoding("utf8")
    .on("data", (/** @type {string} */ c) => (stderr += c));
  const code = await /** @type {Promise<number | null>} */ (
    new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    })
  ).finally(() => signal.removeEventListener("abort", cancel));
  if (signal.aborted) throw new Error("cancelled before the stack's config was set");
  if (code !== 0) {
    const failed = new RegExp(`\\n${FAILED_MARK} (.+) (\\d+)\\n`).exec(stderr);
    const output = stderr.replace(/\n__PULUMI_DRIVER_FAILED__ .*\n/, "");
    throw new Error(
      failed === null
        ? `creating the stack stopped (exit ${String(code)}): ${output}`
        : `pulumi ${failed[1]} failed (exit ${failed[2]}): ${output}`,
    );
  }
  for (const [key, v] of secrets.slice(piped.length)) {
    if (signal.aborted) throw new Error("cancelled before the stack's config was set");
    await setSecretConfig(command, request.stack, key, v.value);
  }
}

/**
 * {@link createStackInShell} where there is a POSIX shell; on Windows the same commands one after
 * the other from this thread (each starts once this thread is free: after the automation API has
 * loaded, when that was first).
 *
 * @param {string} command
 * @param {DriverRequest} request
 * @param {AbortSignal} signal
 * @param {boolean} plainLater
 * @returns {Promise<void>}
 */
async function createStack(command, request, signal, plainLater) {
  if (process.platform !== "win32") return createStackInShell(command, request, signal, plainLater);
  await cli(command, ["stack", "init", request.stack]);
  if (signal.aborted) throw new Error("cancelled before the stack's config was set");
  const entries = Object.entries(request.config ?? {});
  await setConfig(
    command,
    request.stack,
    plainLater ? entries.filter(([, v]) => v.secret === true) : entries,
  );
}

/**
 * Warms @pulumi/pulumi's closure serialization, which a dynamic resource's registration runs for
 * its provider: the first serialization in a process opens an inspector session (which then
 * receives an event for every script loaded so far), builds the table of Node's built-in modules
 * and loads TypeScript's parser, about 220 ms of one core before the program's first resource
 * can reach the engine; later ones take about 35 ms. Done while the CLI starts (its own start-up
 * and key derivation, 0.3 s and more, on the other core), it is off the program's path. It
 * serializes an object of its own, which nothing uses, shaped like a dynamic provider (async
 * methods that capture a module name and load it, with the syntax such methods use): after
 * a warm-up with a bare function the first real provider (the Site's) still took 28 to 31 ms to
 * serialize, after this one 18 to 21 ms (Node 24, 4 runs each). A failure here is left to the
 * program's own serialization to report.
 */
function warmUpSerialization() {
  try {
    const pulumi =
      /** @type {{runtime: {serializeFunction(f: () => unknown, options?: {allowSecrets?: boolean}): Promise<unknown>}}} */ (
        load(require.resolve("@pulumi/pulumi", { paths: [process.cwd()] }))
      );
    const modulePath = "pulumi-driver-warm-up";
    const provider = {
      /** @param {unknown} olds @param {{list?: Array<{a: string, b: string}>}} news */
      async check(olds, news) {
        const m = /** @type {{f(...args: unknown[]): Promise<unknown>}} */ (load(modulePath));
        await m.f(olds, news);
        return { ...news, list: (news.list ?? []).map((x) => ({ a: "", b: `${x.a}: ${x.b}` })) };
      },
      /** @param {string} id @param {unknown} props */
      async read(id, props) {
        const m = /** @type {{f(...args: unknown[]): Promise<unknown>}} */ (load(modulePath));
        return m.f(id, props);
      },
    };
    pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true }).catch(() => undefined);
  } catch {
    // The program's own serialization reports it.
  }
}

/**
 * `pulumi config set --secret KEY` with the value on stdin.
 *
 * @param {string} command
 * @param {string} stack
 * @param {string} key
 * @param {string} value
 */
function setSecretConfig(command, stack, key, value) {
  return cli(command, ["config", "set", "--secret", "--stack", stack, key], value);
}

/**
 * How `npm start` and a pipeline's cancel reach the engine. The CLI runs in a process group of its
 * own (with the plugins it starts, the dynamic-provider host among them), so a terminal's Ctrl-C,
 * which signals the whole foreground group, never reaches the CLI or a provider in the middle of
 * a create. This process takes SIGINT and SIGTERM instead and turns the first into Pulumi's
 * graceful cancel: one SIGINT to the CLI, after which the engine lets the operations in flight
 * finish and records them. Signals that arrive together (the terminal's to every process, npm's
 * forwarded copy) count as one; a signal given later stops at once (a second SIGINT, Pulumi's own
 * "terminate now").
 */
class Cancellation {
  constructor() {
    this.controller = new AbortController();
    /** @type {import("node:child_process").ChildProcess | undefined} */
    this.cli = undefined;
    /** @type {number | undefined} */
    this.firstAt = undefined;
    this.stopped = false;
  }

  /** @param {NodeJS.Signals} name */
  receive(name) {
    const now = Date.now();
    if (this.firstAt === undefined) {
      this.firstAt = now;
      process.stderr.write(
        `\n${name} received: cancelling. The engine lets the operations in flight finish and ` +
          "records them; send the signal again to stop at once (that may leave an operation " +
          "pending).\n",
      );
      this.controller.abort();
      return;
    }
    if (now - this.firstAt < 1_000 || this.stopped) return; // the same cancel, delivered twice
    this.stopped = true;
    process.stderr.write(`\n${name} received again: stopping at once.\n`);
    this.cli?.kill("SIGINT");
  }

  listen() {
    process.on("SIGINT", () => this.receive("SIGINT"));
    process.on("SIGTERM", () => this.receive("SIGTERM"));
  }
}

/**
 * The automation API's PulumiCommand, running the CLI in a process group of its own (see
 * {@link Cancellation}); otherwise as the automation API runs it (`--non-interactive`, the CLI's
 * folder first on PATH, `PULUMI_AUTOMATION_API`, a CommandError on a non-zero exit).
 *
 * @param {import("@pulumi/pulumi/automation").PulumiCommand} pulumiCommand
 * @param {Cancellation} cancellation
 * @param {{command: string, args: string[], onStart?: () => void}} [extra] arguments added to
 *   the first run of one command (`up`, `preview`): what the automation API has no option for;
 *   and what to do once that run's process has started (on the next turn of the event loop)
 * @returns {import("@pulumi/pulumi/automation").PulumiCommand}
 */
function inOwnProcessGroup(pulumiCommand, cancellation, extra) {
  const base = path.dirname(
    require.resolve("@pulumi/pulumi/automation", { paths: [process.cwd()] }),
  );
  const { CommandResult } =
    /** @type {{CommandResult: new (stdout: string, stderr: string, code: number, err?: Error) => unknown}} */ (
      load(path.join(base, "cmd"))
    );
  const errors = /** @type {{createCommandError: (result: unknown) => Error}} */ (
    load(path.join(base, "errors"))
  );
  const createCommandError = errors.createCommandError;
  /** @type {import("@pulumi/pulumi/automation").PulumiCommand & {run: unknown}} */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- Object.create is typed any; its prototype is the automation API's own PulumiCommand
  const wrapped = Object.create(pulumiCommand);

  let pending = extra;
  /**
   * @param {string[]} args
   * @param {string} cwd
   * @param {Record<string, string>} additionalEnv
   * @param {((data: string) => void) | undefined} onOutput
   * @param {((data: string) => void) | undefined} onError
   * @param {AbortSignal | undefined} signal
   */
  wrapped.run = (args, cwd, additionalEnv, onOutput, onError, signal) => {
    /** @type {(() => void) | undefined} */
    let onStart;
    if (pending !== undefined && args[0] === pending.command) {
      args.push(...pending.args);
      onStart = pending.onStart;
      pending = undefined;
    }
    if (!args.includes("--non-interactive")) args.push("--non-interactive");
    const env = cliEnv(pulumiCommand.command, additionalEnv);
    return new Promise((resolve, reject) => {
      const child = spawn(pulumiCommand.command, args, {
        cwd,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      cancellation.cli = child;
      if (onStart !== undefined) setImmediate(onStart);
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (/** @type {string} */ data) => {
        stdout += data;
        onOutput?.(data);
      });
      child.stderr.setEncoding("utf8").on("data", (/** @type {string} */ data) => {
        stderr += data;
        onError?.(data);
      });
      const abort = () => child.kill("SIGINT");
      signal?.addEventListener("abort", abort);
      if (signal?.aborted) abort();
      child.on("error", (error) =>
        reject(createCommandError(new CommandResult("", error.message, -2, error))),
      );
      child.on("close", (code) => {
        signal?.removeEventListener("abort", abort);
        if (cancellation.cli === child) cancellation.cli = undefined;
        const result = new CommandResult(stdout, stderr, code ?? -2);
        if (code === 0) resolve(result);
        else reject(createCommandError(result));
      });
    });
  };
  return wrapped;
}

/**
 * The CLI's command: `bin/pulumi` of `engineRoot` (as `PulumiCommand.get` finds it there), else
 * `pulumi` on PATH.
 *
 * @param {DriverRequest} request
 */
function commandOf(request) {
  return request.engineRoot === undefined
    ? "pulumi"
    : path.resolve(path.join(request.engineRoot, "bin/pulumi"));
}

/**
 * The CLI the automation API runs: with the version the caller read already (`cliVersion`),
 * without running `pulumi version` again; otherwise as `PulumiCommand.get` finds it.
 *
 * @param {typeof import("@pulumi/pulumi/automation")} auto
 * @param {DriverRequest} request
 */
async function pulumiCommandOf(auto, request) {
  // The SDK's own semver: a SemVer of another copy is not one to it.
  const semver = /** @type {typeof import("semver")} */ (
    load(
      require.resolve("semver", {
        paths: [
          path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [process.cwd()] })),
        ],
      }),
    )
  );
  const known = request.cliVersion === undefined ? null : semver.parse(request.cliVersion.trim());
  if (known !== null) {
    const command = commandOf(request);
    // The constructor `PulumiCommand.get` ends with (private in the declarations).
    const Command =
      /** @type {new (command: string, version: unknown) => import("@pulumi/pulumi/automation").PulumiCommand} */ (
        /** @type {unknown} */ (auto.PulumiCommand)
      );
    return new Command(command, known);
  }
  return auto.PulumiCommand.get(
    request.engineRoot === undefined
      ? { skipVersionCheck: true }
      : { root: request.engineRoot, skipVersionCheck: true },
  );
}

/**
 * The stack to run on. With `stackFile` (the caller saw the stack's checkpoint), no CLI call: the
 * automation API's `stack select` is skipped, since every command it runs names the stack with
 * `--stack`. With `stackExists: false`, `stack init` alone; else the automation API's
 * createOrSelect (a `stack select` that may fail before `stack init`).
 *
 * @param {typeof import("@pulumi/pulumi/automation")} auto
 * @param {import("@pulumi/pulumi/automation").LocalWorkspace} workspace
 * @param {DriverRequest} request
 * @param {boolean} existed whether the stack's checkpoint (`stackFile`) is there, or the driver
 *   created the stack already ({@link createStack})
 */
async function stackOf(auto, workspace, request, existed) {
  if (existed) {
    const selectStack = workspace.selectStack.bind(workspace);
    workspace.selectStack = () => Promise.resolve();
    try {
      return await auto.Stack.select(request.stack, workspace);
    } finally {
      workspace.selectStack = selectStack;
    }
  }
  if (request.stackExists === true) return auto.Stack.select(request.stack, workspace);
  if (request.stackExists === false || request.stackFile !== undefined) {
    return auto.Stack.create(request.stack, workspace);
  }
  return auto.Stack.createOrSelect(request.stack, workspace);
}

/**
 * The record of the config last set on a stack: an HMAC keyed with the stack's passphrase (so it
 * tells no more about the secrets than their ciphertext in the config file does) of the requested
 * config and of the stack's config file (`Pulumi.<stack>.yaml` in the project) as the CLI left
 * it. Undefined without a passphrase in the environment (then the config is always set).
 *
 * @param {string} file
 * @param {string} stack
 * @param {Record<string, {value: string, secret?: boolean}>} config
 */
function configRecord(file, stack, config) {
  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE;
  if (passphrase === undefined || passphrase === "") return undefined;
  const stackConfigFile = path.join(process.cwd(), `Pulumi.${stack}.yaml`);
  const requested = JSON.stringify(
    Object.entries(config)
      .map(([key, v]) => [key, v.value, v.secret === true])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
  const digest = () =>
    crypto
      .createHmac("sha256", passphrase)
      .update(requested)
      .update("\0")
      .update(fs.existsSync(stackConfigFile) ? fs.readFileSync(stackConfigFile) : "")
      .digest("hex");
  return {
    matches: () => fs.existsSync(file) && fs.readFileSync(file, "utf8") === digest(),
    write: () => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, digest(), { mode: 0o600 });
    },
  };
}

/** The key Pulumi marks a secret value with in a checkpoint. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/**
 * The stack's outputs as the checkpoint records them (the root stack resource's outputs), secrets
 * (which stay encrypted there) as `{value: "[secret]", secret: true}`; undefined when the file is
 * not there or not the plain JSON checkpoint this reads.
 *
 * @param {string} file
 * @returns {Record<string, {value: unknown, secret: boolean}> | undefined}
 */
function checkpointOutputs(file) {
  if (!file.endsWith(".json") || !fs.existsSync(file)) return undefined;
  const state =
    /** @type {{checkpoint?: {latest?: {resources?: {type: string, outputs?: Record<string, unknown>}[]}}}} */ (
      parseJson(fs.readFileSync(file, "utf8"))
    );
  const root = state.checkpoint?.latest?.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
  if (root === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(root.outputs ?? {}).map(([key, value]) => {
      const secret = typeof value === "object" && value !== null && SECRET_SIG in value;
      return [key, secret ? { value: "[secret]", secret: true } : { value, secret: false }];
    }),
  );
}

/**
 * Makes the coming `up` take its outputs from the checkpoint: the automation API's `up` ends with
 * `stack output` (twice), CLI processes whose answers the engine has already written down. When
 * the checkpoint cannot be read, the automation API's own call runs.
 *
 * @param {import("@pulumi/pulumi/automation").Stack} stack
 * @param {string} stackFile
 */
function outputsFromCheckpoint(stack, stackFile) {
  const own = /** @type {{outputs: () => Promise<unknown>}} */ (/** @type {unknown} */ (stack));
  const outputs = own.outputs.bind(stack);
  own.outputs = () => {
    const read = checkpointOutputs(stackFile);
    return read === undefined ? outputs() : Promise.resolve(read);
  };
}

/**
 * Makes the coming `up` or `destroy` take its change summary from the engine's summary event
 * instead of `stack history` (a CLI process) after it; without the event, the automation API's
 * own call runs.
 *
 * @param {import("@pulumi/pulumi/automation").Stack} stack
 * @param {import("@pulumi/pulumi/automation").UpOptions} options
 */
function summaryFromEvents(stack, options) {
  /** @type {Record<string, number> | undefined} */
  let resourceChanges;
  const onEvent = options.onEvent;
  options.onEvent = (event) => {
    if (event.summaryEvent !== undefined) resourceChanges = event.summaryEvent.resourceChanges;
    onEvent?.(event);
  };
  const own = /** @type {{info: (s?: boolean) => Promise<unknown>}} */ (
    /** @type {unknown} */ (stack)
  );
  const info = own.info.bind(stack);
  own.info = (showSecrets) =>
    resourceChanges === undefined ? info(showSecrets) : Promise.resolve({ resourceChanges });
}

/** All of stdin, once it ends. */
async function readStdin() {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/** @returns {Promise<DriverResult | undefined>} */
async function main() {
  const requestFile = process.argv[2];
  if (requestFile === undefined)
    throw new Error("usage: pulumi-driver.cjs <request.json | -> [<result.json>]");
  const cancellation = new Cancellation();
  cancellation.listen();
  // With the request on stdin, loaded before it is read: a caller that passes it on stdin starts
  // this process early and sends the request once it knows it, so the loading (about 0.5 s)
  // overlaps its own. With a request file, loaded once a new stack's CLI commands have started.
  let auto = requestFile === "-" ? automation() : undefined;
  const text = requestFile === "-" ? await readStdin() : fs.readFileSync(requestFile, "utf8");
  if (text.trim() === "") return undefined; // the caller closed stdin without a request
  const request = /** @type {DriverRequest} */ (parseJson(text));
  const existed = request.stackFile !== undefined && fs.existsSync(request.stackFile);
  const entries = Object.entries(request.config ?? {});
  const isNew =
    !existed &&
    request.stackExists !== true &&
    (request.stackExists === false || request.stackFile !== undefined);
  // Only for a stack that was there: a new one has no config yet, whatever a record says.
  const record =
    request.configRecord === undefined || !existed
      ? undefined
      : configRecord(request.configRecord, request.stack, request.config ?? {});
  const needConfig = entries.length > 0 && (isNew || record === undefined || !record.matches());
  // The plain config goes with `up` and `preview` (`--config key=value`, which the CLI saves to
  // the stack's config file before the operation, parsed as `config set-all` parses it): one CLI
  // process fewer (its start-up, about 0.1 s). The secrets are set before, through stdin.
  const plain = entries.filter(([, v]) => v.secret !== true && v.set !== true);
  const plainWithOp =
    needConfig && plain.length > 0 && (request.op === "up" || request.op === "preview");
  // A new stack (as stackOf decides): created, its config set, while the automation API loads.
  const created = isNew
    ? createStack(commandOf(request), request, cancellation.controller.signal, plainWithOp)
    : undefined;
  created?.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  auto ??= automation();
  // Closure serialization is warmed while the operation's CLI starts (its start-up and its
  // config's key derivation, about 0.3 s before the program runs). Not before the operation when no
  // CLI runs: it would delay the operation by its own time (measured: a second `npm start`, 1.7 s
  // -> 1.9 s). Not while a new stack's commands run either: there it can slow them by more than it
  // saves (figure 7's single-Site `up`, 7 runs each: 150 ms slower than warmed with the operation
  // in one hour, no different in another).
  const warm = request.program !== undefined && (request.op === "up" || request.op === "preview");
  // The provider host's modules go into the compile cache before the warm-up (whose inspector
  // session makes the code compiled afterwards useless to other processes): while a new stack's
  // commands run, else as the operation's CLI starts. Nothing to do once they are there.
  const programDir =
    request.program === undefined ? process.cwd() : path.dirname(path.resolve(request.program));
  if (warm && created !== undefined) cacheProviderModules(programDir);
  await created;
  const onStart = () => {
    if (created === undefined) cacheProviderModules(programDir);
    warmUpSerialization();
  };
  const pulumiCommand = inOwnProcessGroup(await pulumiCommandOf(auto, request), cancellation, {
    command: request.op,
    args: plainWithOp ? plain.flatMap(([k, v]) => ["--config", `${k}=${v.value}`]) : [],
    ...(warm ? { onStart } : {}),
  });
  const program =
    request.program === undefined ? undefined : programOf(path.resolve(request.program));
  const workspace = await auto.LocalWorkspace.create({
    workDir: process.cwd(),
    pulumiCommand,
    ...(program === undefined ? {} : { program }),
  });
  const stack = await stackOf(auto, workspace, request, existed || created !== undefined);
  if (created === undefined && needConfig) {
    await setConfig(
      pulumiCommand.command,
      request.stack,
      plainWithOp ? entries.filter(([, v]) => v.secret === true) : entries,
    );
  }
  // Written after each run that had config, once the CLI has written the stack's config file
  // (with the plain config given to the operation: once that succeeded).
  const recordConfig = () => {
    if (entries.length === 0 || request.configRecord === undefined) return;
    const next = configRecord(request.configRecord, request.stack, request.config ?? {});
    if (next !== undefined) next.write();
  };
  if (!plainWithOp) recordConfig();

  const { controller } = cancellation;
  let seen = "";
  /** @param {string} text */
  const onOutput = (text) => {
    process.stdout.write(text);
    if (request.abortOnText !== undefined && !controller.signal.aborted) {
      seen = (seen + text).slice(-10_000);
      if (seen.includes(request.abortOnText)) controller.abort();
    }
  };
  /** @param {string} text */
  const onError = (text) => process.stderr.write(text);
  /** @type {import("@pulumi/pulumi/automation").UpOptions} */
  const common = {
    onOutput,
    onError,
    signal: controller.signal,
    color: "never",
    ...(request.options ?? {}),
  };
  /** @type {DriverResult} */
  const result = {};
  switch (request.op) {
    case "preview":
      result.changeSummary = (await stack.preview(common)).changeSummary;
      break;
    case "up": {
      if (request.stackFile !== undefined) {
        outputsFromCheckpoint(stack, request.stackFile);
        summaryFromEvents(stack, common);
      }
      const up = await stack.up(common);
      result.changeSummary = up.summary.resourceChanges;
      result.outputs = Object.fromEntries(
        Object.entries(up.outputs).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]),
      );
      break;
    }
    case "refresh":
      result.changeSummary = (await stack.refresh(common)).summary.resourceChanges;
      break;
    case "destroy":
      if (request.stackFile !== undefined) summaryFromEvents(stack, common);
      result.changeSummary = (await stack.destroy(common)).summary.resourceChanges;
      break;
    case "export":
      // Not the automation API's exportStack: it adds --show-secrets.
      result.state = JSON.parse(
        await cli(pulumiCommand.command, ["stack", "export", "--stack", request.stack]),
      );
      break;
    case "import":
      // A deployment edited by scripts/quickstart.cjs (recoverInterruptedRun).
      await stack.importStack(
        /** @type {import("@pulumi/pulumi/automation").Deployment} */ (request.state),
      );
      break;
    case "outputs":
      result.outputs = Object.fromEntries(
        Object.entries(await stack.outputs()).map(([k, v]) => [k, v.secret ? "[secret]" : v.value]),
      );
      break;
    default:
      throw new Error(`unknown op ${String(request.op)}`);
  }
  if (plainWithOp) recordConfig();
  return result;
}

/** @param {DriverResult} result */
function report(result) {
  const resultFile = process.argv[3];
  if (resultFile !== undefined) fs.writeFileSync(resultFile, JSON.stringify(result));
  else process.stdout.write(`\n${RESULT_MARK}${JSON.stringify(result)}\n`);
}

main().then(
  (result) => {
    if (result !== undefined) report({ ok: true, ...result });
  },
  (error) => {
    // The automation API's CommandError message holds the CLI's stdout and stderr.
    report({ ok: false, error: error instanceof Error ? error.message : String(error) });
    process.exitCode = 1;
  },
);

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
 * Usage: node scripts/pulumi-driver.cjs <request.json> [<result.json>], with the Pulumi project as cwd and the
 * CLI's environment (PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, PULUMI_HOME, ...) set. The
 * request:
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
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const RESULT_MARK = "__PULUMI_DRIVER_RESULT__ ";

/**
 * @typedef {object} DriverRequest
 * @property {"preview" | "up" | "refresh" | "destroy" | "export" | "import" | "outputs"} op
 * @property {string} stack
 * @property {string} [engineRoot]
 * @property {string} [program]
 * @property {Record<string, {value: string, secret?: boolean}>} [config]
 * @property {Record<string, unknown>} [options]
 * @property {string} [abortOnText]
 * @property {unknown} [state]
 * @property {boolean} [stackExists] whether the stack exists (else createOrSelect finds out)
 * @property {string} [cliVersion] the CLI's version, read by the caller already
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
    const child = spawn(command, [...args, "--non-interactive"], {
      cwd: process.cwd(),
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
 * @returns {import("@pulumi/pulumi/automation").PulumiCommand}
 */
function inOwnProcessGroup(pulumiCommand, cancellation) {
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

  /**
   * @param {string[]} args
   * @param {string} cwd
   * @param {Record<string, string>} additionalEnv
   * @param {((data: string) => void) | undefined} onOutput
   * @param {((data: string) => void) | undefined} onError
   * @param {AbortSignal | undefined} signal
   */
  wrapped.run = (args, cwd, additionalEnv, onOutput, onError, signal) => {
    if (!args.includes("--non-interactive")) args.push("--non-interactive");
    /** @type {Record<string, string | undefined>} */
    const env = { ...process.env, ...additionalEnv, PULUMI_AUTOMATION_API: "true" };
    if (path.isAbsolute(pulumiCommand.command)) {
      env.PATH = [path.dirname(pulumiCommand.command), additionalEnv.PATH ?? process.env.PATH].join(
        path.delimiter,
      );
    }
    return new Promise((resolve, reject) => {
      const child = spawn(pulumiCommand.command, args, {
        cwd,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      cancellation.cli = child;
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
    const command =
      request.engineRoot === undefined
        ? "pulumi"
        : path.resolve(path.join(request.engineRoot, "bin/pulumi"));
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

/** @returns {Promise<DriverResult>} */
async function main() {
  const requestFile = process.argv[2];
  if (requestFile === undefined)
    throw new Error("usage: pulumi-driver.cjs <request.json> [<result.json>]");
  const request = /** @type {DriverRequest} */ (parseJson(fs.readFileSync(requestFile, "utf8")));
  const auto = automation();
  const cancellation = new Cancellation();
  cancellation.listen();
  const pulumiCommand = inOwnProcessGroup(await pulumiCommandOf(auto, request), cancellation);
  const program =
    request.program === undefined ? undefined : programOf(path.resolve(request.program));
  const workspace = await auto.LocalWorkspace.create({
    workDir: process.cwd(),
    pulumiCommand,
    ...(program === undefined ? {} : { program }),
  });
  // A caller that knows whether the stack exists spares the `stack select` that fails first.
  const stack =
    request.stackExists === true
      ? await auto.Stack.select(request.stack, workspace)
      : request.stackExists === false
        ? await auto.Stack.create(request.stack, workspace)
        : await auto.Stack.createOrSelect(request.stack, workspace);
  const entries = Object.entries(request.config ?? {});
  const plain = entries.filter(([, v]) => v.secret !== true);
  if (plain.length > 0) {
    await stack.setAllConfig(Object.fromEntries(plain.map(([k, v]) => [k, { value: v.value }])));
  }
  // Not the automation API's setConfig/setAllConfig for secrets: they put the value on the
  // CLI's command line, where every local user can read it (ps). stdin instead.
  for (const [key, v] of entries.filter(([, v]) => v.secret === true)) {
    await setSecretConfig(pulumiCommand.command, request.stack, key, v.value);
  }

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
  return result;
}

/** @param {DriverResult} result */
function report(result) {
  const resultFile = process.argv[3];
  if (resultFile !== undefined) fs.writeFileSync(resultFile, JSON.stringify(result));
  else process.stdout.write(`\n${RESULT_MARK}${JSON.stringify(result)}\n`);
}

main().then(
  (result) => report({ ok: true, ...result }),
  (error) => {
    // The automation API's CommandError message holds the CLI's stdout and stderr.
    report({ ok: false, error: error instanceof Error ? error.message : String(error) });
    process.exitCode = 1;
  },
);

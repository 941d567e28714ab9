/**
 * The real Pulumi engine for tests: the `pulumi` CLI that toolchain/engine.cjs builds (or finds in
 * its cache), with the Node.js language host installed beside it, running a Node.js program in a
 * consumer project that installed the packed package (tools/harness/consumer.ts's
 * prepareConsumer), with a local file backend, the `awskms://` secrets provider against local-kms
 * (tools/harness/kms.ts; a passphrase where a stack asks for one) and a private PULUMI_HOME,
 * against a real emulator on 127.0.0.1.
 *
 * Every operation is the `pulumi` command a user types in the project folder (`pulumi up --yes`,
 * `pulumi config set --secret` with the value on stdin, ...); {@link RealStack.run} returns what
 * the CLI printed, and the change summary from the engine's own event log (`--event-log`).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { prepareConsumer, type Consumer } from "./consumer";
import { engineEventsOf } from "./engine-events";
import { secretsProviderUrl } from "./kms";
import { PROJECT } from "./project";
import type { Op, RunOptions, RunResult, Spawned } from "./stack-types";
import { runTempDir } from "./temp";
import * as engineScript from "../../toolchain/engine.cjs";
import * as hostsScript from "../../toolchain/language-hosts.cjs";

export interface EngineInfo {
  root: string;
  version: string;
  bin: string;
}

export const PASSPHRASE = "real-engine-test-passphrase";

/** The engine (cached after the first build; `npm test` builds it before Jest starts). */
export function engine(): Promise<EngineInfo> {
  return engineScript.ensureEngine({ log: (line) => process.stderr.write(`${line}\n`) });
}

/**
 * The language hosts beside the engine's CLI (Node.js, Python, YAML: toolchain/language-hosts.cjs;
 * `npm test` installs them first, as `npm run engine` does), where the CLI finds them itself.
 */
export async function languageHosts(): Promise<void> {
  await hostsScript.ensureLanguageHosts({ log: (line) => process.stderr.write(`${line}\n`) });
}

/**
 * The Pulumi.yaml of a harness program. A JavaScript program turns off the Node.js runtime's
 * TypeScript support (`runtime.options.typescript`), as a JavaScript user can: otherwise the SDK
 * loads TypeScript and ts-node in every operation for nothing. The examples keep their own.
 */
function manifestOf(entry: string): string {
  const js = /\.c?js$/.test(entry);
  return js
    ? `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: ${entry}\n`
    : `name: ${PROJECT}\nruntime: nodejs\nmain: ${entry}\n`;
}

/** One Pulumi project in a consumer project, with a file backend, run through the real CLI. */
export class RealStack {
  readonly backendDir: string;
  readonly home: string;
  /** The Pulumi project folder: Pulumi.yaml and the program (the CLI's working directory). */
  readonly projectDir: string;
  /** Another state backend than the local folder (e.g. `s3://…`), and what it needs in the environment. */
  private backend: { url: string; env: NodeJS.ProcessEnv } | undefined;
  /** The stack's secrets provider: local-kms's key, or the passphrase (as a new user's stack). */
  private secrets: "kms" | "passphrase" = "kms";
  private created = false;
  /** The config last set, key by key, so that an unchanged value costs no command. */
  private readonly configSet = new Map<string, string>();

  private constructor(
    readonly consumer: Consumer,
    readonly engineInfo: EngineInfo,
    readonly stack: string,
    readonly program: string,
    readonly tmp: string,
  ) {
    this.backendDir = path.join(tmp, "backend");
    this.home = path.join(tmp, "pulumi-home");
    this.projectDir = path.dirname(program);
    fs.mkdirSync(this.backendDir, { recursive: true });
    fs.mkdirSync(this.home, { recursive: true });
  }

  /**
   * A Pulumi project in a consumer project (`existing`: one already prepared, e.g. the
   * benchmark's; {@link cleanup} removes it): tools/harness/program.cjs in a folder of its own
   * with a Pulumi.yaml whose `main` it is, or an example's folder copied into the consumer, whose
   * own Pulumi.yaml names `entry` (or its `main`).
   */
  static async create(
    stack = "dev",
    existing?: Consumer,
    /** Another program: an example's folder (copied into the consumer) and its entry file. */
    example?: { dir: string; entry: string },
  ): Promise<RealStack> {
    const engineInfo = await engine();
    const consumer = existing ?? (await prepareConsumer());
    let program: string;
    if (example === undefined) {
      const dir = runTempDir(`stack-${stack}-`, consumer.dir);
      program = path.join(dir, "program.cjs");
      fs.copyFileSync(path.join(__dirname, "program.cjs"), program);
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), manifestOf("program.cjs"));
    } else {
      const target = path.join(consumer.dir, path.basename(example.dir));
      fs.cpSync(example.dir, target, { recursive: true });
      program = path.join(target, example.entry);
      const manifest = path.join(target, "Pulumi.yaml");
      if (!fs.existsSync(manifest)) {
        fs.writeFileSync(manifest, manifestOf(example.entry));
      }
    }
    const tmp = fs.realpathSync(runTempDir("real-engine-"));
    return new RealStack(consumer, engineInfo, stack, program, tmp);
  }

  /** Keeps the stack's state on `url` (a shared backend) instead of the local folder. */
  useBackend(url: string, env: NodeJS.ProcessEnv = {}): this {
    this.backend = { url, env };
    return this;
  }

  /**
   * Keeps the stack's secrets with the passphrase secrets provider (a DIY backend's default),
   * where what is measured or shown is a new user's stack; before the first operation.
   */
  usePassphrase(): this {
    this.secrets = "passphrase";
    return this;
  }

  /** The environment of the CLI: the local backend, no network, this Node first on PATH. */
  env(): NodeJS.ProcessEnv {
    const { PULUMI_CONFIG_PASSPHRASE: _ignored, ...inherited } = process.env;
    return {
      ...inherited,
      ...this.backend?.env,
      PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
      // As npm start: no `.attrs` sidecar that a killed CLI leaves empty (docs/troubleshooting.md).
      PULUMI_BACKEND_URL: this.backend?.url ?? `file://${this.backendDir}?metadata=skip`,
      // Only a passphrase stack has one: a KMS stack that fell back to a passphrase fails loudly.
      ...(this.secrets === "passphrase" ? { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } : {}),
      PULUMI_HOME: this.home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      // Turns on `--event-log`, as Pulumi's automation API does: the change summary is read from
      // the engine's own events instead of from its display.
      PULUMI_DEBUG_COMMANDS: "true",
    };
  }

  /** Runs `pulumi <args>` in the project folder, with `input` on stdin; never rejects on exit codes. */
  private pulumi(
    args: readonly string[],
    options: RunOptions & { input?: string } = {},
    started = Date.now(),
  ): Promise<Spawned> {
    const bin = path.join(options.engineRoot ?? this.engineInfo.root, "bin", "pulumi");
    return new Promise((resolve, reject) => {
      const child = spawn(bin, args, {
        cwd: this.projectDir,
        env: { ...this.env(), ...options.env },
        stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
      if (child.pid !== undefined) options.onSpawn?.(child.pid);
      child.stdin?.end(options.input);
      let stdout = "";
      let stderr = "";
      let partial = "";
      let aborted = false;
      let abortedTwice = false;
      const lines: RunResult["lines"] = [];
      child.stdout!.setEncoding("utf8").on("data", (c: string) => {
        stdout += c;
        const parts = (partial + c).split("\n");
        partial = parts.pop()!;
        for (const text of parts) lines.push({ ms: Date.now() - started, text });
        if (!aborted && options.abortOnText !== undefined && stdout.includes(options.abortOnText)) {
          aborted = true;
          child.kill("SIGINT");
        }
        if (aborted && options.abortTwice === true && !abortedTwice) {
          if (stdout.includes("received; cancelling")) {
            abortedTwice = true;
            child.kill("SIGINT");
          }
        }
      });
      child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        if (partial !== "") lines.push({ ms: Date.now() - started, text: partial });
        resolve({ code, stdout, stderr, lines });
      });
    });
  }

  /** Like {@link pulumi}, but throws with what the CLI printed when it fails. */
  private async mustPulumi(
    args: readonly string[],
    options: RunOptions & { input?: string } = {},
  ): Promise<Spawned> {
    const result = await this.pulumi(args, options);
    if (result.code !== 0) {
      throw new Error(`pulumi ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
    }
    return result;
  }

  /**
   * The stack, created on first use (`pulumi stack init`, with `--secrets-provider` for
   * local-kms unless it uses the passphrase), and its config as `options` asks:
   * plain values with one `pulumi config set-all`, each secret with `pulumi config set --secret`
   * and the value on stdin, so that no secret is on a command line.
   */
  private async prepare(options: RunOptions): Promise<void> {
    if (!this.created) {
      const provider =
        this.secrets === "kms" ? ["--secrets-provider", await secretsProviderUrl()] : [];
      const init = await this.pulumi(
        ["stack", "init", this.stack, "--non-interactive", ...provider],
        options,
      );
      if (init.code !== 0 && !/already exists/.test(init.stderr + init.stdout)) {
        throw new Error(`pulumi stack init failed:\n${init.stdout}\n${init.stderr}`);
      }
      this.created = true;
    }
    const changed = Object.entries(options.config ?? {}).filter(
      ([key, v]) => this.configSet.get(key) !== `${v.secret === true}:${v.value}`,
    );
    const plain = changed.filter(([, v]) => v.secret !== true);
    if (plain.length > 0) {
      await this.mustPulumi(
        [
          "config",
          "set-all",
          "--stack",
          this.stack,
          ...plain.flatMap(([key, v]) => ["--plaintext", `${key}=${v.value}`]),
        ],
        options,
      );
    }
    for (const [key, v] of changed.filter(([, v]) => v.secret === true)) {
      await this.mustPulumi(["config", "set", "--secret", "--stack", this.stack, key], {
        ...options,
        input: v.value,
      });
    }
    for (const [key, v] of changed) this.configSet.set(key, `${v.secret === true}:${v.value}`);
  }

  /** Runs one operation; resolves (never rejects) with what the CLI printed and the result. */
  async run(op: Op, options: RunOptions = {}): Promise<RunResult> {
    const started = Date.now();
    try {
      await this.prepare(options);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, output: message, stderr: "", error: message, lines: [], ms: 0, cliMs: 0 };
    }
    const stackFlag = ["--stack", this.stack];
    if (op === "export" || op === "outputs") {
      const args =
        op === "export"
          ? ["stack", "export", ...stackFlag]
          : ["stack", "output", "--json", ...stackFlag];
      const cliStarted = Date.now();
      const done = await this.pulumi(args, options, started);
      const cliMs = Date.now() - cliStarted;
      const ok = done.code === 0;
      const parsed = ok ? (JSON.parse(done.stdout) as unknown) : undefined;
      return {
        ok,
        output: done.stdout,
        stderr: done.stderr,
        ...(ok ? {} : { error: done.stderr }),
        lines: done.lines,
        ...(ok && op === "export" ? { state: parsed as NonNullable<RunResult["state"]> } : {}),
        ...(ok && op === "outputs" ? { outputs: parsed as Record<string, unknown> } : {}),
        ms: Date.now() - started,
        cliMs,
      };
    }
    const events = path.join(this.tmp, `events-${started}-${Math.random()}.jsonl`);
    const o = options.options ?? {};
    const args = [
      op,
      ...stackFlag,
      "--non-interactive",
      "--event-log",
      events,
      ...(op === "preview" ? [] : ["--yes", "--skip-preview"]),
      ...(o.diff === true ? ["--diff"] : []),
      ...(o.expectNoChanges === true ? ["--expect-no-changes"] : []),
      ...(o.refresh === true ? ["--refresh"] : []),
      ...(o.replace ?? []).flatMap((urn) => ["--replace", urn]),
      ...(o.parallel === undefined ? [] : ["--parallel", String(o.parallel)]),
      ...(o.continueOnError === true ? ["--continue-on-error"] : []),
    ];
    const cliStarted = Date.now();
    const done = await this.pulumi(args, options, started);
    const cliMs = Date.now() - cliStarted;
    const { changeSummary, diagnostics, stackOutputs } = engineEventsOf(events);
    const ok = done.code === 0;
    let outputs: Record<string, unknown> | undefined;
    if (ok && op === "up") {
      outputs = stackOutputs;
      if (outputs === undefined) {
        const shown = await this.pulumi(["stack", "output", "--json", ...stackFlag], options);
        if (shown.code === 0) outputs = JSON.parse(shown.stdout) as Record<string, unknown>;
      }
    }
    return {
      ok,
      output: done.stdout,
      stderr: done.stderr,
      ...(ok ? {} : { error: `pulumi ${op} exited with code ${done.code}: ${done.stderr}` }),
      lines: done.lines,
      ...(changeSummary === undefined ? {} : { changeSummary }),
      diagnostics,
      ...(outputs === undefined ? {} : { outputs }),
      ms: Date.now() - started,
      cliMs,
    };
  }

  /** Like {@link run}, but throws with the CLI's output when the operation fails. */
  async mustRun(op: Op, options: RunOptions = {}): Promise<RunResult> {
    const result = await this.run(op, options);
    if (!result.ok) {
      throw new Error(
        `pulumi ${op} failed:\n${result.output}\n${result.error ?? ""}\n${result.stderr}`,
      );
    }
    return result;
  }

  /**
   * Any other `pulumi` command in the project folder (e.g. `cancel`, `refresh` with its
   * pending-create flags), on this stack; resolves (never rejects on exit codes).
   */
  async cli(args: readonly string[], options: RunOptions = {}): Promise<Spawned> {
    await this.prepare(options);
    return this.pulumi([...args, "--stack", this.stack], options);
  }

  /** Every file of the backend, as text (what `.pulumi/` holds on disk). */
  backendFiles(): Array<{ file: string; text: string }> {
    const files: Array<{ file: string; text: string }> = [];
    const visit = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(full);
        else files.push({ file: full, text: fs.readFileSync(full).toString("utf8") });
      }
    };
    visit(this.backendDir);
    return files;
  }

  async cleanup(): Promise<void> {
    await this.consumer.cleanup();
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

/**
 * The environment in which the engine finds the provider plugin of the package `s` installed
 * (its launcher `bin/pulumi-resource-arcgis-admin`) on PATH, as a YAML or Python user's does.
 */
export function pluginOnPath(s: RealStack): { PATH: string } {
  const bin = path.join(s.consumer.dir, "node_modules", "pulumi-arcgis-admin", "bin");
  return { PATH: [bin, process.env.PATH].join(path.delimiter) };
}

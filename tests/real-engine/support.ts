/**
 * The real Pulumi engine for tests: the `pulumi` CLI that scripts/engine.cjs builds (or finds in
 * its cache), driving a Node.js program in a consumer project that installed the packed package
 * (tests/engine/harness.ts's prepareConsumer), with a local file backend, a passphrase secrets
 * provider and a private PULUMI_HOME, against a real emulator on 127.0.0.1.
 *
 * Every operation runs scripts/pulumi-driver.cjs in a child process (the program's process, as
 * with `pulumi up`), which runs the CLI through the automation API; {@link RealStack.run} returns
 * what the CLI printed, i.e. what a user sees.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareConsumer, REPO_ROOT, run as runCommand, type Consumer } from "../engine/harness";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import {
  createAdminSession,
  createNewSite,
  editLogSettings,
  exportSite,
  getLogSettings,
  type ServerType,
} from "../../provider/client";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const engineScript = require("../../scripts/engine.cjs") as {
  ensureEngine(options?: { log?: (line: string) => void }): Promise<EngineInfo>;
  ensureLanguageYaml(options?: { log?: (line: string) => void }): Promise<EngineInfo>;
};

export interface EngineInfo {
  root: string;
  version: string;
  bin: string;
}

export const DRIVER = path.join(REPO_ROOT, "scripts", "pulumi-driver.cjs");
export const RESULT_MARK = "__PULUMI_DRIVER_RESULT__ ";
export const PASSPHRASE = "real-engine-test-passphrase";

/** The engine (cached after the first build; `npm test` builds it before Jest starts). */
export function engine(): Promise<EngineInfo> {
  return engineScript.ensureEngine({ log: (line) => process.stderr.write(`${line}\n`) });
}

/** Pulumi YAML's language host (cached after the first build; `npm test` builds it first). */
export function languageYaml(): Promise<EngineInfo> {
  return engineScript.ensureLanguageYaml({ log: (line) => process.stderr.write(`${line}\n`) });
}

export type Op = "preview" | "up" | "refresh" | "destroy" | "export" | "outputs";

export interface ConfigValue {
  value: string;
  secret?: boolean;
}

export interface RunOptions {
  config?: Record<string, ConfigValue>;
  /** The automation API's operation options; `replace`: URNs to replace (`--replace`). */
  options?: { diff?: boolean; expectNoChanges?: boolean; refresh?: boolean; replace?: string[] };
  /** Send the CLI SIGINT once it has printed this text. */
  abortOnText?: string;
  timeoutMs?: number;
  /** Another engine root than the built engine's (e.g. a `pulumi` that records its commands). */
  engineRoot?: string;
  /** Called with the driver's process id once it has started (e.g. to signal it). */
  onSpawn?: (pid: number) => void;
  /** More environment for the driver and the CLI it starts (e.g. `NODE_COMPILE_CACHE`). */
  env?: NodeJS.ProcessEnv;
}

export interface RunResult {
  ok: boolean;
  /** Everything the CLI printed (the engine's own output), plus the driver's result line. */
  output: string;
  /** The driver's stderr (the program process's own logging). */
  stderr: string;
  error?: string;
  /** The CLI's output lines, each with the time it arrived (ms since the run started). */
  lines: Array<{ ms: number; text: string }>;
  changeSummary?: Record<string, number>;
  outputs?: Record<string, unknown>;
  state?: { deployment: { resources?: Array<Record<string, unknown>> } & Record<string, unknown> };
  ms: number;
}

/** One consumer project with a file backend, on which operations run through the real CLI. */
export class RealStack {
  readonly backendDir: string;
  readonly home: string;
  private runs = 0;
  /** Another state backend than the local folder (e.g. `s3://…`), and what it needs in the environment. */
  private backend: { url: string; env: NodeJS.ProcessEnv } | undefined;

  private constructor(
    readonly consumer: Consumer,
    readonly engineInfo: EngineInfo,
    readonly stack: string,
    readonly program: string,
    readonly tmp: string,
  ) {
    this.backendDir = path.join(tmp, "backend");
    this.home = path.join(tmp, "pulumi-home");
    fs.mkdirSync(this.backendDir, { recursive: true });
    fs.mkdirSync(this.home, { recursive: true });
  }

  /**
   * A consumer project with tests/real-engine/program.cjs as its program, or an example's
   * (`consumer`: an existing one, e.g. the benchmark's; {@link cleanup} removes it).
   */
  static async create(
    stack = "dev",
    existing?: Consumer,
    /** Another program: an example's folder (copied into the consumer) and its entry file. */
    example?: { dir: string; entry: string },
  ): Promise<RealStack> {
    const engineInfo = await engine();
    const consumer = existing ?? (await prepareConsumer());
    let program = path.join(consumer.dir, "program.cjs");
    if (example === undefined) fs.copyFileSync(path.join(__dirname, "program.cjs"), program);
    else {
      const target = path.join(consumer.dir, path.basename(example.dir));
      fs.cpSync(example.dir, target, { recursive: true });
      program = path.join(target, example.entry);
    }
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "real-engine-")));
    return new RealStack(consumer, engineInfo, stack, program, tmp);
  }

  /** Keeps the stack's state on `url` (a shared backend) instead of the local folder. */
  useBackend(url: string, env: NodeJS.ProcessEnv = {}): this {
    this.backend = { url, env };
    return this;
  }

  /** The environment of the CLI: the local backend, no network, this Node first on PATH. */
  env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      ...this.backend?.env,
      PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
      PULUMI_BACKEND_URL: this.backend?.url ?? `file://${this.backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_HOME: this.home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
    };
  }

  /**
   * What the driver need not ask the CLI (scripts/pulumi-driver.cjs): the engine's version (no
   * `pulumi version`), and on the local backend the stack's checkpoint file (no `stack select`,
   * `stack init` alone for a new stack, the outputs and change summary without `stack output` and
   * `stack history`) and a record of the config last set (no config command when it is the
   * same), as `npm start` runs it. On another backend, the automation API's own calls.
   */
  private lean(): { cliVersion: string; stackFile?: string; configRecord?: string } {
    if (this.backend !== undefined) return { cliVersion: this.engineInfo.version };
    const stacks = path.join(this.backendDir, ".pulumi", "stacks");
    const project = /^name:\s*(\S+)\s*$/m.exec(
      fs.readFileSync(path.join(this.consumer.dir, "Pulumi.yaml"), "utf8"),
    )?.[1];
    if (project === undefined) return { cliVersion: this.engineInfo.version };
    return {
      cliVersion: this.engineInfo.version,
      stackFile: path.join(stacks, project, `${this.stack}.json`),
      configRecord: path.join(this.tmp, "config-records", this.stack),
    };
  }

  /** Runs one operation; resolves (never rejects) with what the CLI printed and the result. */
  run(op: Op, options: RunOptions = {}): Promise<RunResult> {
    const request = path.join(this.tmp, `request-${++this.runs}.json`);
    fs.writeFileSync(
      request,
      JSON.stringify({
        op,
        stack: this.stack,
        engineRoot: options.engineRoot ?? this.engineInfo.root,
        program: this.program,
        config: options.config ?? {},
        options: options.options ?? {},
        abortOnText: options.abortOnText,
        ...this.lean(),
      }),
    );
    const started = Date.now();
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [DRIVER, request], {
        cwd: this.consumer.dir,
        env: { ...this.env(), ...options.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      if (child.pid !== undefined) options.onSpawn?.(child.pid);
      let stdout = "";
      let stderr = "";
      const lines: RunResult["lines"] = [];
      let partial = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => {
        stdout += c;
        const parts = (partial + c).split("\n");
        partial = parts.pop()!;
        for (const text of parts) lines.push({ ms: Date.now() - started, text });
      });
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
      child.on("error", reject);
      child.on("close", () => {
        clearTimeout(timer);
        fs.rmSync(request, { force: true });
        const at = stdout.lastIndexOf(RESULT_MARK);
        if (at < 0) {
          reject(new Error(`pulumi ${op}: the driver gave no result.\n${stdout}\n${stderr}`));
          return;
        }
        const result = JSON.parse(stdout.slice(at + RESULT_MARK.length).trim()) as Omit<
          RunResult,
          "output" | "stderr" | "ms" | "lines"
        >;
        resolve({
          ...result,
          output: stdout.slice(0, at),
          stderr,
          lines: lines.filter((l) => !l.text.startsWith(RESULT_MARK)),
          ms: Date.now() - started,
        });
      });
    });
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

/** The resources of an exported state, by type token suffix and name. */
export function stateResources(
  state: RunResult["state"],
): Array<{ urn: string; type: string; id?: string; outputs?: Record<string, unknown> }> {
  return (state?.deployment.resources ?? []) as Array<{
    urn: string;
    type: string;
    id?: string;
    outputs?: Record<string, unknown>;
  }>;
}

/**
 * Stacks of the root program in its site-only form, each against its own emulator whose site
 * creation takes `createDelayMs`; `close()` (in afterAll) removes every stack and stops every
 * emulator started.
 *
 * @example
 * ```ts
 * const sites = siteStacks();
 * afterAll(() => sites.close());
 * const { emu, stack, config } = await sites.create("slow", 65_000);
 * ```
 */
export function siteStacks() {
  const stacks: RealStack[] = [];
  const emulators: TestEmulator[] = [];
  return {
    async create(name: string, createDelayMs: number) {
      const emu = await startTestEmulator({ createDelayMs });
      emulators.push(emu);
      const stack = await RealStack.create(name);
      stacks.push(stack);
      const config: Record<string, ConfigValue> = {
        adminUrl: { value: emu.adminUrl },
        caCert: { value: emu.caCert! },
        siteUsername: { value: "siteadmin" },
        sitePassword: { value: "site-Slow-Create-1", secret: true },
        siteOnly: { value: "true" },
      };
      return { emu, stack, config };
    },
    async close() {
      for (const stack of stacks) await stack.cleanup();
      for (const emu of emulators) await emu.close();
    },
  };
}

/** An archive made on another machine of the product, whose log level is INFO. */
export async function archiveOf(serverType: ServerType, folder: string): Promise<string> {
  const source = await startTestEmulator({
    serverType,
    createDelayMs: 0,
    exportDelayMs: 20,
    exportRoots: [folder],
  });
  try {
    const tls = { tls: { caCert: source.caCert! } };
    await createNewSite(
      source.adminUrl,
      { serverType, username: "sourceadmin", password: "source-Pass-1", runAsync: false },
      tls,
    );
    const session = createAdminSession({
      adminUrl: source.adminUrl,
      username: "sourceadmin",
      password: "source-Pass-1",
      ...tls,
    });
    await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "INFO" });
    return (await exportSite(session, { location: folder })).location;
  } finally {
    await source.close();
  }
}

/** What one CLI command printed and how it ended. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A Pulumi project in a language the automation API cannot run inline (Pulumi YAML), driven
 * through the `pulumi` CLI itself: an example's folder copied into a consumer project that
 * installed the packed package, a local file backend, a passphrase secrets provider and a private
 * PULUMI_HOME, with the engine and Pulumi YAML's language host on PATH. The provider plugin is
 * installed the documented way: `pulumi plugin install resource arcgis-admin <version> --file`
 * on the folder that the packed package's `arcgis-admin-plugin-dir` writes.
 *
 * @example
 * ```ts
 * const project = await CliProject.create(path.join(REPO_ROOT, "examples", "quickstart-yaml"));
 * await project.installPlugin();
 * await project.mustCli(["stack", "init", "dev"]);
 * await project.mustCli(["up", "--yes", "--skip-preview"]);
 * ```
 */
export class CliProject {
  readonly backendDir: string;
  readonly home: string;

  private constructor(
    readonly consumer: Consumer,
    readonly engineInfo: EngineInfo,
    readonly languageHost: EngineInfo,
    /** The project folder (the copy of the example). */
    readonly dir: string,
    readonly tmp: string,
  ) {
    this.backendDir = path.join(tmp, "backend");
    this.home = path.join(tmp, "pulumi-home");
    fs.mkdirSync(this.backendDir, { recursive: true });
    fs.mkdirSync(this.home, { recursive: true });
  }

  static async create(example: string): Promise<CliProject> {
    const [engineInfo, languageHost, consumer] = await Promise.all([
      engine(),
      languageYaml(),
      prepareConsumer(),
    ]);
    const dir = path.join(consumer.dir, path.basename(example));
    fs.cpSync(example, dir, { recursive: true });
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "real-engine-cli-")));
    return new CliProject(consumer, engineInfo, languageHost, dir, tmp);
  }

  /** The installed package's folder in the consumer project. */
  get packageDir(): string {
    return path.join(this.consumer.dir, "node_modules", "pulumi-arcgis-admin");
  }

  /** The CLI's environment: the engine, the YAML language host and this Node first on PATH. */
  env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      PATH: [
        path.dirname(this.engineInfo.bin),
        path.dirname(this.languageHost.bin),
        path.dirname(process.execPath),
        process.env.PATH ?? "",
      ].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${this.backendDir}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_HOME: this.home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
    };
  }

  /** Runs `pulumi <args>` in the project folder; resolves (never rejects on exit codes). */
  cli(args: readonly string[], timeoutMs = 120_000): Promise<CliResult> {
    return runCommand(this.engineInfo.bin, args, { cwd: this.dir, env: this.env(), timeoutMs });
  }

  /** Like {@link cli}, but throws with what the CLI printed when it fails. */
  async mustCli(args: readonly string[], timeoutMs?: number): Promise<CliResult> {
    const result = await this.cli(args, timeoutMs);
    if (result.code !== 0) {
      throw new Error(`pulumi ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
    }
    return result;
  }

  /**
   * Installs the provider plugin of the packed package for the CLI (PULUMI_HOME), as docs/plugin.md
   * says: `arcgis-admin-plugin-dir` writes the folder, `pulumi plugin install` copies it.
   * Returns the package's version, the plugin's.
   */
  async installPlugin(): Promise<string> {
    const { version } = JSON.parse(
      fs.readFileSync(path.join(this.packageDir, "package.json"), "utf8"),
    ) as { version: string };
    const written = await runCommand(
      process.execPath,
      [
        path.join(this.packageDir, "dist", "provider", "plugin", "plugin-dir.js"),
        path.join(this.tmp, "plugin"),
      ],
      { cwd: this.dir, env: this.env(), timeoutMs: 30_000 },
    );
    if (written.code !== 0) throw new Error(`arcgis-admin-plugin-dir failed: ${written.stderr}`);
    await this.mustCli([
      "plugin",
      "install",
      "resource",
      "arcgis-admin",
      version,
      "--file",
      written.stdout.trim(),
    ]);
    return version;
  }

  /** `pulumi stack export` of the current stack, parsed. */
  async exportState(): Promise<NonNullable<RunResult["state"]>> {
    const result = await this.mustCli(["stack", "export"]);
    return JSON.parse(result.stdout) as NonNullable<RunResult["state"]>;
  }

  /** Every file of the backend and of PULUMI_HOME, as text. */
  storedTexts(): string[] {
    return [this.backendDir, this.home].flatMap((root) =>
      fs
        .readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => fs.readFileSync(path.join(e.parentPath, e.name)).toString("utf8")),
    );
  }

  async cleanup(): Promise<void> {
    await this.consumer.cleanup();
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** The `pulumi` CLI run in a project folder as a user types it (examples, READMEs, docs). */
import * as fs from "node:fs";
import * as path from "node:path";
import { prepareConsumer, type Consumer, type ConsumerOptions } from "./consumer";
import { engineEventsOf, secretsMasked, type Diagnostic } from "./engine-events";
import { run as runCommand } from "./process";
import { engine, languageHosts, PASSPHRASE, type EngineInfo } from "./real-stack";
import type { RunResult } from "./stack-types";
import { runTempDir } from "./temp";

/** What one CLI command printed and how it ended. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A Pulumi project run with the `pulumi` CLI as its README says (any runtime: the engine finds
 * its language hosts beside it): an example's folder copied into a consumer project that
 * installed the packed package (or a folder of its own), a local file backend, a passphrase
 * secrets provider and a private PULUMI_HOME, with the engine on PATH. A provider plugin is
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
  /** More folders to put first on the CLI's PATH (e.g. a plugin's, as an example's README says). */
  readonly extraPath: string[] = [];
  /**
   * Changes to the CLI's environment, `undefined` removing a variable: e.g. no backend and no
   * passphrase for commands that say themselves where the state goes.
   */
  readonly envChanges: Record<string, string | undefined> = {};

  private constructor(
    /** The consumer project the example was copied into; none for a folder of the repository. */
    readonly consumer: Consumer | undefined,
    readonly engineInfo: EngineInfo,
    /** The project folder (the copy of the example, or the repository's own folder). */
    readonly dir: string,
    readonly tmp: string,
  ) {
    this.backendDir = path.join(tmp, "backend");
    this.home = path.join(tmp, "pulumi-home");
    fs.mkdirSync(this.backendDir, { recursive: true });
    fs.mkdirSync(this.home, { recursive: true });
  }

  /**
   * An example's folder copied into a consumer project, or (none given) a new empty folder there;
   * `consumerOptions` installs more into the consumer project (e.g. a generated SDK's tarball).
   */
  static async create(example?: string, consumerOptions?: ConsumerOptions): Promise<CliProject> {
    const [engineInfo, , consumer] = await Promise.all([
      engine(),
      languageHosts(),
      prepareConsumer(consumerOptions),
    ]);
    const dir = path.join(
      consumer.dir,
      example === undefined ? "my-sites" : path.basename(example),
    );
    if (example === undefined) fs.mkdirSync(dir);
    else fs.cpSync(example, dir, { recursive: true });
    const tmp = fs.realpathSync(runTempDir("real-engine-cli-"));
    return new CliProject(consumer, engineInfo, dir, tmp);
  }

  /**
   * A Pulumi YAML program through the plugin: a new project folder with the plugin installed
   * ({@link installPlugin}), a `Pulumi.yaml` of `name` whose `resources:` section is
   * `resourceLines` (indented as in the file), and its stack `dev` created.
   *
   * @example
   * ```ts
   * const project = await CliProject.yaml("my-sites", ["  site:", "    type: arcgis-admin:index:Site"]);
   * ```
   */
  static async yaml(name: string, resourceLines: readonly string[]): Promise<CliProject> {
    const project = await CliProject.create();
    await project.installPlugin();
    fs.writeFileSync(
      path.join(project.dir, "Pulumi.yaml"),
      [`name: ${name}`, "runtime: yaml", "resources:", ...resourceLines, ""].join("\n"),
    );
    await project.mustCli(["stack", "init", "dev"]);
    return project;
  }

  /**
   * A folder of this repository as it is (an example on a fresh clone: the package resolves by
   * name through the link `npm run build` makes). The stack's config file written there is
   * removed by {@link cleanup}.
   */
  static async inRepo(dir: string): Promise<CliProject> {
    const [engineInfo] = await Promise.all([engine(), languageHosts()]);
    const tmp = fs.realpathSync(runTempDir("real-engine-cli-"));
    return new CliProject(undefined, engineInfo, dir, tmp);
  }

  /**
   * A new empty folder of its own, in no project and with no package installed, for commands
   * that make the project themselves (docs/your-own-program.md).
   */
  static async bare(): Promise<CliProject> {
    const [engineInfo] = await Promise.all([engine(), languageHosts()]);
    const tmp = fs.realpathSync(runTempDir("real-engine-cli-"));
    const dir = path.join(tmp, "work");
    fs.mkdirSync(dir);
    return new CliProject(undefined, engineInfo, dir, tmp);
  }

  /** The installed package's folder in the consumer project. */
  get packageDir(): string {
    if (this.consumer === undefined) throw new Error("A folder of the repository has no consumer");
    return path.join(this.consumer.dir, "node_modules", "pulumi-arcgis-admin");
  }

  /** The CLI's environment: the engine (its language hosts beside it) and this Node first on PATH. */
  env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: [
        ...this.extraPath,
        path.dirname(this.engineInfo.bin),
        path.dirname(process.execPath),
        process.env.PATH ?? "",
      ].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${this.backendDir}?metadata=skip`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_HOME: this.home,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      // Turns on `--event-log`, as Pulumi's automation API does: the change summary is read from
      // the engine's own events instead of from its display.
      PULUMI_DEBUG_COMMANDS: "true",
    };
    for (const [name, value] of Object.entries(this.envChanges)) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    return env;
  }

  /**
   * Runs shell commands as a user types them, in the project folder with the CLI's environment:
   * `bash -e -o pipefail`, so the first command that fails ends the run; `input` on stdin.
   */
  shell(script: string, input?: string, timeoutMs = 600_000): Promise<CliResult> {
    return runCommand("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd: this.dir,
      env: this.env(),
      timeoutMs,
      ...(input === undefined ? {} : { input }),
    });
  }

  /**
   * Runs `pulumi <args>` in the project folder, with `input` on stdin (a secret for
   * `config set --secret`); resolves (never rejects on exit codes). `onSpawn` is told the CLI's
   * process id (e.g. to send it SIGINT, a terminal's Ctrl-C).
   */
  cli(
    args: readonly string[],
    timeoutMs = 120_000,
    input?: string,
    onSpawn?: (pid: number) => void,
  ): Promise<CliResult> {
    return runCommand(this.engineInfo.bin, args, {
      cwd: this.dir,
      env: this.env(),
      timeoutMs,
      ...(input === undefined ? {} : { input }),
      ...(onSpawn === undefined ? {} : { onSpawn }),
    });
  }

  /**
   * `pulumi config set --secret <key>` for each entry, the value on stdin: never on a command line,
   * where other users of the machine could read it. `flags`: e.g. `--cwd <dir>`.
   */
  async setSecrets(values: Record<string, string>, flags: readonly string[] = []): Promise<void> {
    for (const [key, value] of Object.entries(values)) {
      await this.mustCli(["config", "set", "--secret", key, ...flags], undefined, value);
    }
  }

  /** Like {@link cli}, but throws with what the CLI printed when it fails. */
  async mustCli(args: readonly string[], timeoutMs?: number, input?: string): Promise<CliResult> {
    const result = await this.cli(args, timeoutMs, input);
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

  /**
   * `pulumi <op> --yes` (preview: without `--yes`) in the project folder, as a user runs it, with
   * the change summary, the messages and (after `up`) the stack's outputs from the engine's event
   * log; throws with the CLI's output when it fails. `skipPreview` adds `--skip-preview`: for a
   * run whose preview the test does not check, which saves running the program and the providers
   * a second time.
   */
  async deploy(
    op: "preview" | "up" | "refresh" | "destroy",
    flags: readonly string[] = [],
    { skipPreview = false }: { skipPreview?: boolean } = {},
  ): Promise<
    CliResult & {
      changeSummary?: Record<string, number>;
      diagnostics: Diagnostic[];
      /** The stack's outputs after an `up`, as `pulumi stack output --json` shows them. */
      outputs?: Record<string, unknown>;
    }
  > {
    if (skipPreview && op === "preview") throw new Error("A preview cannot skip its preview");
    const events = path.join(this.tmp, `events-${Date.now()}-${Math.random()}.jsonl`);
    const args = [
      op,
      ...(op === "preview" ? [] : ["--yes"]),
      ...(skipPreview ? ["--skip-preview"] : []),
      "--event-log",
      events,
      ...flags,
    ];
    const result = await this.mustCli(args, 240_000);
    const { changeSummary, diagnostics, stackOutputs } = engineEventsOf(events);
    return {
      ...result,
      ...(changeSummary === undefined ? {} : { changeSummary }),
      diagnostics,
      ...(op === "up" && stackOutputs !== undefined
        ? { outputs: secretsMasked(stackOutputs) as Record<string, unknown> }
        : {}),
    };
  }

  /** `pulumi stack output --json` of the current stack (secrets shown as `[secret]`). */
  async outputs(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.mustCli(["stack", "output", "--json"])).stdout) as Record<
      string,
      unknown
    >;
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
    if (this.consumer !== undefined) await this.consumer.cleanup();
    else {
      for (const name of fs.readdirSync(this.dir)) {
        if (/^Pulumi\..+\.yaml$/.test(name)) fs.rmSync(path.join(this.dir, name));
      }
    }
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

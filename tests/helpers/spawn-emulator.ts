/**
 * The emulator's CLI as a real child process, for faults a process in the test's own memory cannot
 * suffer (SIGKILL) and for checking what address it binds. The emulator sources are transpiled
 * once per suite into a temporary folder, for tests/emulator/cli.test.ts and the fault and security suites (a full
 * `tsc -p tsconfig.build.json` would also compile the provider, and `dist/` may be stale or
 * rebuilt by a colleague at the same moment).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";

const REPO = path.resolve(__dirname, "../..");

/** Transpiles every emulator source (all folders) into `<outDir>/emulator` and returns the path of cli.js. */
export async function buildEmulatorCli(outDir: string): Promise<string> {
  const srcDir = path.join(REPO, "emulator");
  for (const name of await fs.readdir(srcDir, { recursive: true })) {
    if (!name.endsWith(".ts")) continue;
    const source = await fs.readFile(path.join(srcDir, name), "utf8");
    const { outputText } = ts.transpileModule(source, {
      fileName: path.basename(name),
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2023,
        esModuleInterop: true,
      },
    });
    const out = path.join(outDir, "emulator", name.replace(/\.ts$/, ".js"));
    await fs.mkdir(path.dirname(out), { recursive: true });
    await fs.writeFile(out, outputText);
  }
  return path.join(outDir, "emulator", "cli.js");
}

/** The ready line the CLI prints. */
export interface ReadyLine {
  adminUrl: string;
  sharingUrl: string;
  healthUrl: string;
  caCertFile: string | null;
  portalId: string;
  serverType: string;
  serverVersion: string;
}

/** The keys of the ready line, in the order the CLI prints them. */
export const READY_LINE_KEYS: readonly (keyof ReadyLine)[] = [
  "adminUrl",
  "sharingUrl",
  "healthUrl",
  "caCertFile",
  "portalId",
  "serverType",
  "serverVersion",
];

/** A running emulator child process. */
export class SpawnedEmulator {
  stdout = "";
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  ready!: ReadyLine;

  private constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (this.stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      // "close" rather than "exit", so stdout and stderr are complete when this resolves.
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
  }

  /**
   * Starts `node [...nodeArgs] <cli> ...args` and resolves once the ready line is printed.
   * `nodeOptions` is the emulator's NODE_OPTIONS (default: this process's).
   */
  static async start(
    cli: string,
    args: readonly string[],
    { nodeArgs = [], nodeOptions }: { nodeArgs?: readonly string[]; nodeOptions?: string } = {},
  ): Promise<SpawnedEmulator> {
    const child = spawn(process.execPath, [...nodeArgs, cli, ...args], {
      env: {
        ...process.env,
        NODE_PATH: path.join(REPO, "node_modules"),
        ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const spawned = new SpawnedEmulator(child);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        new Promise<void>((resolve) => {
          const check = (): void => {
            if (spawned.stdout.includes("\n")) {
              child.stdout.off("data", check);
              resolve();
            }
          };
          child.stdout.on("data", check);
        }),
        spawned.exited.then(({ code, signal }) => {
          throw new Error(
            `emulator exited (${code ?? signal}) before it was ready: ${spawned.stderr}`,
          );
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`emulator not ready after 30 s: ${spawned.stderr}`)),
            30_000,
          );
        }),
      ]);
    } catch (error) {
      child.kill("SIGKILL");
      throw error;
    } finally {
      clearTimeout(timer);
    }
    spawned.ready = JSON.parse(spawned.stdout.split("\n")[0]!) as ReadyLine;
    return spawned;
  }

  /** The origin (`scheme://host:port`) the emulator answers on. */
  get origin(): string {
    return new URL(this.ready.adminUrl).origin;
  }

  /** Sends `signal` and waits for the process to exit. */
  async stop(
    signal: NodeJS.Signals = "SIGTERM",
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** A new temporary directory. */
export function tempDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/**
 * The emulator's CLI as a real child process, for faults a process in the test's own memory cannot
 * suffer (SIGKILL) and for checking what address it binds, for tests/emulator/cli.test.ts and the
 * fault and security suites. The emulator sources are transpiled into a folder of their own (a
 * full `tsc -p tsconfig.build.json` would also compile the provider, and `dist/` may be stale or
 * rebuilt by a colleague at the same moment).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./project";
import { runTempDir } from "./temp";

/** Where transpiled copies are kept, one folder per content of the emulator's sources. */
const BUILD_CACHE = path.join(
  REPO_ROOT,
  "node_modules",
  ".cache",
  "pulumi-arcgis-admin",
  "emulator-cli",
);

/**
 * Transpiles every emulator source (all folders) and returns the path of cli.js. One copy is kept
 * per content of the sources, shared by the suites and the runs that use it, so that the
 * processes started from it also share Node.js's compile cache.
 */
export async function buildEmulatorCli(): Promise<string> {
  const srcDir = path.join(REPO_ROOT, "emulator");
  const names = (await fs.readdir(srcDir, { recursive: true }))
    .filter((name) => name.endsWith(".ts"))
    .sort();
  const sources = await Promise.all(names.map((name) => fs.readFile(path.join(srcDir, name))));
  const hash = createHash("sha256");
  names.forEach((name, i) => hash.update(`${name}\0${sources[i]!.length}\0`).update(sources[i]!));
  const dir = path.join(BUILD_CACHE, hash.digest("hex").slice(0, 16));
  const cli = path.join(dir, "emulator", "cli.js");
  if (existsSync(cli)) return cli;
  // Another suite may be building the same copy: each writes its own folder and renames it.
  await fs.mkdir(BUILD_CACHE, { recursive: true });
  const staging = runTempDir(".staging-", BUILD_CACHE);
  // Loaded only to build: evaluating the compiler is a large part of a suite's start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand
  const ts = require("typescript") as typeof import("typescript");
  for (const [i, name] of names.entries()) {
    const { outputText } = ts.transpileModule(sources[i]!.toString("utf8"), {
      fileName: path.basename(name),
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2023,
        esModuleInterop: true,
      },
    });
    const out = path.join(staging, "emulator", name.replace(/\.ts$/, ".js"));
    await fs.mkdir(path.dirname(out), { recursive: true });
    await fs.writeFile(out, outputText);
  }
  try {
    await fs.rename(staging, dir);
  } catch (error) {
    // Someone else's copy of the same sources landed first.
    if (!existsSync(cli)) throw error;
    await fs.rm(staging, { recursive: true, force: true });
  }
  await pruneOtherCopies(dir);
  return cli;
}

/**
 * Removes the copies of earlier sources, and staging folders a killed build left, once they are an
 * hour old: only a run that started before the sources changed could still be using one.
 */
async function pruneOtherCopies(keep: string): Promise<void> {
  const before = Date.now() - 60 * 60_000;
  for (const name of await fs.readdir(BUILD_CACHE)) {
    const entry = path.join(BUILD_CACHE, name);
    if (entry === keep) continue;
    const stat = await fs.stat(entry).catch(() => undefined);
    if (stat !== undefined && stat.mtimeMs < before) {
      await fs.rm(entry, { recursive: true, force: true });
    }
  }
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
        NODE_PATH: path.join(REPO_ROOT, "node_modules"),
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

/**
 * Consumer projects: a temporary project with the packed package installed as a user's
 * `npm install` would, where programs run under Pulumi's mocks and where the dynamic-provider
 * host starts.
 */
import * as fsp from "node:fs/promises";
import * as path from "node:path";
import { startHost } from "./host";
import type { Host, HostOptions } from "./host-types";
import { packDirectory, packRepo, type PackSource } from "./pack";
import { run } from "./process";
import { PACKAGE_NAME, PROJECT, REPO_ROOT, STACK } from "./project";
import { isSecret, type PropertyMap } from "./property-values";
import { runTempDir } from "./temp";

/** Options of {@link prepareConsumer}. */
export interface ConsumerOptions {
  /** Install pulumi-arcgis-admin itself (default true). */
  includeSelf?: boolean;
  /** Which state of this repository to pack (see {@link packRepo}). */
  source?: PackSource;
  /** Further package folders (test fixtures) to `npm pack` and install. */
  extraPackages?: readonly string[];
  /** Further packed packages (npm tarballs, e.g. a generated SDK's) to install. */
  tarballs?: readonly string[];
}

/** One `newResource` call seen by the mocks of {@link Consumer.runProgram}. */
export interface Registration {
  type: string;
  name: string;
  /** As setMocks delivers them: secrets are sentinel objects, `__provider` is the serialized closure. */
  inputs: PropertyMap;
  custom: boolean;
  /** Resource options the mock monitor does not pass to newResource, read from the request. */
  options: {
    additionalSecretOutputs: string[];
    deleteBeforeReplace: boolean | undefined;
    ignoreChanges: string[];
    replaceOnChanges: string[];
    protect: boolean | undefined;
    retainOnDelete: boolean | undefined;
    parent: string;
    dependencies: string[];
  } | null;
}

/** Options of {@link Consumer.runProgram}. */
export interface RunProgramOptions {
  /** Stack config (`"ns:key": value`), given to the program as PULUMI_CONFIG. */
  config?: Record<string, string>;
  /** Extra environment variables for the program. */
  env?: Record<string, string>;
  /** Run as a preview (`pulumi.runtime.isDryRun()`), default false. */
  preview?: boolean;
  /** Kill the program after this long (default 60 s). */
  timeoutMs?: number;
}

/** A temporary project with our packed package in its node_modules. */
export interface Consumer {
  /** The project directory (cwd of programs and of the host). */
  readonly dir: string;
  /** The single @pulumi/pulumi the project resolves (a real path). */
  readonly pulumiDir: string;
  /** The tarballs installed, by package name. */
  readonly tarballs: Readonly<Record<string, string>>;
  /**
   * Runs a CommonJS program in a child `node` with `setMocks` and returns every
   * resource it registered. Rejects with the child's stderr when the program
   * throws, a resource fails to register (e.g. `__provider` cannot be
   * serialized) or an error is logged.
   */
  runProgram(programSource: string, options?: RunProgramOptions): Promise<Registration[]>;
  /** Starts the dynamic-provider host in this project (see {@link startHost}). */
  startHost(options?: HostOptions): Promise<Host>;
  /** Deletes the project directory. */
  cleanup(): Promise<void>;
}

/**
 * Creates a temporary consumer project with the packed package installed in
 * `node_modules`, as `npm install <tarball>` would, but offline: the tarball
 * is extracted with `tar`, and every other entry of this repository's
 * node_modules (its dependencies and the single @pulumi/pulumi) is symlinked,
 * so the project, our package and the host all resolve ONE copy of the SDK.
 *
 * @param options - what to install; by default only pulumi-arcgis-admin from the working tree.
 * @example
 * ```ts
 * const consumer = await prepareConsumer();
 * const regs = await consumer.runProgram(`const { Site } = require("pulumi-arcgis-admin"); ...`);
 * await consumer.cleanup();
 * ```
 */
export async function prepareConsumer(options: ConsumerOptions = {}): Promise<Consumer> {
  const tarballList: string[] = [];
  if (options.includeSelf !== false) tarballList.push(await packRepo(options.source));
  for (const dir of options.extraPackages ?? []) tarballList.push(await packDirectory(dir));
  tarballList.push(...(options.tarballs ?? []));

  const dir = await fsp.realpath(runTempDir("arcgis-consumer-"));
  try {
    const modules = path.join(dir, "node_modules");
    await fsp.mkdir(modules);
    const tarballs: Record<string, string> = {};
    for (const tarball of tarballList) {
      tarballs[await installTarball(tarball, modules)] = tarball;
    }
    await linkRepoModules(modules, new Set(Object.keys(tarballs)));
    await fsp.writeFile(
      path.join(dir, "package.json"),
      `${JSON.stringify({ name: PROJECT, version: "0.0.0", private: true, main: "index.js", dependencies: Object.fromEntries(Object.entries(tarballs).map(([name, tgz]) => [name, `file:${tgz}`])) }, null, 2)}\n`,
    );
    await fsp.writeFile(
      path.join(dir, "Pulumi.yaml"),
      `name: ${PROJECT}\nruntime: nodejs\ndescription: Temporary consumer project of tests/engine\n`,
    );
    const pulumiDir = await fsp.realpath(path.join(modules, "@pulumi", "pulumi"));
    let programs = 0;
    return {
      dir,
      pulumiDir,
      tarballs,
      runProgram: (source, runOptions) => runProgram(dir, source, ++programs, runOptions ?? {}),
      startHost: (hostOptions) => startHost(dir, hostOptions),
      cleanup: () => fsp.rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The set-up most engine suites share: a consumer project with the packed package, and the
 * dynamic-provider host started in it and configured, as the engine configures it first.
 *
 * @example
 * ```ts
 * beforeAll(async () => ({ consumer, host } = await consumerWithHost()), 180_000);
 * afterAll(() => closeAll(host, consumer, emu));
 * ```
 */
export async function consumerWithHost(
  options: ConsumerOptions = {},
  hostOptions: HostOptions = {},
): Promise<{ consumer: Consumer; host: Host }> {
  const consumer = await prepareConsumer(options);
  let host: Host | undefined;
  try {
    host = await consumer.startHost(hostOptions);
    await host.configure();
    return { consumer, host };
  } catch (error) {
    await closeAll(host, consumer);
    throw error;
  }
}

/** Something a suite started: a host or an emulator (`close`) or a consumer (`cleanup`). */
type Started = { close(): Promise<unknown> } | { cleanup(): Promise<unknown> } | undefined;

/**
 * Stops what a suite started, in the order given, skipping what never started (a failed
 * beforeAll leaves its variables unset).
 *
 * @example `afterAll(() => closeAll(host, consumer, emu))`
 */
export async function closeAll(...started: Started[]): Promise<void> {
  for (const item of started) {
    if (item === undefined) continue;
    if ("close" in item) await item.close();
    else await item.cleanup();
  }
}

/**
 * Asserts what a program registered for one of our resources: its type token, its secret inputs
 * delivered as secrets, the outputs it marks secret, and a serialized provider that loads the
 * installed package by name, stays small (it is stored in every resource's state) and holds none
 * of `leaks`.
 */
export function expectOurRegistration(
  registration: Registration,
  expected: {
    type: string;
    name: string;
    secretInputs: readonly string[];
    secretOutputs: readonly string[];
    leaks: readonly string[];
  },
): void {
  expect(registration.type).toBe(expected.type);
  expect(registration.name).toBe(expected.name);
  for (const key of expected.secretInputs) {
    expect([key, isSecret(registration.inputs[key])]).toEqual([key, true]);
  }
  expect(registration.options?.additionalSecretOutputs).toEqual(
    expect.arrayContaining([...expected.secretOutputs]),
  );
  const provider = registration.inputs.__provider;
  expect(typeof provider).toBe("string");
  expect(Buffer.byteLength(provider as string)).toBeLessThan(4096);
  expect(provider).toContain(`${PACKAGE_NAME}/dist/provider/resources/`);
  for (const leak of expected.leaks) expect(provider).not.toContain(leak);
}

/** Extracts a tarball into node_modules/<its name>; returns the name. */
export async function installTarball(tarball: string, modules: string): Promise<string> {
  const staging = runTempDir(".staging-", modules);
  // npm tarballs hold everything under `package/`.
  const result = await run("tar", ["-xzf", tarball, "-C", staging, "--strip-components=1"], {
    cwd: modules,
    timeoutMs: 60_000,
  });
  if (result.code !== 0) throw new Error(`tar -xzf ${tarball} failed: ${result.stderr}`);
  const manifest = JSON.parse(await fsp.readFile(path.join(staging, "package.json"), "utf8")) as {
    name: string;
  };
  const target = path.join(modules, ...manifest.name.split("/"));
  await fsp.mkdir(path.dirname(target), { recursive: true });
  await fsp.rename(staging, target);
  return manifest.name;
}

/** Symlinks the repo's node_modules entries, except the packages installed from tarballs. */
async function linkRepoModules(modules: string, installed: ReadonlySet<string>): Promise<void> {
  const source = path.join(REPO_ROOT, "node_modules");
  const skip = new Set([".bin", ".cache", ".package-lock.json", ...installed]);
  for (const entry of await fsp.readdir(source)) {
    if (skip.has(entry)) continue;
    const scopedInstalls = [...installed].filter((name) => name.startsWith(`${entry}/`));
    if (entry.startsWith("@") && scopedInstalls.length > 0) {
      // A scope that holds an installed package: link its other members one by one.
      for (const member of await fsp.readdir(path.join(source, entry))) {
        if (installed.has(`${entry}/${member}`)) continue;
        await fsp.symlink(
          path.join(source, entry, member),
          path.join(modules, entry, member),
          "junction",
        );
      }
      continue;
    }
    await fsp.symlink(path.join(source, entry), path.join(modules, entry), "junction");
  }
}

/** The one setMocks runner of the suites (plain JS, resolves @pulumi/pulumi from its cwd). */
export const MOCK_RUNNER = path.join(__dirname, "mock-program-runner.cjs");
const MOCK_RUNNER_MARK = "__PROGRAM_RUNNER__ ";

/** What {@link runMockProgram} reports. */
export interface MockProgramRun {
  registrations: Registration[];
  /** The program's exports, resolved (unknown values are null); empty in a preview. */
  outputs: Record<string, unknown>;
}

/**
 * Runs a program file in a child `node` under setMocks ({@link MOCK_RUNNER}) with `cwd` as the
 * project directory and returns what it registered and exported. Rejects with the child's
 * stderr when the program throws, a resource fails to register (e.g. `__provider` cannot be
 * serialized) or an error is logged.
 *
 * @param options.label - names the program in the error message.
 * @example `const { registrations } = await runMockProgram({ program, cwd, project, stack, label: "index.js" })`
 */
export async function runMockProgram(options: {
  program: string;
  cwd: string;
  project: string;
  stack: string;
  label: string;
  preview?: boolean;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<MockProgramRun> {
  const result = await run(
    process.execPath,
    [
      MOCK_RUNNER,
      options.program,
      options.project,
      options.stack,
      options.preview === true ? "preview" : "update",
    ],
    { cwd: options.cwd, env: options.env ?? process.env, timeoutMs: options.timeoutMs ?? 60_000 },
  );
  const line = result.stdout.split("\n").find((l) => l.startsWith(MOCK_RUNNER_MARK));
  if (result.code !== 0 || line === undefined) {
    throw new Error(
      `${options.label} failed (exit ${result.code ?? result.signal}):\n${result.stderr.trim()}`,
    );
  }
  return JSON.parse(line.slice(MOCK_RUNNER_MARK.length)) as MockProgramRun;
}

async function runProgram(
  dir: string,
  programSource: string,
  index: number,
  options: RunProgramOptions,
): Promise<Registration[]> {
  const program = path.join(dir, `program-${index}.js`);
  await fsp.writeFile(program, programSource);
  const { registrations } = await runMockProgram({
    program,
    cwd: dir,
    project: PROJECT,
    stack: STACK,
    label: `program-${index}.js`,
    preview: options.preview === true,
    env: {
      ...process.env,
      PULUMI_CONFIG: JSON.stringify(options.config ?? {}),
      ...options.env,
    },
    timeoutMs: options.timeoutMs ?? 60_000,
  });
  return registrations;
}

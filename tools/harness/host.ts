/**
 * Test harness for Pulumi's REAL dynamic-provider host.
 *
 * It packs this repository with `npm pack`, installs the tarball into a
 * throw-away consumer project (no registry access), and then either runs a
 * program there under `pulumi.runtime.setMocks` ({@link Consumer.runProgram})
 * or starts `@pulumi/pulumi/cmd/dynamic-provider` with the consumer as cwd and
 * drives it over gRPC the way the Pulumi engine does ({@link startHost}).
 *
 * ## How secrets really flow (checked against @pulumi/pulumi 3.270)
 *
 * The host (cmd/dynamic-provider/index.js) answers `Configure` with
 * `acceptSecrets: false`. The engine (sdk/go/common/resource/plugin/
 * provider_plugin.go) therefore:
 * - strips every secret marker before Check, Diff, Create, Read, Update and
 *   Delete: the provider methods receive plain values, never the
 *   `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
 *   value}` sentinel;
 * - re-marks results with `annotateSecrets(outs, ins)`: an output (or checked
 *   input) becomes secret when the input under the SAME key contained a
 *   secret; nested objects are matched key by key, any other value (string,
 *   array...) is wrapped whole. Check inputs are matched against the news,
 *   Create outputs against the checked inputs, Update outputs against the new
 *   inputs, Read outputs/inputs against the prior state/inputs;
 * - after a create/update/refresh step marks the top-level outputs listed in
 *   the resource's `additionalSecretOutputs` (the step executor, not the
 *   provider plugin).
 * So an output derived from a secret under ANOTHER key is stored in plain
 * text unless that key is in `additionalSecretOutputs`.
 *
 * The host itself never looks at secret markers in Check/Diff/Create/Read/
 * Update/Delete (`Struct.toJavaScript()` would hand the sentinel object to the
 * provider as is). The one place it unwraps them is `Configure`: it unwraps
 * each top-level value of `args` (`rpc.unwrapRpcSecret`) into the config that
 * `provider.configure({config})` reads, with keys verbatim (`ns:key`; since
 * pulumi/pulumi#17229 the engine sends dynamic providers the WHOLE stack
 * config, namespaces kept). `config.get("key")` without `:` prefixes the
 * project name (PULUMI_NODEJS_PROJECT, set by the engine).
 *
 * The {@link Host} methods reproduce the engine by default (`secrets:
 * "engine"`): pass inputs with {@link secret} markers as a program would, and
 * the results come back marked exactly as the engine would store them. With
 * `secrets: "passthrough"` markers go over the wire untouched and results are
 * returned exactly as the host sent them.
 *
 * `setMocks` (used by {@link Consumer.runProgram}) delivers secret inputs as
 * the same sentinel objects (`inputs.password` is `{"4dabf...": "1b47...",
 * value: "..."}`); a secret inside an array makes the WHOLE array one secret;
 * `__provider` itself is a sentinel too when the serialized closure captured
 * a secret Output. Those inputs are what the engine holds as the resource's
 * news: hand them to {@link Host.check} as they are.
 *
 * ## Other host facts the suites rely on
 * - The host's Configure throws (and never answers) when `args` is missing:
 *   every call here carries a deadline so a test cannot hang.
 * - Errors from check/diff/read/delete and from create/update reach the engine
 *   as gRPC UNKNOWN with `details` = the error's `message` (no stack), but the
 *   host ALSO prints check/diff/read/delete errors with their stack to its
 *   stderr, which the engine shows the user. From create/update only, an
 *   error carrying `id` adds `grpc-status-details-bin` with
 *   `pulumirpc.ErrorResourceInitFailed {id, properties, reasons}`: the engine
 *   then records the resource as created with errors.
 * - The host caches each deserialized provider by its `__provider` text and
 *   calls `provider.configure` once per text, with the config current when
 *   that text is first used; provider output written synchronously during a call is in
 *   {@link Host.stdout}/{@link Host.stderr} when the call resolves.
 * - Outputs keep `__provider` (the host copies it back); `read` answers an
 *   empty id when the provider says the resource is gone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import type * as GrpcJs from "@grpc/grpc-js";
import type * as ProviderPb from "@pulumi/pulumi/proto/provider_pb";
import type * as ProviderGrpcPb from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as StatusPb from "@pulumi/pulumi/proto/status_pb";
import type * as StructPb from "google-protobuf/google/protobuf/struct_pb";

/** The repository root (the package that gets packed). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");
/** The package name users install. */
export const PACKAGE_NAME = "pulumi-arcgis-admin";
/** The project name of the temporary consumer (what URNs and `config.get` use). */
export const PROJECT = "consumer";
/** The stack name used in URNs and by `setMocks`. */
export const STACK = "test";
/** The type token of every `pulumi.dynamic.Resource` without a module/type override. */
export const DYNAMIC_RESOURCE_TYPE = "pulumi-nodejs:dynamic:Resource";
/** The key Pulumi uses to tag special values inside a Struct. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The {@link SIG_KEY} value that marks a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The string the engine sends for a value that is unknown during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** Set to a git ref (e.g. `HEAD`) to pack that commit instead of the working tree. */
export const PACK_REF_ENV = "ENGINE_TESTS_PACK_REF";

/** A property value as it travels in a protobuf Struct. */
export type PropertyValue =
  | null
  | boolean
  | number
  | string
  | PropertyValue[]
  | SecretValue
  | { [key: string]: PropertyValue };
/** A resource's property bag (inputs, outputs or state). */
export type PropertyMap = Record<string, PropertyValue>;
/** Pulumi's wire form of a secret. */
export interface SecretValue<T extends PropertyValue = PropertyValue> {
  [SIG_KEY]: typeof SECRET_SIG;
  value: T;
}

// ---------------------------------------------------------------------------
// Secrets and URNs
// ---------------------------------------------------------------------------

/**
 * Wraps a value in Pulumi's secret sentinel, as the engine marks secret inputs.
 *
 * @param value - the plain value.
 * @example `host.create(urn("pw"), { password: secret("s3cret") })`
 */
export function secret<T extends PropertyValue>(value: T): SecretValue<T> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * Tells whether a value is a secret sentinel (not whether it contains one).
 *
 * @param value - any value.
 * @example `expect(isSecret(created.properties.password)).toBe(true)`
 */
export function isSecret(value: unknown): value is SecretValue {
  return isRecord(value) && value[SIG_KEY] === SECRET_SIG;
}

/**
 * Tells whether a value is or contains a secret sentinel at any depth.
 *
 * @param value - any value.
 * @example `expect(containsSecrets(outputs)).toBe(false)`
 */
export function containsSecrets(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecrets);
  if (isRecord(value)) return Object.values(value).some(containsSecrets);
  return false;
}

/**
 * Returns a deep copy with every secret sentinel replaced by its value (what
 * the engine sends to a provider that does not accept secrets).
 *
 * @param value - a property value or map.
 * @example `unwrapSecrets({ a: secret("x") })` gives `{ a: "x" }`
 */
export function unwrapSecrets<T>(value: T): T;
export function unwrapSecrets(value: unknown): unknown {
  if (isSecret(value)) return unwrapSecrets(value.value);
  if (Array.isArray(value)) return value.map((v) => unwrapSecrets(v));
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrapSecrets(v)]));
  }
  return value;
}

/**
 * Lists the paths (`a.b[0]`) at which a string occurs in a value, each with
 * whether it sits inside a secret sentinel. For "the password appears only
 * under keys marked secret" assertions.
 *
 * @param value - outputs, inputs or any JSON value.
 * @param needle - the text to look for (substring match).
 * @example `expect(findText(outs, pw).every((hit) => hit.secret)).toBe(true)`
 */
export function findText(value: unknown, needle: string): { path: string; secret: boolean }[] {
  const hits: { path: string; secret: boolean }[] = [];
  const visit = (v: unknown, at: string, inSecret: boolean): void => {
    if (isSecret(v)) {
      visit(v.value, at, true);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => visit(item, `${at}[${i}]`, inSecret));
    } else if (isRecord(v)) {
      for (const [k, item] of Object.entries(v))
        visit(item, at === "" ? k : `${at}.${k}`, inSecret);
    } else if (typeof v === "string" && v.includes(needle)) {
      hits.push({ path: at, secret: inSecret });
    }
  };
  visit(value, "", false);
  return hits;
}

/**
 * Builds the URN the engine would give a resource of the consumer project.
 *
 * @param name - the resource name.
 * @param type - the type token; dynamic resources use {@link DYNAMIC_RESOURCE_TYPE}.
 * @example `urn("site")` gives `urn:pulumi:test::consumer::pulumi-nodejs:dynamic:Resource::site`
 */
export function urn(name: string, type: string = DYNAMIC_RESOURCE_TYPE): string {
  return `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;
}

/**
 * Copies the engine's `annotateSecrets`: marks `outs[key]` secret when
 * `ins[key]` contains a secret, recursing where both are plain objects.
 */
function annotateSecrets(outs: PropertyMap, ins: PropertyMap): void {
  for (const [key, inValue] of Object.entries(ins)) {
    if (!Object.hasOwn(outs, key)) continue;
    const outValue = outs[key];
    if (isPlainMap(outValue) && isPlainMap(inValue)) {
      annotateSecrets(outValue, inValue);
    } else if (outValue !== undefined && !isSecret(outValue) && containsSecrets(inValue)) {
      outs[key] = secret(outValue);
    }
  }
}

/** Copies the step executor: top-level additionalSecretOutputs become secret. */
function markAdditionalSecretOutputs(outs: PropertyMap, keys: readonly string[]): void {
  for (const key of keys) {
    const value = outs[key];
    if (value !== undefined && !isSecret(value)) outs[key] = secret(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPlainMap(value: unknown): value is PropertyMap {
  return isRecord(value) && !isSecret(value);
}

/** Struct.fromJavaScript rejects `undefined`; the engine never sends it, so drop such keys. */
function dropUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : dropUndefined(v)));
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, dropUndefined(v)]),
    );
  }
  return value;
}

// ---------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, killing it after `timeoutMs`; never rejects on exit codes. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number; input?: string },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      // npm is a .cmd shim on Windows.
      shell: process.platform === "win32" && command === "npm",
    });
    child.stdin?.end(options.input);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[harness] killed after ${options.timeoutMs} ms`;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function tail(text: string, lines = 40): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

// ---------------------------------------------------------------------------
// Packing
// ---------------------------------------------------------------------------

/** Which state of this repository to pack. */
export type PackSource = "worktree" | { ref: string };

const packCache = new Map<string, Promise<string>>();
const CACHE_DIR = path.join(os.tmpdir(), "pulumi-arcgis-admin-engine-tests");

/**
 * Packs this repository with `npm pack` (which runs `prepack`, i.e. the build)
 * in a snapshot directory and returns the tarball path. A clean working tree
 * is packed as HEAD.
 *
 * The build runs in a temporary copy, never in the repository: the repo's
 * `dist/` is left alone, colleagues' concurrent builds cannot race with it,
 * and a git ref can be packed as easily as the working tree. The default is
 * the working tree (tracked files plus untracked, non-ignored ones), so the
 * suites test the code being written; set `ENGINE_TESTS_PACK_REF=HEAD` (or
 * pass `{ref}`) to pin a commit while someone else's half-written file breaks
 * the build. Tarballs are cached in the OS temp dir by a hash of the snapshot,
 * so every suite of a jest run (one module registry each) reuses one build.
 *
 * @param source - `"worktree"` (default, or the env override) or `{ref: "HEAD"}`.
 * @example `const tgz = await packRepo({ ref: "HEAD" })`
 */
export function packRepo(source?: PackSource): Promise<string> {
  const envRef = process.env[PACK_REF_ENV];
  const chosen: PackSource = source ?? (envRef ? { ref: envRef } : "worktree");
  const key = chosen === "worktree" ? "worktree" : `ref:${chosen.ref}`;
  let pending = packCache.get(key);
  if (pending === undefined) {
    pending = packRepoUncached(chosen);
    packCache.set(key, pending);
    // A failed build must not be cached for the rest of the process.
    pending.catch(() => packCache.delete(key));
  }
  return pending;
}

async function packRepoUncached(source: PackSource): Promise<string> {
  // A clean working tree is HEAD: share its cache entry, so CI builds once.
  if (source === "worktree" && (await isCleanGitTree())) source = { ref: "HEAD" };
  const snapshot = await fsp.mkdtemp(path.join(os.tmpdir(), "arcgis-pack-src-"));
  try {
    let key: string;
    if (source === "worktree") {
      key = `worktree-${await copyFiles(REPO_ROOT, await worktreeFiles(), snapshot)}`;
    } else {
      key = `tree-${(await git(["rev-parse", `${source.ref}^{tree}`])).trim()}`;
    }
    const cached = path.join(CACHE_DIR, `${PACKAGE_NAME}-${key}.tgz`);
    if (fs.existsSync(cached)) return cached;
    // Jest starts several suites at once, each in its own process: one builds this tarball
    // while the others wait for it, instead of each running the same build.
    const release = await buildLock(cached);
    try {
      if (fs.existsSync(cached)) return cached;
      if (source !== "worktree") await extractGitRef(source.ref, snapshot);
      // The build needs devDependencies (typescript, @types): borrow the repo's.
      await fsp.symlink(
        path.join(REPO_ROOT, "node_modules"),
        path.join(snapshot, "node_modules"),
        "junction",
      );
      const label =
        source === "worktree" ? "the working tree" : `git ref ${JSON.stringify(source.ref)}`;
      return await packInto(snapshot, label, cached);
    } finally {
      await release();
    }
  } finally {
    await fsp.rm(snapshot, { recursive: true, force: true });
  }
}

/** How long a process may wait for another's build of the same tarball. */
const BUILD_LOCK_WAIT_MS = 600_000;

/**
 * Takes the build lock of one tarball: a folder beside it, which `mkdir` creates for one process
 * only, holding the owner's pid. A lock whose owner has ended (a killed run) is taken over.
 * Resolves with the function that releases it.
 *
 * @internal
 */
export async function buildLock(tarball: string): Promise<() => Promise<void>> {
  await fsp.mkdir(CACHE_DIR, { recursive: true });
  const lock = `${tarball}.lock`;
  const owner = path.join(lock, "pid");
  const deadline = Date.now() + BUILD_LOCK_WAIT_MS;
  for (;;) {
    try {
      await fsp.mkdir(lock);
      await fsp.writeFile(owner, String(process.pid));
      return () => fsp.rm(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (fs.existsSync(tarball)) return async () => {};
    const pid = Number(await fsp.readFile(owner, "utf8").catch(() => "0"));
    // No pid yet: the owner is between its mkdir and its write, unless it died there.
    const age = Date.now() - ((await fsp.stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
    if (pid > 0 ? !processAlive(pid) : age > 10_000) {
      await fsp.rm(lock, { recursive: true, force: true });
    }
    if (Date.now() > deadline) {
      throw new Error(`another process has held ${lock} for ${BUILD_LOCK_WAIT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Packs a package folder (e.g. a test fixture) with `npm pack` and returns the
 * tarball path, cached by a hash of the folder's files.
 *
 * @param dir - the folder holding package.json.
 * @example `await packDirectory(path.join(__dirname, "fixtures/echo-provider"))`
 */
export async function packDirectory(dir: string): Promise<string> {
  const hash = await copyFiles(dir, await listFiles(dir, new Set(["node_modules"])));
  const cached = path.join(CACHE_DIR, `${path.basename(dir)}-${hash}.tgz`);
  if (fs.existsSync(cached)) return cached;
  return packInto(dir, dir, cached);
}

/** Runs `npm pack` in `dir` and moves the tarball to `cached` atomically. */
async function packInto(dir: string, label: string, cached: string): Promise<string> {
  const out = await fsp.mkdtemp(path.join(os.tmpdir(), "arcgis-pack-out-"));
  try {
    const result = await run("npm", ["pack", "--pack-destination", out, "--loglevel", "error"], {
      cwd: dir,
      timeoutMs: 180_000,
    });
    const tarballs = (await fsp.readdir(out)).filter((f) => f.endsWith(".tgz"));
    if (result.code !== 0 || tarballs.length !== 1) {
      throw new Error(
        `npm pack of ${label} failed (exit ${result.code ?? result.signal}). If the errors are ` +
          `in files someone is still editing, retry later or set ${PACK_REF_ENV}=HEAD.\n` +
          tail(`${result.stdout}\n${result.stderr}`),
      );
    }
    await fsp.mkdir(CACHE_DIR, { recursive: true });
    await pruneCache();
    // Rename is atomic: parallel jest workers never see half a tarball.
    const partial = `${cached}.${process.pid}.partial`;
    await fsp.copyFile(path.join(out, tarballs[0]!), partial);
    await fsp.rename(partial, cached);
    return cached;
  } finally {
    await fsp.rm(out, { recursive: true, force: true });
  }
}

/** Drops cached tarballs not built for a week (each edit of the sources adds one). */
async function pruneCache(): Promise<void> {
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  for (const entry of await fsp.readdir(CACHE_DIR)) {
    const file = path.join(CACHE_DIR, entry);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat !== undefined && stat.mtimeMs < weekAgo) await fsp.rm(file, { force: true });
  }
}

async function git(args: readonly string[]): Promise<string> {
  const result = await run("git", args, { cwd: REPO_ROOT, timeoutMs: 60_000 });
  if (result.code !== 0) {
    throw new Error(`git ${args.join(" ")} failed: ${tail(result.stderr)}`);
  }
  return result.stdout;
}

async function isCleanGitTree(): Promise<boolean> {
  try {
    return (await git(["status", "--porcelain"])).trim() === "";
  } catch {
    return false;
  }
}

/** Tracked and untracked-but-not-ignored files: what a clone plus local edits holds. */
async function worktreeFiles(): Promise<string[]> {
  try {
    const listing = await git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
    return [...new Set(listing.split("\0").filter((f) => f !== ""))].sort();
  } catch {
    // Not a git checkout (e.g. an unpacked source archive): take the tree as is.
    return listFiles(REPO_ROOT, new Set(["node_modules", "dist", "coverage", ".git"]));
  }
}

/** Relative paths of the files under `root`, skipping directories with these names. */
async function listFiles(root: string, skip: ReadonlySet<string>): Promise<string[]> {
  const files: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await fsp.readdir(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === "" ? entry.name : path.join(relative, entry.name);
      if (entry.isDirectory() && !skip.has(entry.name)) await walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  await walk("");
  return files.sort();
}

/**
 * Hashes paths and contents of `files` (relative to `root`) and, given a
 * destination, copies them there. Missing files are skipped: `git ls-files
 * --cached` still lists files deleted from the working tree.
 */
async function copyFiles(
  root: string,
  files: readonly string[],
  destination?: string,
): Promise<string> {
  const hash = createHash("sha256");
  for (const file of files) {
    const from = path.join(root, file);
    const stat = await fsp.lstat(from).catch(() => undefined);
    if (stat === undefined || !stat.isFile()) continue;
    const content = await fsp.readFile(from);
    // The mode too: an executable (bin/pulumi-resource-arcgis-admin) must stay one when packed.
    const mode = stat.mode & 0o777;
    hash.update(file).update("\0").update(content).update("\0").update(String(mode));
    if (destination !== undefined) {
      const to = path.join(destination, file);
      await fsp.mkdir(path.dirname(to), { recursive: true });
      await fsp.writeFile(to, content, { mode });
    }
  }
  return hash.digest("hex").slice(0, 24);
}

async function extractGitRef(ref: string, destination: string): Promise<void> {
  const archive = path.join(destination, ".archive.tar");
  await git(["archive", "--format=tar", "-o", archive, ref]);
  const result = await run("tar", ["-xf", archive, "-C", destination], {
    cwd: destination,
    timeoutMs: 60_000,
  });
  await fsp.rm(archive, { force: true });
  if (result.code !== 0) throw new Error(`tar -xf of git ref ${ref} failed: ${result.stderr}`);
}

// ---------------------------------------------------------------------------
// Consumer project
// ---------------------------------------------------------------------------

/** Options of {@link prepareConsumer}. */
export interface ConsumerOptions {
  /** Install pulumi-arcgis-admin itself (default true). */
  includeSelf?: boolean;
  /** Which state of this repository to pack (see {@link packRepo}). */
  source?: PackSource;
  /** Further package folders (test fixtures) to `npm pack` and install. */
  extraPackages?: readonly string[];
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

  const dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "arcgis-consumer-")));
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

/** Extracts a tarball into node_modules/<its name>, which must not exist yet; returns the name. */
export async function installTarball(tarball: string, modules: string): Promise<string> {
  const staging = await fsp.mkdtemp(path.join(modules, ".staging-"));
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

// ---------------------------------------------------------------------------
// The dynamic-provider host
// ---------------------------------------------------------------------------

/** Options of {@link startHost}. */
export interface HostOptions {
  /**
   * Stack config (`"ns:key": value`). The engine gives it to the host as
   * PULUMI_CONFIG and, in Configure, as args; `configure()` without an
   * argument sends these.
   */
  config?: Record<string, string | SecretValue<string>>;
  /** Extra environment variables for the host. */
  env?: Record<string, string>;
  /**
   * `"engine"` (default): strip secret markers before sending when the host
   * does not accept secrets and re-mark results as the engine does.
   * `"passthrough"`: send and return exactly what is given and received.
   */
  secrets?: "engine" | "passthrough";
  /** Deadline of each call (default 60 s). */
  callTimeoutMs?: number;
  /** How long to wait for the port (default 30 s). */
  startTimeoutMs?: number;
}

/** What the host answered to Configure. */
export interface ConfigureResult {
  acceptSecrets: boolean;
  acceptResources: boolean;
  acceptOutputs: boolean;
  supportsPreview: boolean;
}

/** The result of Check. */
export interface CheckResult {
  inputs: PropertyMap;
  failures: { property: string; reason: string }[];
}

/** The result of Diff. */
export interface DiffResult {
  changes: "DIFF_UNKNOWN" | "DIFF_NONE" | "DIFF_SOME";
  replaces: string[];
  stables: string[];
  diffs: string[];
  deleteBeforeReplace: boolean;
  hasDetailedDiff: boolean;
}

/** The result of Create. */
export interface CreateResult {
  id: string;
  properties: PropertyMap;
}

/** The result of Read; an empty `id` means the resource is gone. */
export interface ReadResult {
  id: string;
  properties: PropertyMap;
  inputs: PropertyMap | undefined;
}

/** Per-call options that mirror what the engine knows about the resource. */
export interface StepOptions {
  /** The resource's `additionalSecretOutputs` (from the registration). */
  additionalSecretOutputs?: readonly string[];
  /** The previous inputs, which the engine sends as `oldInputs` (the host ignores them). */
  oldInputs?: PropertyMap;
}

/**
 * The error a host call rejects with. `message` is the gRPC details, i.e. what
 * the user would read; match on `code`.
 */
export class HostCallError extends Error {
  readonly code = "HOST_CALL_FAILED";
  constructor(
    message: string,
    /** The RPC method, e.g. `create`. */
    readonly method: string,
    /** The gRPC status code (2 = UNKNOWN for errors thrown by the provider). */
    readonly grpcCode: number,
    /** The gRPC details. */
    readonly details: string,
    /** The raw gRPC metadata, as a plain map (binary values as Buffers). */
    readonly metadata: Record<string, GrpcJs.MetadataValue[]>,
    /** From `grpc-status-details-bin` (`ErrorResourceInitFailed`): the id of a resource created with errors. */
    readonly id: string | undefined,
    /** From `ErrorResourceInitFailed`: its properties. */
    readonly properties: PropertyMap | undefined,
    /** From `ErrorResourceInitFailed`: its reasons. */
    readonly reasons: string[] | undefined,
  ) {
    super(message);
    this.name = "HostCallError";
  }
}

/** A running dynamic-provider host and a gRPC client connected to it. */
/**
 * Waits for a host call that must fail and returns its {@link HostCallError}, recording the
 * message in `texts` (the suites check those texts for leaked secrets).
 *
 * @example
 * ```ts
 * const error = await hostFailure(host.create(urn("site"), inputs), errorTexts);
 * ```
 */
export async function hostFailure(
  promise: Promise<unknown>,
  texts?: string[],
): Promise<HostCallError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof HostCallError)) {
    throw new Error(`expected the host call to fail with a HostCallError, got ${String(error)}`);
  }
  texts?.push(error.message);
  return error;
}

export interface Host {
  /** The host's port on 127.0.0.1. */
  readonly port: number;
  /** The host's process id. */
  readonly pid: number;
  /** How long spawn-to-port took, in ms. */
  readonly startupMs: number;
  /** Configure, as the engine sends it (must come first). */
  configure(config?: Record<string, string | SecretValue<string>>): Promise<ConfigureResult>;
  /** Check: `olds` are the previous inputs (`{}` on create), `news` the program's inputs. */
  check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult>;
  /** Diff: `olds` are the previous OUTPUTS (state), `news` the checked inputs. */
  diff(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    options?: StepOptions,
  ): Promise<DiffResult>;
  /** Create from the checked inputs; outputs are marked as the engine would store them. */
  create(urn: string, properties: PropertyMap, options?: StepOptions): Promise<CreateResult>;
  /** Read (refresh): `properties` is the state, `inputs` the previous inputs. */
  read(
    id: string,
    urn: string,
    properties: PropertyMap,
    inputs?: PropertyMap,
    options?: StepOptions,
  ): Promise<ReadResult>;
  /** Update: `olds` are the previous outputs, `news` the checked inputs. */
  update(
    id: string,
    urn: string,
    olds: PropertyMap,
    news: PropertyMap,
    options?: StepOptions,
  ): Promise<{ properties: PropertyMap }>;
  /** Delete: `properties` are the outputs from state. */
  delete(id: string, urn: string, properties: PropertyMap, options?: StepOptions): Promise<void>;
  /** Everything the host wrote to stdout so far (the port line included). */
  stdout(): string;
  /** Everything the host wrote to stderr so far. */
  stderr(): string;
  /** The exit code/signal once the host has exited, else undefined. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Closes the client and stops the host (SIGTERM, then SIGKILL); idempotent. */
  close(): Promise<void>;
}

interface Wire {
  grpc: typeof GrpcJs;
  provider: typeof ProviderPb;
  providerGrpc: typeof ProviderGrpcPb;
  status: typeof StatusPb;
  struct: typeof StructPb;
}

/**
 * Loads grpc-js, google-protobuf and the generated classes from the consumer's
 * @pulumi/pulumi, i.e. the copies the host itself uses: Struct and Message
 * classes from another google-protobuf copy would not be recognized.
 */
function loadWire(pulumiDir: string): Wire {
  const load = (id: string): unknown =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- resolved at run time from the consumer's SDK
    require(require.resolve(id, { paths: [pulumiDir] }));
  return {
    grpc: load("@grpc/grpc-js") as typeof GrpcJs,
    provider: load(path.join(pulumiDir, "proto", "provider_pb.js")) as typeof ProviderPb,
    providerGrpc: load(
      path.join(pulumiDir, "proto", "provider_grpc_pb.js"),
    ) as typeof ProviderGrpcPb,
    status: load(path.join(pulumiDir, "proto", "status_pb.js")) as typeof StatusPb,
    struct: load("google-protobuf/google/protobuf/struct_pb") as typeof StructPb,
  };
}

/**
 * Starts `@pulumi/pulumi/cmd/dynamic-provider` with `consumerDir` as cwd (as
 * the engine does through `pulumi-resource-pulumi-nodejs`) and connects a
 * `ResourceProviderClient` to the port it prints first. The engine-address
 * argument is required by the host but unused (it never dials the engine).
 *
 * @param consumerDir - a project whose node_modules holds @pulumi/pulumi.
 * @param options - config, env, secret handling and timeouts.
 * @example
 * ```ts
 * const host = await startHost(consumer.dir);
 * await host.configure();
 * const { inputs } = await host.check(urn("a"), {}, registration.inputs);
 * const { id, properties } = await host.create(urn("a"), inputs);
 * await host.close();
 * ```
 */
export async function startHost(consumerDir: string, options: HostOptions = {}): Promise<Host> {
  const pulumiDir = fs.realpathSync(path.join(consumerDir, "node_modules", "@pulumi", "pulumi"));
  const wire = loadWire(pulumiDir);
  const hostScript = path.join(pulumiDir, "cmd", "dynamic-provider", "index.js");
  const defaultConfig = options.config ?? {};
  const started = Date.now();
  const child = spawn(process.execPath, [hostScript, "127.0.0.1:0"], {
    cwd: consumerDir,
    env: {
      ...process.env,
      // What the engine sets for the pulumi-nodejs plugin.
      PULUMI_NODEJS_PROJECT: PROJECT,
      PULUMI_PROJECT: PROJECT,
      PULUMI_CONFIG: JSON.stringify(unwrapSecrets(defaultConfig)),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`the host printed no port within ${options.startTimeoutMs ?? 30_000} ms`),
          ),
        options.startTimeoutMs ?? 30_000,
      );
      child.stdout.on("data", (chunk: string) => {
        stdout += chunk;
        const newline = stdout.indexOf("\n");
        if (newline >= 0) {
          clearTimeout(timer);
          const value = Number(stdout.slice(0, newline).trim());
          if (Number.isInteger(value) && value > 0) resolve(value);
          else
            reject(new Error(`unexpected first line from the host: ${stdout.slice(0, newline)}`));
        }
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the host exited (${code ?? signal}) before printing its port`));
      });
    });
  } catch (error) {
    await stopChild(child, exitPromise, () => exit !== undefined);
    throw new Error(`${(error as Error).message}\nhost stderr:\n${tail(stderr)}`, {
      cause: error,
    });
  }
  const startupMs = Date.now() - started;

  const client = new wire.providerGrpc.ResourceProviderClient(
    `127.0.0.1:${port}`,
    wire.grpc.credentials.createInsecure(),
  );
  return new HostClient(wire, client, child, exitPromise, {
    port,
    startupMs,
    defaultConfig,
    secrets: options.secrets ?? "engine",
    callTimeoutMs: options.callTimeoutMs ?? 60_000,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: () => exit,
  });
}

/** SIGTERM, then SIGKILL after 3 s; resolves once the child has exited. */
async function stopChild(
  child: ChildProcess,
  exited: Promise<void>,
  hasExited: () => boolean,
): Promise<void> {
  if (hasExited()) return;
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      if (!hasExited()) child.kill("SIGKILL");
      resolve();
    }, 3_000);
  });
  await Promise.race([exited, killed]);
  clearTimeout(timer);
  await exited;
}

type UnaryMethod = (
  request: unknown,
  metadata: GrpcJs.Metadata,
  options: Partial<GrpcJs.CallOptions>,
  callback: (error: GrpcJs.ServiceError | null, response: unknown) => void,
) => GrpcJs.ClientUnaryCall;

interface HostState {
  port: number;
  startupMs: number;
  defaultConfig: Record<string, string | SecretValue<string>>;
  secrets: "engine" | "passthrough";
  callTimeoutMs: number;
  stdout: () => string;
  stderr: () => string;
  exited: () => { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

class HostClient implements Host {
  readonly port: number;
  readonly pid: number;
  readonly startupMs: number;
  /** Undefined until Configure answered; then whether the engine may keep secrets. */
  private acceptSecrets: boolean | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly wire: Wire,
    private readonly client: ProviderGrpcPb.ResourceProviderClient,
    private readonly child: ChildProcess,
    private readonly exitPromise: Promise<void>,
    private readonly state: HostState,
  ) {
    this.port = state.port;
    this.pid = child.pid ?? -1;
    this.startupMs = state.startupMs;
  }

  stdout(): string {
    return this.state.stdout();
  }

  stderr(): string {
    return this.state.stderr();
  }

  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.state.exited();
  }

  async configure(
    config: Record<string, string | SecretValue<string>> = this.state.defaultConfig,
  ): Promise<ConfigureResult> {
    const { provider, struct } = this.wire;
    const request = new provider.ConfigureRequest();
    // Like the engine: `variables` holds plain strings under the legacy
    // `<pkg>:config:<key>` spelling, `args` the values with secrets kept.
    const variables = request.getVariablesMap();
    for (const [key, value] of Object.entries(config)) {
      variables.set(`pulumi-nodejs:config:${key}`, unwrapSecrets(value) as string);
    }
    request.setArgs(struct.Struct.fromJavaScript(config));
    request.setAcceptsecrets(true);
    request.setAcceptresources(true);
    request.setSendsOldInputs(true);
    request.setSendsOldInputsToDelete(true);
    const response = (await this.call("configure", request)) as ProviderPb.ConfigureResponse;
    this.acceptSecrets = response.getAcceptsecrets();
    return {
      acceptSecrets: response.getAcceptsecrets(),
      acceptResources: response.getAcceptresources(),
      acceptOutputs: response.getAcceptoutputs(),
      supportsPreview: response.getSupportspreview(),
    };
  }

  async check(urnValue: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult> {
    const request = new this.wire.provider.CheckRequest();
    this.setTarget(request, urnValue);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    const response = (await this.call("check", request)) as ProviderPb.CheckResponse;
    const inputs = this.fromStruct(response.getInputs());
    if (this.annotates()) annotateSecrets(inputs, news);
    return {
      inputs,
      failures: response.getFailuresList().map((f) => ({
        property: f.getProperty(),
        reason: f.getReason(),
      })),
    };
  }

  async diff(
    id: string,
    urnValue: string,
    olds: PropertyMap,
    news: PropertyMap,
    options: StepOptions = {},
  ): Promise<DiffResult> {
    const { provider } = this.wire;
    const request = new provider.DiffRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    if (options.oldInputs !== undefined) request.setOldInputs(this.toStruct(options.oldInputs));
    const response = (await this.call("diff", request)) as ProviderPb.DiffResponse;
    const names = {
      [provider.DiffResponse.DiffChanges.DIFF_UNKNOWN]: "DIFF_UNKNOWN",
      [provider.DiffResponse.DiffChanges.DIFF_NONE]: "DIFF_NONE",
      [provider.DiffResponse.DiffChanges.DIFF_SOME]: "DIFF_SOME",
    } as const;
    return {
      changes: names[response.getChanges()],
      replaces: response.getReplacesList(),
      stables: response.getStablesList(),
      diffs: response.getDiffsList(),
      deleteBeforeReplace: response.getDeletebeforereplace(),
      hasDetailedDiff: response.getHasdetaileddiff(),
    };
  }

  async create(
    urnValue: string,
    properties: PropertyMap,
    options: StepOptions = {},
  ): Promise<CreateResult> {
    const request = new this.wire.provider.CreateRequest();
    this.setTarget(request, urnValue);
    request.setProperties(this.toStruct(properties));
    const response = (await this.call("create", request, properties)) as ProviderPb.CreateResponse;
    return {
      id: response.getId(),
      properties: this.outputs(response.getProperties(), properties, options),
    };
  }

  async read(
    id: string,
    urnValue: string,
    properties: PropertyMap,
    inputs?: PropertyMap,
    options: StepOptions = {},
  ): Promise<ReadResult> {
    const request = new this.wire.provider.ReadRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setProperties(this.toStruct(properties));
    if (inputs !== undefined) request.setInputs(this.toStruct(inputs));
    const response = (await this.call("read", request)) as ProviderPb.ReadResponse;
    const newInputs = response.getInputs();
    let readInputs: PropertyMap | undefined;
    if (newInputs !== undefined) {
      readInputs = this.fromStruct(newInputs);
      if (this.annotates() && inputs !== undefined) annotateSecrets(readInputs, inputs);
    }
    return {
      id: response.getId(),
      properties: this.outputs(response.getProperties(), properties, options),
      inputs: readInputs,
    };
  }

  async update(
    id: string,
    urnValue: string,
    olds: PropertyMap,
    news: PropertyMap,
    options: StepOptions = {},
  ): Promise<{ properties: PropertyMap }> {
    const request = new this.wire.provider.UpdateRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setOlds(this.toStruct(olds));
    request.setNews(this.toStruct(news));
    if (options.oldInputs !== undefined) request.setOldInputs(this.toStruct(options.oldInputs));
    const response = (await this.call("update", request, news)) as ProviderPb.UpdateResponse;
    return { properties: this.outputs(response.getProperties(), news, options) };
  }

  async delete(
    id: string,
    urnValue: string,
    properties: PropertyMap,
    options: StepOptions = {},
  ): Promise<void> {
    const request = new this.wire.provider.DeleteRequest();
    request.setId(id);
    this.setTarget(request, urnValue);
    request.setProperties(this.toStruct(properties));
    if (options.oldInputs !== undefined) request.setOldInputs(this.toStruct(options.oldInputs));
    await this.call("delete", request);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.client.close();
      await stopChild(this.child, this.exitPromise, () => this.state.exited() !== undefined);
    })();
    return this.closing;
  }

  /** Urn, name and type, as the engine fills them in from the URN. */
  private setTarget(
    request: {
      setUrn(v: string): unknown;
      setName(v: string): unknown;
      setType(v: string): unknown;
    },
    urnValue: string,
  ): void {
    const parts = urnValue.split("::");
    request.setUrn(urnValue);
    request.setName(parts[3] ?? "");
    request.setType((parts[2] ?? "").split("$").pop() ?? "");
  }

  private annotates(): boolean {
    return this.state.secrets === "engine" && this.acceptSecrets === false;
  }

  private toStruct(map: PropertyMap): StructPb.Struct {
    if (this.acceptSecrets === undefined) {
      throw new Error(
        "call configure() first: the engine always configures a provider before using it",
      );
    }
    const plain = this.annotates() ? unwrapSecrets(map) : map;
    return this.wire.struct.Struct.fromJavaScript(
      dropUndefined(plain) as Record<string, StructPb.JavaScriptValue>,
    );
  }

  private fromStruct(value: StructPb.Struct | undefined): PropertyMap {
    return value?.toJavaScript() ?? {};
  }

  private outputs(
    value: StructPb.Struct | undefined,
    inputs: PropertyMap,
    options: StepOptions,
  ): PropertyMap {
    const outs = this.fromStruct(value);
    if (this.annotates()) annotateSecrets(outs, inputs);
    if (this.state.secrets === "engine") {
      markAdditionalSecretOutputs(outs, options.additionalSecretOutputs ?? []);
    }
    return outs;
  }

  private async call(method: string, request: unknown, inputs?: PropertyMap): Promise<unknown> {
    const fn = (this.client as unknown as Record<string, UnaryMethod>)[method]!.bind(this.client);
    const outcome = await new Promise<{ response: unknown } | { error: GrpcJs.ServiceError }>(
      (resolve) => {
        fn(
          request,
          new this.wire.grpc.Metadata(),
          { deadline: Date.now() + this.state.callTimeoutMs },
          (error, response) => resolve(error === null ? { response } : { error }),
        );
      },
    );
    await this.settleOutput();
    if ("error" in outcome) throw this.toError(method, outcome.error, inputs);
    return outcome.response;
  }

  /**
   * Lets the host's output catch up with its answer, so that stdout()/stderr()
   * hold everything printed during the call. The host writes to pipes
   * synchronously (Linux) before it answers, so the bytes are already readable
   * here; the gRPC answer may merely be processed first. Wait event-loop turns
   * until the output stops growing.
   */
  private async settleOutput(): Promise<void> {
    let size = -1;
    for (let turn = 0; turn < 100; turn++) {
      const current = this.state.stdout().length + this.state.stderr().length;
      if (current === size && turn >= 2) return;
      size = current;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private toError(method: string, error: GrpcJs.ServiceError, inputs?: PropertyMap): HostCallError {
    const { grpc, status, provider } = this.wire;
    let id: string | undefined;
    let properties: PropertyMap | undefined;
    let reasons: string[] | undefined;
    for (const raw of error.metadata.get("grpc-status-details-bin")) {
      const buffer = typeof raw === "string" ? Buffer.from(raw, "base64") : raw;
      for (const detail of status.Status.deserializeBinary(buffer).getDetailsList()) {
        if (detail.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
        const failed = provider.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
        id = failed.getId();
        properties = this.fromStruct(failed.getProperties());
        if (this.annotates() && inputs !== undefined) annotateSecrets(properties, inputs);
        reasons = failed.getReasonsList();
      }
    }
    let message = error.details;
    // Transport failures say nothing about the provider: add what the host did.
    if (error.code !== grpc.status.UNKNOWN) {
      const exited = this.state.exited();
      message =
        `${method} on the dynamic-provider host failed (${grpc.status[error.code]}): ${error.details}` +
        (exited ? ` (the host exited: ${exited.code ?? exited.signal})` : "") +
        `\nhost stderr:\n${tail(this.state.stderr())}`;
    }
    return new HostCallError(
      message,
      method,
      error.code,
      error.details,
      error.metadata.toJSON(),
      id,
      properties,
      reasons,
    );
  }
}

/**
 * The provider host compiles the package's modules once: the lazy provider's `configure` (the
 * host's first call, which only Pulumi's dynamic-provider host makes) turns on Node's compile
 * cache in Node's own folder before it loads the implementation; the cache is on disk even when
 * the host is killed then, as the engine may stop it. Checked on
 * the built provider in fresh Node processes whose temporary folder is the test's, and with
 * `NODE_DISABLE_COMPILE_CACHE=1`, which turns it off.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

const PROVIDER = path.join(REPO_ROOT, "dist", "provider", "resources", "site", "provider.js");

let dir: string;
beforeAll(() => {
  dir = runTempDir("compile-cache-");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Calls the Site provider's configure in a new Node process; the compile cache's folder. */
function configureInChild(tmp: string, env: NodeJS.ProcessEnv = {}): string | null {
  const file = path.join(dir, "configure.cjs");
  fs.writeFileSync(
    file,
    `const provider = require(${JSON.stringify(PROVIDER)});
const config = { get: () => undefined, require: () => "" };
provider.configure({ config }).then(() => {
  const dir = require("node:module").getCompileCacheDir() ?? null;
  require("node:fs").writeSync(1, JSON.stringify(dir) + "\\n");
  // As the engine may stop the host: no exit, so nothing is written at exit.
  process.kill(process.pid, "SIGKILL");
});`,
  );
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp, ...env };
  delete childEnv["NODE_COMPILE_CACHE"];
  if (env["NODE_DISABLE_COMPILE_CACHE"] === undefined)
    delete childEnv["NODE_DISABLE_COMPILE_CACHE"];
  const result = spawnSync(process.execPath, [file], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    env: childEnv,
  });
  if (result.signal !== "SIGKILL") throw new Error(`node ${file} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as string | null;
}

/** The files under a folder, recursively. */
function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

it("configure compiles the implementation's modules through Node's compile cache, on disk even when the host is then killed", () => {
  const tmp = path.join(dir, "on");
  fs.mkdirSync(tmp);
  const cacheDir = configureInChild(tmp);
  expect(cacheDir).not.toBeNull();
  expect(path.relative(tmp, cacheDir!).startsWith("..")).toBe(false);
  // The implementation with the client, undici and zod: many modules, written without an exit.
  expect(filesUnder(cacheDir!).length).toBeGreaterThan(100);
});

it("leaves the compile cache off with NODE_DISABLE_COMPILE_CACHE=1", () => {
  const tmp = path.join(dir, "off");
  fs.mkdirSync(tmp);
  expect(configureInChild(tmp, { NODE_DISABLE_COMPILE_CACHE: "1" })).toBeNull();
  expect(filesUnder(tmp)).toEqual([]);
});

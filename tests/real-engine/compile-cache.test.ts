/**
 * Node's compile cache and the dynamic-provider host, through the real engine. The host reads the
 * cache the driver turns on but never writes it (the engine kills it at the end of a run), and
 * must not (it compiles the providers' serialized closures, captured values included, from
 * strings). So the driver puts the host's modules into the cache itself, once
 * (scripts/provider-modules.cjs).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { RealStack, type ConfigValue } from "./support";

jest.setTimeout(240_000);

let emu: TestEmulator;
let stack: RealStack | undefined;
const caches: string[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 0 });
}, 60_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
  for (const dir of caches) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new, empty compile cache folder. */
function newCache(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "compile-cache-"));
  caches.push(dir);
  return dir;
}

/** The files of a compile cache folder: Node's entries, and the driver's record. */
function cacheFiles(dir: string): { entries: number; records: string[] } {
  const files = fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
  const records = files.filter((f) => path.basename(f).startsWith("pulumi-arcgis-admin-"));
  return { entries: files.length - records.length, records };
}

/** The Site's implementation in the consumer project, as the host loads it. */
function siteEntry(s: RealStack): string {
  return path.join(
    s.consumer.dir,
    "node_modules/pulumi-arcgis-admin/dist/provider/resources/site.js",
  );
}

/**
 * Loads the Site's implementation in a new Node process with the compile cache `dir`, which exits
 * normally (so Node saves what it compiled); returns how many entries that added. The module is
 * the main script (it only exports): no script of the test's own to compile.
 */
function entriesAddedByLoadingSite(s: RealStack, dir: string): number {
  const before = cacheFiles(dir).entries;
  const loaded = spawnSync(process.execPath, [siteEntry(s)], {
    cwd: s.consumer.dir,
    env: { ...process.env, NODE_COMPILE_CACHE: dir },
    encoding: "utf8",
  });
  expect(loaded.stderr).toBe("");
  expect(loaded.status).toBe(0);
  return cacheFiles(dir).entries - before;
}

function config(): Record<string, ConfigValue> {
  return {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: "site-Cache-Pass-1", secret: true },
    siteOnly: { value: "true" },
  };
}

it("puts the modules the provider host loads into the compile cache, once", async () => {
  stack = await RealStack.create("compile-cache");
  const cache = newCache();
  const env = { NODE_COMPILE_CACHE: cache };
  await stack.mustRun("up", { config: config(), env });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1 });
  // Every module the Site's implementation needs is in the cache: loading it compiles nothing.
  expect(entriesAddedByLoadingSite(stack, cache)).toBe(0);
  // What that load compiles when nothing put it there: the implementation, zod, undici, the client.
  expect(entriesAddedByLoadingSite(stack, newCache())).toBeGreaterThan(200);

  // The driver's record of it: the next run (the stack exists now) loads nothing again.
  const [record] = cacheFiles(cache).records;
  expect(record).toBeDefined();
  const listed = Object.keys(
    (JSON.parse(fs.readFileSync(record!, "utf8")) as { files: Record<string, unknown> }).files,
  );
  expect(listed).toContain(fs.realpathSync(siteEntry(stack)));
  const written = fs.statSync(record!).mtimeMs;
  await stack.mustRun("up", { config: config(), env });
  expect(fs.statSync(record!).mtimeMs).toBe(written);

  // A module that changed (a new build, a reinstalled dependency): loaded and cached again.
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(siteEntry(stack), later, later);
  await stack.mustRun("up", { config: config(), env });
  expect(fs.statSync(record!).mtimeMs).not.toBe(written);
  expect(entriesAddedByLoadingSite(stack, cache)).toBe(0);
});

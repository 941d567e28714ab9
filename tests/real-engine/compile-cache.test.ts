/**
 * Node's compile cache through the real engine. The engine kills the dynamic-provider host at the
 * end of `pulumi up`, so the host never reaches Node's own save at exit; the provider saves what
 * each lifecycle step compiled (provider/resources/common/compile-cache.ts). Without that, the
 * host compiled the Site's implementation, zod and undici anew in every run.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { RealStack } from "./support";

jest.setTimeout(180_000);

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

/** How many entries the compile cache folder holds (one file per compiled module). */
function entries(dir: string): number {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .length;
}

/**
 * Loads the Site's implementation from the consumer project (as the host resolves it) in a new
 * Node process with the compile cache `dir`, which exits normally (so Node saves what it
 * compiled); returns how many entries that added.
 */
function entriesAddedByLoadingSite(consumerDir: string, dir: string): number {
  const before = entries(dir);
  // The module itself as the main script (it only exports): no script of the test's own to
  // compile and cache.
  const loaded = spawnSync(
    process.execPath,
    [path.join(consumerDir, "node_modules/pulumi-arcgis-admin/dist/provider/resources/site.js")],
    { cwd: consumerDir, env: { ...process.env, NODE_COMPILE_CACHE: dir }, encoding: "utf8" },
  );
  expect(loaded.stderr).toBe("");
  expect(loaded.status).toBe(0);
  return entries(dir) - before;
}

it("keeps the compiled code of the modules the provider host loaded for a Site", async () => {
  stack = await RealStack.create("compile-cache");
  const cache = newCache();
  await stack.mustRun("up", {
    config: {
      adminUrl: { value: emu.adminUrl },
      caCert: { value: emu.caCert! },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: "site-Cache-Pass-1", secret: true },
      siteOnly: { value: "true" },
    },
    env: { NODE_COMPILE_CACHE: cache },
  });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1 });
  // Every module the Site's implementation needs was compiled by the host and is in the cache:
  // loading it again compiles nothing new.
  expect(entriesAddedByLoadingSite(stack.consumer.dir, cache)).toBe(0);
  // What that load compiles when nothing saved it: the implementation, zod, undici and the client.
  expect(entriesAddedByLoadingSite(stack.consumer.dir, newCache())).toBeGreaterThan(200);
});

/**
 * toolchain/object-store.cjs, the SeaweedFS build: its cache (a built weed is found, never built
 * again), its failure without Go, and the lock a second builder waits on.
 * (The build itself runs before Jest in `npm test`; here it is found in the cache.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { runTempDir } from "../../tools/harness/temp";
import * as script from "../../toolchain/object-store.cjs";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function emptyCache(): string {
  const dir = runTempDir("object-store-cache-");
  dirs.push(dir);
  return dir;
}

it("finds a weed already in its cache and builds nothing, without asking for Go", async () => {
  const cache = emptyCache();
  const bin = path.join(cache, script.SEAWEEDFS_VERSION, "bin");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "weed"), "#!/bin/sh\necho version 0\n", { mode: 0o755 });
  const found = await script.ensureObjectStore({
    env: { ...process.env, ARCGIS_ADMIN_OBJECT_STORE_CACHE: cache, PATH: "/nonexistent" },
    log: () => undefined,
  });
  expect(found).toMatchObject({ bin: path.join(bin, "weed"), built: false });
});

it("says what to install when there is no Go, and leaves the cache without a lock", async () => {
  const cache = emptyCache();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ARCGIS_ADMIN_OBJECT_STORE_CACHE: cache,
    PATH: "/nonexistent",
  };
  delete env.GOROOT;
  await expect(script.ensureObjectStore({ env, log: () => undefined })).rejects.toThrow(
    /Building SeaweedFS .* needs Go, and there is no `go` on PATH[\s\S]*Install Go 1\.26 or later \(https:\/\/go\.dev\/doc\/install\)/,
  );
  expect(fs.existsSync(path.join(cache, ".lock"))).toBe(false);
});

it("waits for a live builder's lock, then uses what it built", async () => {
  const cache = emptyCache();
  const lock = path.join(cache, ".lock");
  fs.mkdirSync(lock, { recursive: true });
  // This process holds it, as a concurrent builder would.
  fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
  const lines: string[] = [];
  const waiting = script.ensureObjectStore({
    env: { ...process.env, ARCGIS_ADMIN_OBJECT_STORE_CACHE: cache },
    log: (line) => lines.push(line),
  });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(lines.join("\n")).toMatch(/Another process \(\d+\) is building SeaweedFS; waiting for it/);
  // The builder finishes: its weed is in place and the lock released.
  const bin = path.join(cache, script.SEAWEEDFS_VERSION, "bin");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "weed"), "#!/bin/sh\necho version 0\n", { mode: 0o755 });
  fs.rmSync(lock, { recursive: true, force: true });
  expect(await waiting).toMatchObject({ bin: path.join(bin, "weed"), built: false });
});

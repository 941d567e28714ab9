/**
 * scripts/engine.cjs, the engine build: its cache, its launcher, and its failure without Go.
 * (The build itself runs before Jest in `npm test`; here it is found in the cache.)
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../engine/harness";
import { engine } from "./support";

const SCRIPT = path.join(REPO_ROOT, "scripts", "engine.cjs");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const script = require(SCRIPT);

it("builds pulumi at the version of @pulumi/pulumi in package-lock.json, or says why not", () => {
  const lock = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8"));
  const sdk = lock.packages["node_modules/@pulumi/pulumi"].version as string;
  expect(script.candidateVersions({})).toEqual(
    sdk === script.FALLBACK_VERSION ? [sdk] : [sdk, script.FALLBACK_VERSION],
  );
});

it("reuses the cached engine at once: a pulumi that reports its version, and the launcher", async () => {
  const started = Date.now();
  const found = await engine();
  expect(Date.now() - started).toBeLessThan(2000);
  expect(found.bin).toBe(path.join(found.root, "bin", "pulumi"));
  expect(found.root.startsWith(REPO_ROOT)).toBe(false);
  const version = spawnSync(found.bin, ["version"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  });
  expect(version.stdout.trim()).toBe(`v${found.version}`);
  const launcher = path.join(found.root, "bin", "pulumi-resource-pulumi-nodejs");
  expect(fs.readFileSync(launcher, "utf8")).toBe(script.launcherScript());
  expect(fs.statSync(launcher).mode & 0o111).not.toBe(0);
});

it("fails at once, saying what to install, when Go is missing", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "engine-cache-"));
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: path.dirname(process.execPath),
      ARCGIS_ADMIN_ENGINE_CACHE: cache,
    };
    delete env.GOROOT;
    const started = Date.now();
    const result = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8", env });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      "Building the Pulumi engine needs Go, and there is no `go` on PATH",
    );
    expect(result.stderr).toContain("https://go.dev/doc/install");
    expect(fs.readdirSync(cache)).toEqual([]);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

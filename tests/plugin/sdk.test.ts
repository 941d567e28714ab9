/**
 * The SDKs `npm run sdk` writes (toolchain/sdk.cjs) from the built package's schema: a Python wheel
 * versioned as the package, and a Go SDK with its own go.mod that compiles; and the build of their
 * generator (toolchain/sdkgen.cjs): found in its cache, a clear failure without Go. (The generator
 * itself is built here when the cache lacks it: about a minute, once.)
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";
import * as sdkgen from "../../toolchain/sdkgen.cjs";
import * as sdk from "../../toolchain/sdk.cjs";
import { pluginDownloadUrl } from "../../provider/plugin/schema";

jest.setTimeout(600_000);

const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
};
const dirs: string[] = [];
let written: Awaited<ReturnType<typeof sdk.writeSdks>>;

function tempDir(prefix: string): string {
  const dir = runTempDir(prefix);
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, "dist", "provider", "plugin", "schema.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm test does).");
  }
  written = await sdk.writeSdks({
    out: tempDir("arcgis-sdk-"),
    log: (line) => process.stderr.write(`${line}\n`),
  });
}, 600_000);

afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

it("builds a Python wheel versioned as the package, naming the plugin at that version", () => {
  expect(path.basename(written.wheel!)).toBe(`pulumi_arcgis_admin-${version}-py3-none-any.whl`);
  // The engine picks the plugin by the version in the SDK's pulumi-plugin.json, and fetches it
  // from its server (the schema's pluginDownloadURL) when it is not installed.
  const listed = spawnSync(
    "python3",
    [
      "-c",
      "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); " +
        "print(z.read('pulumi_arcgis_admin/pulumi-plugin.json').decode())",
      written.wheel!,
    ],
    { encoding: "utf8" },
  );
  expect(listed.status).toBe(0);
  expect(JSON.parse(listed.stdout)).toEqual({
    resource: true,
    name: "arcgis-admin",
    version,
    server: pluginDownloadUrl(),
  });
});

it("writes a Go SDK with its own go.mod on Pulumi's Go SDK at the generator's version, which compiles", () => {
  // writeSdks ran `go build ./...` in it: it compiles, or beforeAll failed.
  const gomod = fs.readFileSync(path.join(written.goDir!, "go.mod"), "utf8");
  expect(gomod).toMatch(new RegExp(`^module ${sdk.GO_MODULE}$`, "m"));
  expect(gomod).toContain(`github.com/pulumi/pulumi/sdk/v3 v${sdkgen.pkgVersion()}`);
  const plugin = JSON.parse(
    fs.readFileSync(path.join(written.goDir!, "arcgisadmin", "pulumi-plugin.json"), "utf8"),
  ) as unknown;
  expect(plugin).toEqual({
    resource: true,
    name: "arcgis-admin",
    version,
    server: pluginDownloadUrl(),
  });
});

it("finds the generator in its cache and builds nothing, without asking for Go", async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: "/nonexistent" };
  delete env.GOROOT;
  const found = await sdkgen.ensureSdkgen({ env, log: () => undefined });
  expect(found).toMatchObject({ built: false, pkgVersion: sdkgen.pkgVersion() });
  expect(fs.existsSync(found.bin)).toBe(true);
});

it("says what to install when there is no Go, and leaves the cache without a lock", async () => {
  const cache = tempDir("sdkgen-cache-");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ARCGIS_ADMIN_SDKGEN_CACHE: cache,
    PATH: "/nonexistent",
  };
  delete env.GOROOT;
  await expect(sdkgen.ensureSdkgen({ env, log: () => undefined })).rejects.toThrow(
    /Building the SDK generator \(toolchain\/sdkgen\) needs Go, and there is no `go` on PATH[\s\S]*Install Go 1\.21 or later \(https:\/\/go\.dev\/doc\/install\)/,
  );
  expect(fs.existsSync(path.join(cache, ".lock"))).toBe(false);
});

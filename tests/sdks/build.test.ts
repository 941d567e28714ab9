/**
 * The SDKs `npm run sdk` writes (toolchain/sdk.cjs) from the built package's schema: a Python wheel
 * and sdist versioned as the package, a Go SDK with its own go.mod that compiles, and the Node.js
 * SDK packed as an npm tarball; `--language` refusing what it does not build; and the build of their
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

it("builds a Python sdist versioned as the package, holding pulumi-plugin.json", () => {
  expect(path.basename(written.sdist!)).toBe(`pulumi_arcgis_admin-${version}.tar.gz`);
  const listed = spawnSync("tar", ["-tzf", written.sdist!], { encoding: "utf8" });
  expect(listed.status).toBe(0);
  expect(listed.stdout).toContain(
    `pulumi_arcgis_admin-${version}/pulumi_arcgis_admin/pulumi-plugin.json`,
  );
});

it("packs the Node.js SDK the schema names as an npm tarball, compiled, naming the plugin", () => {
  expect(path.basename(written.nodejsTarball!)).toBe(`pulumi-arcgis-admin-sdk-${version}.tgz`);
  const manifest = spawnSync("tar", ["-xzOf", written.nodejsTarball!, "package/package.json"], {
    encoding: "utf8",
  });
  expect(manifest.status).toBe(0);
  expect(JSON.parse(manifest.stdout)).toMatchObject({
    name: "pulumi-arcgis-admin-sdk",
    version,
    pulumi: { resource: true, name: "arcgis-admin", version },
  });
  const files = spawnSync("tar", ["-tzf", written.nodejsTarball!], { encoding: "utf8" }).stdout;
  expect(files).toContain("package/index.js");
  expect(files).toContain("package/index.d.ts");
});

it("refuses a --language it does not build, naming those it does", () => {
  const result = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, "toolchain", "sdk.cjs"), "--language", "java"],
    { encoding: "utf8" },
  );
  expect(result.status).toBe(2);
  expect(result.stderr).toContain("Unknown --language java: python, go, nodejs.");
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

it("builds a Go program on the Go SDK, with the go.mod lines docs/plugin.md gives", () => {
  // No Go program runs through the engine: Pulumi's Go language host is not on the Go module proxy.
  const dir = tempDir("arcgis-go-program-");
  fs.writeFileSync(
    path.join(dir, "main.go"),
    [
      "package main",
      "",
      "import (",
      '\tarcgisadmin "github.com/pulumi-arcgis-admin/sdk/go/arcgisadmin"',
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      ")",
      "",
      "func main() {",
      "\tpulumi.Run(func(ctx *pulumi.Context) error {",
      '\t\tsite, err := arcgisadmin.NewSite(ctx, "site", &arcgisadmin.SiteArgs{})',
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
      '\t\tctx.Export("adminUrl", site.AdminUrl)',
      "\t\treturn nil",
      "\t})",
      "}",
      "",
    ].join("\n"),
  );
  const go = (...args: string[]) => {
    const result = spawnSync("go", args, { cwd: dir, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`go ${args.join(" ")} failed:\n${result.stderr}`);
  };
  go("mod", "init", "example.com/sites");
  go(
    "mod",
    "edit",
    `-require=${sdk.GO_MODULE}@v0.0.0`,
    `-replace=${sdk.GO_MODULE}=${written.goDir!}`,
  );
  go("mod", "tidy");
  go("build", "-o", path.join(dir, "sites"), ".");
  expect(fs.existsSync(path.join(dir, "sites"))).toBe(true);
}, 600_000);

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

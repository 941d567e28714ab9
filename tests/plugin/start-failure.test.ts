/**
 * What the plugin itself prints when it cannot start (provider/plugin/main.ts): one line, once,
 * naming what to do, and no stack trace; the engine adds its own words around it. Here the npm
 * package's plugin is run from a copy of the built package installed without its dependencies.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

let tmp: string;
beforeAll(() => {
  tmp = runTempDir("start-failure-");
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

it("says in one line which module is missing and how to install the plugin, when a dependency is not installed", () => {
  const pkg = path.join(tmp, "node_modules", "pulumi-arcgis-admin");
  fs.cpSync(path.join(REPO_ROOT, "dist", "provider"), path.join(pkg, "dist", "provider"), {
    recursive: true,
  });
  fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(pkg, "package.json"));
  const run = spawnSync(
    process.execPath,
    [path.join(pkg, "dist", "provider", "plugin", "main.js"), "127.0.0.1:1"],
    { encoding: "utf8", env: { ...process.env, NODE_PATH: "" } },
  );
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^pulumi-resource-arcgis-admin: cannot start: the module '[^']+' it loads is not installed\. /,
  );
  expect(lines[0]).toContain("npm install pulumi-arcgis-admin @pulumi/pulumi");
  expect(lines[0]).toContain("or install the plugin archive");
});

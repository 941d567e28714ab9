/**
 * bin/pulumi-resource-arcgis-admin, the plugin's launcher: it runs the Node.js that
 * ARCGIS_ADMIN_NODE names, else `node` on PATH, and refuses one older than 22.19 (what the
 * package's `engines` accepts) with one line saying what to do, naming a Node.js that is on the
 * machine when there is one; through a symbolic link (npm's bin folders) it still finds the
 * package's compiled entry.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { runTempDir } from "../../tools/harness/temp";

const LAUNCHER = path.join(__dirname, "..", "..", "bin", "pulumi-resource-arcgis-admin");
/** The Node.js that `npm ci` installed in this clone (the `node` devDependency). */
const NPM_CI_NODE = path.resolve(__dirname, "..", "..", "node_modules", "node", "bin", "node");

/** A Node.js older than 22.19: the system's when it is one, else a stand-in that reports 22.18.0. */
function oldNode(dir: string): { bin: string; version: string } {
  for (const candidate of ["/usr/bin/node", "/bin/node", "/usr/local/bin/node"]) {
    const run = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" });
    const version = run.stdout?.trim() ?? "";
    const [major = 0, minor = 0] = version.split(".").map(Number);
    if (run.status === 0 && (major < 22 || (major === 22 && minor < 19))) {
      return { bin: candidate, version };
    }
  }
  const bin = path.join(dir, "node");
  fs.writeFileSync(bin, '#!/bin/sh\n[ "$1" = "-p" ] && echo 22.18.0 && exit 0\nexit 3\n', {
    mode: 0o755,
  });
  return { bin, version: "22.18.0" };
}

let tmp: string;
beforeEach(() => {
  tmp = runTempDir("launcher-");
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

it("refuses the Node.js of ARCGIS_ADMIN_NODE when it is older than 22.19, saying what to do", () => {
  const old = oldNode(tmp);
  const run = spawnSync(LAUNCHER, [], {
    encoding: "utf8",
    env: { ...process.env, ARCGIS_ADMIN_NODE: old.bin },
  });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain(
    `needs Node.js 22.19 or later; '${old.bin}' (from ARCGIS_ADMIN_NODE) is ${old.version}.`,
  );
  // One line, naming a Node.js that is on this machine: the one `npm ci` installed here.
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr).toContain(`Set ARCGIS_ADMIN_NODE=${NPM_CI_NODE} (a Node.js `);
});

it("names a Node.js installed beside the package when none on PATH will do, or says to install one", () => {
  const old = oldNode(tmp);
  // An npm prefix with the package and the registry's `node` package beside it.
  const modules = path.join(tmp, "prefix", "node_modules");
  const launcher = path.join(modules, "pulumi-arcgis-admin", "bin", "pulumi-resource-arcgis-admin");
  fs.mkdirSync(path.dirname(launcher), { recursive: true });
  fs.copyFileSync(LAUNCHER, launcher);
  fs.chmodSync(launcher, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, ARCGIS_ADMIN_NODE: old.bin, HOME: tmp };
  env.PATH = "/usr/bin:/bin";
  const alone = spawnSync(launcher, [], { encoding: "utf8", env });
  expect(alone.status).toBe(1);
  expect(alone.stderr).toContain("Install Node.js 22.19 or later and set ARCGIS_ADMIN_NODE");

  fs.mkdirSync(path.join(modules, "node", "bin"), { recursive: true });
  fs.symlinkSync(process.execPath, path.join(modules, "node", "bin", "node"));
  const beside = spawnSync(launcher, [], { encoding: "utf8", env });
  expect(beside.status).toBe(1);
  expect(beside.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(beside.stderr).toContain(
    `Set ARCGIS_ADMIN_NODE=${path.join(fs.realpathSync(modules), "node", "bin", "node")} (a Node.js ${process.versions.node} on this machine)`,
  );
});

it("refuses an old `node` on PATH the same way, naming PATH", () => {
  const old = oldNode(tmp);
  const dir = path.join(tmp, "path");
  fs.mkdirSync(dir);
  fs.symlinkSync(old.bin, path.join(dir, "node"));
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dir}:/usr/bin:/bin` };
  delete env.ARCGIS_ADMIN_NODE;
  const run = spawnSync(LAUNCHER, [], { encoding: "utf8", env });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain(`'node' (from PATH) is ${old.version}`);
});

it("says so when the node it is told to run does not run", () => {
  const run = spawnSync(LAUNCHER, [], {
    encoding: "utf8",
    env: { ...process.env, ARCGIS_ADMIN_NODE: path.join(tmp, "missing") },
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("cannot run Node.js");
  expect(run.stderr).toContain(`Set ARCGIS_ADMIN_NODE=${NPM_CI_NODE}`);
});

it("runs the package's entry with an accepted Node.js, also through a symbolic link", () => {
  // A package folder as npm installs it: bin/ with the launcher, dist/ with the entry.
  const pkg = path.join(tmp, "node_modules", "pulumi-arcgis-admin");
  fs.mkdirSync(path.join(pkg, "bin"), { recursive: true });
  fs.copyFileSync(LAUNCHER, path.join(pkg, "bin", "pulumi-resource-arcgis-admin"));
  fs.chmodSync(path.join(pkg, "bin", "pulumi-resource-arcgis-admin"), 0o755);
  const entry = path.join(pkg, "dist", "provider", "plugin");
  fs.mkdirSync(entry, { recursive: true });
  fs.writeFileSync(
    path.join(entry, "main.js"),
    "process.stdout.write(process.versions.node + ' ' + process.argv.slice(2).join(' '));",
  );
  const links = path.join(tmp, "node_modules", ".bin");
  fs.mkdirSync(links);
  fs.symlinkSync(
    "../pulumi-arcgis-admin/bin/pulumi-resource-arcgis-admin",
    path.join(links, "pulumi-resource-arcgis-admin"),
  );
  const run = spawnSync(path.join(links, "pulumi-resource-arcgis-admin"), ["127.0.0.1:1"], {
    encoding: "utf8",
    env: { ...process.env, ARCGIS_ADMIN_NODE: process.execPath },
  });
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe(`${process.versions.node} 127.0.0.1:1`);
});

/**
 * The self-contained plugin archive as users get it, through the real `pulumi` CLI, on a machine
 * whose `node` is too old for the package (this machine's system Node.js) or absent from PATH,
 * with no clone and no npm package in the project:
 *
 * - `npm run plugin-archive`'s command writes `pulumi-resource-arcgis-admin-v<version>-<os>-<arch>
 *   .tar.gz`, the executable at its root, and leaves nothing in the temporary folder;
 * - `pulumi plugin install resource arcgis-admin <version> --file <archive>` installs it, and a
 *   YAML program runs `pulumi up` and `pulumi destroy` with it, no Node.js on PATH;
 * - served from a local HTTP server named by the schema's `pluginDownloadURL`, it is acquired by
 *   the engine on a PULUMI_HOME without it: for a Python program using the SDK generated from that
 *   schema (`npm run sdk -- --language python`), and for a YAML program naming the location in its
 *   resource options; both then run `pulumi up`.
 *
 * The suite runs last in `npm test` (tests/sequencer.cjs): it builds the archive.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliProject } from "../../tools/harness/cli-project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  buildHostArchive,
  cliPath,
  pluginVersion,
  serveReleases,
  type ReleaseServer,
} from "../../tools/harness/plugin-archive";
import { run } from "../../tools/harness/process";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

jest.setTimeout(600_000);

const SITE_PASSWORD = "archive-Site-Admin-1";
const PYTHON_PULUMI = "pulumi==3.272.0";

let releases: string;
let server: ReleaseServer;
let archive: string;
const projects: CliProject[] = [];
const emulators: TestEmulator[] = [];

beforeAll(async () => {
  releases = runTempDir("plugin-releases-");
  server = await serveReleases(releases);
}, 60_000);

afterAll(async () => {
  for (const project of projects) await project.cleanup();
  for (const emu of emulators) await emu.close();
  await server?.close();
  if (releases !== undefined) fs.rmSync(releases, { recursive: true, force: true });
});

/**
 * A project of its own (no package installed) whose CLI has a fresh PULUMI_HOME, automatic
 * plugin acquisition on, and no Node.js on PATH (or the system's old one).
 */
async function project(systemNode: boolean, allowAcquisition: boolean): Promise<CliProject> {
  const p = await CliProject.bare();
  projects.push(p);
  p.envChanges.PATH = cliPath(p.engineInfo.bin, path.join(p.tmp, "tools"), systemNode);
  p.envChanges.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = allowAcquisition ? undefined : "true";
  return p;
}

/** A new emulator and the stack config of a Site on it, passwords as secrets. */
async function configureSite(p: CliProject): Promise<TestEmulator> {
  const emu = await startTestEmulator({ createDelayMs: 0 });
  emulators.push(emu);
  await p.mustCli(["stack", "init", "dev"]);
  await p.mustCli([
    "config",
    "set-all",
    ...["--plaintext", `arcgis-admin:adminUrl=${emu.adminUrl}`],
    ...["--plaintext", "arcgis-admin:username=siteadmin"],
    ...["--plaintext", `arcgis-admin:caCert=${emu.caCert!}`],
  ]);
  await p.setSecrets({ "arcgis-admin:password": SITE_PASSWORD });
  return emu;
}

/** The YAML program of one Site, with `options` for it (e.g. pluginDownloadURL). */
function writeYamlProgram(p: CliProject, options?: Record<string, string>): void {
  const lines = [
    "name: archive-yaml",
    "runtime: yaml",
    "resources:",
    "  site:",
    "    type: arcgis-admin:index:Site",
    ...(options === undefined
      ? []
      : ["    options:", ...Object.entries(options).map(([k, v]) => `      ${k}: ${v}`)]),
    "outputs:",
    "  siteState: ${site.state}",
    "",
  ];
  fs.writeFileSync(path.join(p.dir, "Pulumi.yaml"), lines.join("\n"));
}

/** Throws with what a command printed when it failed. */
function succeeded(result: { code: number | null; stdout: string; stderr: string }, what: string) {
  if (result.code !== 0) throw new Error(`${what} failed:\n${result.stdout}${result.stderr}`);
}

/** The plugin versions installed in a project's PULUMI_HOME. */
function installedPlugins(p: CliProject): string[] {
  const dir = path.join(p.home, "plugins");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

it("builds the archive with one command, laid out as Pulumi expects, leaving no temporary folder", async () => {
  const built = await buildHostArchive(releases, server.url);
  archive = built.file;
  expect(path.basename(archive)).toMatch(
    /^pulumi-resource-arcgis-admin-v\d+\.\d+\.\d+-(linux|darwin|windows)-(amd64|arm64)\.tar\.gz$/,
  );
  expect(built.leftInTmp).toEqual([]);
  const listed = await run("tar", ["-tzvf", archive], { cwd: releases, timeoutMs: 60_000 });
  const entries = listed.stdout.split("\n").filter(Boolean);
  // The executable at the root, executable; the runtime and the code below lib/.
  expect(entries.find((e) => / pulumi-resource-arcgis-admin$/.test(e))).toMatch(/^-rwx/);
  for (const file of ["lib/node", "lib/main.js", "lib/export-worker.js", "LICENSE"]) {
    expect(entries.some((e) => e.endsWith(` ${file}`))).toBe(true);
  }
  expect(entries.some((e) => /node_modules/.test(e))).toBe(false);
});

it("has its size and cold start measured by the benchmark's script (quick mode)", async () => {
  const bench = await run(
    process.execPath,
    [path.join(REPO_ROOT, "bench", "plugin-archive.cjs"), archive, "--quick"],
    { cwd: REPO_ROOT, timeoutMs: 120_000 },
  );
  succeeded(bench, "bench/plugin-archive.cjs --quick");
  const measured = JSON.parse(bench.stdout) as {
    archiveBytes: number;
    coldStartMs: { archive: number; npmPackage: number };
  };
  expect(measured.archiveBytes).toBe(fs.statSync(archive).size);
  expect(measured.coldStartMs.archive).toBeGreaterThan(0);
  expect(measured.coldStartMs.npmPackage).toBeGreaterThan(0);
});

it("installs with `pulumi plugin install --file` and runs a YAML program with no Node.js on PATH", async () => {
  const p = await project(false, false);
  expect((await p.cli(["version"])).code).toBe(0);
  const onPath = (p.env().PATH ?? "").split(path.delimiter);
  expect(onPath.filter((dir) => fs.existsSync(path.join(dir, "node")))).toEqual([]);
  const version = pluginVersion();
  await p.mustCli(["plugin", "install", "resource", "arcgis-admin", version, "--file", archive]);
  expect(installedPlugins(p)).toEqual([`resource-arcgis-admin-v${version}`]);

  writeYamlProgram(p);
  const emu = await configureSite(p);
  const up = await p.deploy("up", [], { skipPreview: true });
  expect(up.changeSummary).toMatchObject({ create: 2 });
  expect(up.outputs).toMatchObject({ siteState: "created" });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1 });
  await p.deploy("destroy");
  // Nothing was downloaded: the installed archive ran.
  expect(server.requests).toEqual([]);
});

it("is acquired from the schema's pluginDownloadURL by a Python program using the SDK, then runs pulumi up", async () => {
  const p = await project(true, true);
  // The SDK as `npm run sdk -- --language python` builds it, with the release location set.
  const sdk = path.join(p.tmp, "sdk");
  const built = await run(
    process.execPath,
    [path.join(REPO_ROOT, "toolchain", "sdk.cjs"), "--language", "python", "--out", sdk],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ARCGIS_ADMIN_PLUGIN_DOWNLOAD_URL: server.url },
      timeoutMs: 300_000,
    },
  );
  succeeded(built, "npm run sdk -- --language python");
  const schema = JSON.parse(fs.readFileSync(path.join(sdk, "schema.json"), "utf8")) as {
    pluginDownloadURL: string;
    version: string;
  };
  expect(schema).toMatchObject({ pluginDownloadURL: server.url, version: pluginVersion() });
  const wheel = fs.readdirSync(path.join(sdk, "dist")).find((f) => f.endsWith(".whl"))!;

  fs.writeFileSync(
    path.join(p.dir, "Pulumi.yaml"),
    [
      "name: archive-python",
      "runtime:",
      "  name: python",
      "  options:",
      "    toolchain: pip",
      "    virtualenv: venv",
      "",
    ].join("\n"),
  );
  fs.writeFileSync(
    path.join(p.dir, "__main__.py"),
    [
      "import pulumi",
      "import pulumi_arcgis_admin as arcgis",
      "",
      'site = arcgis.Site("site")',
      'pulumi.export("siteState", site.state)',
      "",
    ].join("\n"),
  );
  const venv = await p.shell(
    `python3 -m venv venv && venv/bin/pip install --disable-pip-version-check -q '${PYTHON_PULUMI}' '${path.join(sdk, "dist", wheel)}'`,
  );
  succeeded(venv, "the virtualenv");

  const emu = await configureSite(p);
  expect(installedPlugins(p)).toEqual([]);
  const up = await p.deploy("up", [], { skipPreview: true });
  expect(up.changeSummary).toMatchObject({ create: 2 });
  expect(up.outputs).toMatchObject({ siteState: "created" });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1 });
  expect(server.requests).toContain(path.basename(archive));
  expect(installedPlugins(p)).toEqual([`resource-arcgis-admin-v${pluginVersion()}`]);
});

it("is acquired from pluginDownloadURL in a YAML program's resource options, then runs pulumi up", async () => {
  const p = await project(true, true);
  const asked = server.requests.length;
  writeYamlProgram(p, { pluginDownloadURL: server.url, version: pluginVersion() });
  const emu = await configureSite(p);
  expect(installedPlugins(p)).toEqual([]);
  const up = await p.deploy("up", [], { skipPreview: true });
  expect(up.changeSummary).toMatchObject({ create: 2 });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1 });
  expect(server.requests.slice(asked)).toContain(path.basename(archive));
  expect(installedPlugins(p)).toEqual([`resource-arcgis-admin-v${pluginVersion()}`]);
});

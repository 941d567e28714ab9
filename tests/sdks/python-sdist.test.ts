/**
 * The Python SDK's sdist, as `npm run sdk -- --language python` builds it, installed with pip (which
 * builds it with setuptools) into a fresh virtualenv beside Pulumi's Python SDK, in a Python project
 * run with the Pulumi CLI: the provider plugin installed from the packed package (docs/plugin.md),
 * the connection defaults in the stack config. A program declaring a Site runs `pulumi up`, `up
 * --expect-no-changes` and `destroy` against the emulator. (The wheel runs the same way in
 * tests/real-engine/quickstart-python.test.ts.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeDispatchers } from "../../provider/client";
import { CliProject } from "../../tools/harness/cli-project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { run } from "../../tools/harness/process";
import { stateResources } from "../../tools/harness/engine-events";
import * as pythonSdk from "../../toolchain/python-sdk.cjs";
import * as sdk from "../../toolchain/sdk.cjs";
import { pluginDownloadUrl } from "../../provider/plugin/schema";

jest.setTimeout(300_000);

const SITE_PASSWORD = "py-Sdist-Site-Admin-1";

let emu: TestEmulator;
let project: CliProject | undefined;
let sdist: string;

/** Runs a command in the project folder with the CLI's environment; throws with its output. */
async function mustRun(command: string, args: readonly string[]): Promise<string> {
  const result = await run(command, args, {
    cwd: project!.dir,
    env: project!.env(),
    timeoutMs: 280_000,
  });
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 20 });
  project = await CliProject.create();
  const written = await sdk.writeSdks({
    out: path.join(project.tmp, "sdk"),
    languages: ["python"],
    log: () => undefined,
  });
  sdist = written.sdist!;
  fs.writeFileSync(
    path.join(project.dir, "Pulumi.yaml"),
    [
      "name: arcgis-sdk-python",
      "runtime:",
      "  name: python",
      "  options:",
      "    toolchain: pip",
      "    virtualenv: venv",
      "",
    ].join("\n"),
  );
  fs.writeFileSync(
    path.join(project.dir, "__main__.py"),
    [
      "import pulumi",
      "import pulumi_arcgis_admin as arcgis",
      "",
      'site = arcgis.Site("site", server_type="mission-server")',
      'pulumi.export("site_state", site.state)',
      "",
    ].join("\n"),
  );
  await mustRun("python3", ["-m", "venv", "venv"]);
  await mustRun(path.join(project.dir, "venv", "bin", "pip"), [
    "install",
    "--disable-pip-version-check",
    "-q",
    `pulumi==${pythonSdk.PULUMI_VERSION}`,
    sdist,
  ]);
  await project.installPlugin();
  await project.mustCli(["stack", "init", "dev"]);
  await project.mustCli([
    "config",
    "set-all",
    ...["--plaintext", `arcgis-admin:adminUrl=${emu.adminUrl}`],
    ...["--plaintext", "arcgis-admin:username=siteadmin"],
    ...["--plaintext", `arcgis-admin:caCert=${emu.caCert!}`],
  ]);
  await project.setSecrets({ "arcgis-admin:password": SITE_PASSWORD });
}, 300_000);

afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
  await closeDispatchers();
});

it("installs the sdist with pip, at the package's version, naming the plugin at that version", async () => {
  const { version } = JSON.parse(
    fs.readFileSync(path.join(project!.packageDir, "package.json"), "utf8"),
  ) as { version: string };
  expect(path.basename(sdist)).toBe(`pulumi_arcgis_admin-${version}.tar.gz`);
  const shown = await mustRun(path.join(project!.dir, "venv", "bin", "python"), [
    "-c",
    "import importlib.metadata as m, importlib.resources as r; " +
      "print(m.version('pulumi_arcgis_admin')); " +
      "print(r.files('pulumi_arcgis_admin').joinpath('pulumi-plugin.json').read_text())",
  ]);
  const [installed, ...plugin] = shown.trim().split("\n");
  expect(installed).toBe(version);
  // The engine runs the plugin at this version for the SDK's resources.
  expect(JSON.parse(plugin.join("\n"))).toEqual({
    resource: true,
    name: "arcgis-admin",
    version,
    server: pluginDownloadUrl(),
  });
});

it("runs a Python program on the SDK from the sdist: up, up --expect-no-changes, destroy", async () => {
  const up = await project!.deploy("up", [], { skipPreview: true });
  expect(up.changeSummary).toMatchObject({ create: 2 });
  expect(up.outputs).toMatchObject({ site_state: "created" });
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1 });
  const state = await project!.exportState();
  expect(stateResources(state).find((r) => r.urn.endsWith("::site"))?.type).toBe(
    "arcgis-admin:index:Site",
  );
  expect(JSON.stringify(state)).not.toContain(SITE_PASSWORD);

  await project!.mustCli(["up", "--yes", "--skip-preview", "--expect-no-changes"], 240_000);
  const destroyed = await project!.deploy("destroy", [], { skipPreview: true });
  expect(destroyed.changeSummary).toMatchObject({ delete: 2 });
});

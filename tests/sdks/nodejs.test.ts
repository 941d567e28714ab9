/**
 * The Node.js SDK the schema names (`pulumi-arcgis-admin-sdk`), as `npm run sdk -- --language
 * nodejs` packs it, in a TypeScript project run with the Pulumi CLI: the provider plugin installed
 * from the packed package (docs/plugin.md), the SDK's tarball installed as `npm install` would,
 * the connection defaults in the stack config. A program declaring a Site runs `pulumi up`, `up
 * --expect-no-changes` and `destroy` against the emulator; then `pulumi import` of that site (left
 * on the server by the destroy, as a Site's destroy does) prints TypeScript for the SDK (the
 * project's Node.js language host's GenerateProgram, Pulumi's own Node.js code generator), which,
 * made the program, gives `up --expect-no-changes`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeDispatchers } from "../../provider/client";
import { CliProject } from "../../tools/harness/cli-project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { stateResources } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";
import * as sdk from "../../toolchain/sdk.cjs";
import { pluginDownloadUrl } from "../../provider/plugin/schema";

jest.setTimeout(300_000);

const SITE_PASSWORD = "ts-Sdk-Site-Admin-1";
const SDK_PACKAGE = "pulumi-arcgis-admin-sdk";

let emu: TestEmulator;
let project: CliProject | undefined;
let sdkOut: string;
let tarball: string;
const printed: string[] = [];

beforeAll(async () => {
  sdkOut = runTempDir("arcgis-sdk-nodejs-");
  const written = await sdk.writeSdks({ out: sdkOut, languages: ["nodejs"] });
  tarball = written.nodejsTarball!;
  emu = await startTestEmulator({ createDelayMs: 20 });
  project = await CliProject.create(undefined, { tarballs: [tarball] });
  fs.writeFileSync(
    path.join(project.dir, "Pulumi.yaml"),
    "name: arcgis-sdk-nodejs\nruntime: nodejs\ndescription: A TypeScript program on the Node.js SDK\n",
  );
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
  fs.rmSync(sdkOut, { recursive: true, force: true });
});

/** Writes the program `pulumi up` runs. */
function program(source: string): void {
  fs.writeFileSync(path.join(project!.dir, "index.ts"), source);
}

async function cli(args: readonly string[]): Promise<string> {
  const result = await project!.cli(args, 240_000);
  printed.push(result.stdout, result.stderr);
  if (result.code !== 0) {
    throw new Error(`pulumi ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return `${result.stdout}\n${result.stderr}`;
}

it("packs the SDK the schema names, naming the plugin at the package's version", () => {
  const { version } = JSON.parse(
    fs.readFileSync(
      path.join(project!.consumer!.dir, "node_modules", SDK_PACKAGE, "package.json"),
      "utf8",
    ),
  ) as { version: string; pulumi: unknown };
  expect(path.basename(tarball)).toBe(`${SDK_PACKAGE}-${version}.tgz`);
  const manifest = JSON.parse(
    fs.readFileSync(
      path.join(project!.consumer!.dir, "node_modules", SDK_PACKAGE, "package.json"),
      "utf8",
    ),
  ) as { pulumi: unknown };
  // The engine runs the plugin at this version for the SDK's resources.
  expect(manifest.pulumi).toEqual({
    resource: true,
    name: "arcgis-admin",
    version,
    server: pluginDownloadUrl(),
  });
  expect(
    fs.existsSync(path.join(project!.consumer!.dir, "node_modules", SDK_PACKAGE, "index.d.ts")),
  ).toBe(true);
});

it("runs a TypeScript program on the SDK: up, up --expect-no-changes, destroy", async () => {
  program(
    [
      'import * as arcgis from "pulumi-arcgis-admin-sdk";',
      "",
      'const site = new arcgis.Site("site", { serverType: "mission-server" });',
      "export const siteState = site.state;",
      "export const adminUrl = site.adminUrl;",
      "",
    ].join("\n"),
  );
  const up = await project!.deploy("up", [], { skipPreview: true });
  expect(up.changeSummary).toMatchObject({ create: 2 });
  expect(up.outputs).toMatchObject({ siteState: "created", adminUrl: emu.adminUrl });
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1 });
  const state = await project!.exportState();
  const site = stateResources(state).find((r) => r.urn.endsWith("::site"));
  expect(site?.type).toBe("arcgis-admin:index:Site");
  expect(JSON.stringify(state)).not.toContain(SITE_PASSWORD);

  await cli(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  const destroyed = await project!.deploy("destroy", [], { skipPreview: true });
  expect(destroyed.changeSummary).toMatchObject({ delete: 2 });
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1 });
});

it("pulumi import prints TypeScript for the SDK; as the program, up changes nothing", async () => {
  program("export {};\n");
  const out = path.join(project!.tmp, "imported.ts");
  const said = await cli([
    "import",
    "arcgis-admin:index:Site",
    ...["site", emu.adminUrl, "--yes", "--skip-preview", "--protect=false", "--out", out],
  ]);
  expect(said).not.toMatch(/GenerateProgram not implemented/);
  const generated = fs.readFileSync(out, "utf8");
  // As docs/import.md shows it.
  expect(generated).toContain('import * as arcgis_admin from "pulumi-arcgis-admin-sdk";');
  expect(generated).toContain('new arcgis_admin.Site("site", {');
  expect(generated).toContain(`adminUrl: "${emu.adminUrl}"`);
  expect(generated).toContain('serverType: "mission-server"');
  // The credentials and the CA come from the stack config at every run, never from the code.
  expect(generated).not.toMatch(/password|username|caCert|BEGIN CERTIFICATE/i);
  const imported = stateResources(await project!.exportState()).find((r) =>
    r.urn.endsWith("::site"),
  );
  expect(imported?.outputs).toMatchObject({ state: "adopted" });

  program(generated);
  const unchanged = await cli(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(unchanged).toMatch(/2 unchanged/);
  await project!.deploy("destroy", [], { skipPreview: true });
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1 });
});

/**
 * The commands of docs/your-own-program.md ("A new TypeScript project", the same as README's "One
 * complete example") and of docs/import.md, run as the pages write them, through bash and the real
 * `pulumi` CLI against the emulator: each ```sh block is read from the markdown, so the pages
 * cannot drift from what works. Only the placeholders are filled (`<clone>`: a folder holding the
 * tarball `npm pack` makes of this repository, under the name the pages give; `<admin URL>`,
 * `<CA file>`, `<passphrase>`; import.md's example server). What a user does between the blocks
 * (save the program as index.ts) and the answers they type (a password, the `yes` of
 * `pulumi up`: PULUMI_SKIP_CONFIRMATIONS) are the test's. No backend and no passphrase are set
 * for your-own-program.md's commands: they must say where the state goes themselves.
 *
 * Then, in the new project, an unchanged `pulumi up` and `pulumi destroy` (the site left running,
 * as README says); the import is checked in the state (the site recorded as adopted).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeDispatchers, createNewSite } from "../../provider/client";
import { packRepo } from "../../tools/harness/pack";
import { REPO_ROOT } from "../../tools/harness/project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/cli-project";
import { stateResources } from "../../tools/harness/engine-events";

jest.setTimeout(600_000);

const SITE_PASSWORD = "docs-Site-Pass-1";
const PASSPHRASE = "docs-commands-passphrase";

let emu: TestEmulator;
const projects: CliProject[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 50, exportDelayMs: 20 });
}, 60_000);

afterAll(async () => {
  for (const project of projects) await project.cleanup();
  await emu?.close();
  await closeDispatchers();
});

/** The ```sh blocks of a page's section: from its `## heading` to the next `## `. */
function shellBlocks(page: string, heading: string): string[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, page), "utf8");
  const start = text.startsWith(`${heading}\n`) ? 0 : text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${page} has no section ${heading}`);
  const end = text.indexOf("\n## ", start + heading.length + 2);
  const section = text.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The commands of a block: its lines without comments and blank lines. */
function commands(block: string): string[] {
  return block
    .split("\n")
    .map((line) => line.replace(/(^|\s+)#\s.*$/, "").trimEnd())
    .filter((line) => line !== "");
}

/** The block with each placeholder filled; throws when one is left. */
function filled(block: string, values: Record<string, string>): string {
  let text = block;
  for (const [placeholder, value] of Object.entries(values))
    text = text.split(placeholder).join(value);
  const left = /<[A-Za-z][^<>\n]*>/.exec(text);
  if (left !== null) throw new Error(`A placeholder is left unfilled: ${left[0]}`);
  return text;
}

/** README's one complete example, the program. */
function readmeProgram(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(
    readme.slice(readme.indexOf("## One complete example")),
  );
  if (block === null) throw new Error("README.md has no ts block under One complete example");
  return block[1]!;
}

/** The script's output, for a failure's message. */
function printed(result: { code: number | null; stdout: string; stderr: string }): string {
  return `exit ${result.code}\n${result.stdout}\n${result.stderr}`;
}

it("README's one complete example runs as docs/your-own-program.md writes it: up, up unchanged, destroy", async () => {
  const [make, save] = shellBlocks("docs/your-own-program.md", "## A new TypeScript project");
  expect(save).toBeDefined();
  // README gives the same commands in one block, the program saved between them.
  const [readme] = shellBlocks("README.md", "## One complete example");
  expect(commands(readme!)).toEqual([...commands(make!), ...commands(save!)]);

  const project = await CliProject.bare();
  projects.push(project);
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  const clone = path.join(project.tmp, "clone");
  fs.mkdirSync(clone);
  fs.copyFileSync(await packRepo(), path.join(clone, `pulumi-arcgis-admin-${version}.tgz`));
  const caFile = path.join(project.tmp, "server-ca.pem");
  fs.writeFileSync(caFile, emu.caCert!);
  const program = path.join(project.tmp, "program.ts");
  fs.writeFileSync(program, readmeProgram());
  Object.assign(project.envChanges, {
    // Where the commands say the state and the passphrase come from: nowhere else.
    PULUMI_BACKEND_URL: undefined,
    PULUMI_CONFIG_PASSPHRASE: undefined,
    // npm's cache as the machine has it, offline where it can be.
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  });
  const values = {
    "<clone>": clone,
    "<passphrase>": PASSPHRASE,
    "<admin URL>": emu.adminUrl,
    "<CA file>": caFile,
  };
  // The user saves the program as index.ts between the blocks.
  const script = [filled(make!, values), `cp '${program}' index.ts`, filled(save!, values)].join(
    "\n",
  );
  const ran = await project.shell(script, SITE_PASSWORD);
  if (ran.code !== 0) throw new Error(`The documented commands failed:\n${printed(ran)}`);
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 1 });

  // The state is in the project's folder, as the commands say.
  const folder = path.join(project.dir, "my-sites");
  const state = path.join(folder, ".pulumi-state");
  expect(fs.existsSync(path.join(state, ".pulumi", "stacks", "my-sites", "dev.json"))).toBe(true);
  // Later commands in the new project, in the same shell: its backend and passphrase.
  Object.assign(project.envChanges, {
    PULUMI_BACKEND_URL: `file://${state}?metadata=skip`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
  });
  const outputs = JSON.parse(
    (await project.mustCli(["stack", "output", "--json", "--cwd", "my-sites"])).stdout,
  ) as Record<string, unknown>;
  expect(outputs.siteState).toBe("created");
  expect(fs.existsSync(path.resolve(folder, outputs.backupFile as string))).toBe(true);

  const again = await project.deploy("up", ["--cwd", "my-sites"], { skipPreview: true });
  expect(again.changeSummary).toEqual({ same: 3 });
  const destroyed = await project.deploy("destroy", ["--cwd", "my-sites"], { skipPreview: true });
  expect(destroyed.changeSummary).toEqual({ delete: 3 });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 1 });
  // The password is only ever stored encrypted.
  for (const root of [state, project.home]) {
    for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const text = fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8");
      expect([entry.name, text.includes(SITE_PASSWORD)]).toEqual([entry.name, false]);
    }
  }
});

it("docs/import.md's commands import a site through the plugin, as the page writes them", async () => {
  const server = await startTestEmulator({ createDelayMs: 20 });
  try {
    await createNewSite(
      server.adminUrl,
      {
        serverType: "mission-server",
        username: "siteadmin",
        password: SITE_PASSWORD,
        runAsync: false,
      },
      { tls: { caCert: server.caCert! } },
    );
    // The project the page starts from: Pulumi YAML with the plugin installed (docs/plugin.md).
    const project = await CliProject.create();
    projects.push(project);
    fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: arcgis-import\nruntime: yaml\n");
    await project.installPlugin();
    await project.mustCli(["stack", "init", "dev"]);
    fs.writeFileSync(path.join(project.dir, "ca.pem"), server.caCert!);

    const [block] = shellBlocks("docs/import.md", "# Importing what exists: `pulumi import`");
    const example = "https://gis.example.com:20443/arcgis/admin";
    expect(block).toContain(example);
    const ran = await project.shell(filled(block!, { [example]: server.adminUrl }), SITE_PASSWORD);
    if (ran.code !== 0) throw new Error(`The documented commands failed:\n${printed(ran)}`);
    // `pulumi import` prints the code to add to the program.
    expect(ran.stdout).toContain("arcgis-admin:Site");
    expect(ran.stdout + ran.stderr).not.toContain(SITE_PASSWORD);

    const site = stateResources(await project.exportState()).find((r) => r.urn.endsWith("::site"));
    expect(site?.type).toBe("arcgis-admin:index:Site");
    expect(site?.outputs).toMatchObject({ state: "adopted", adminUrl: server.adminUrl });
    expect(server.stats().sitesCreated).toBe(1);
  } finally {
    await server.close();
  }
});

/**
 * A user's own TypeScript program in a new folder, as README.md says to make one: README's
 * complete example as `index.ts`, the packed package and `@pulumi/pulumi` installed, a Pulumi.yaml
 * of two lines, then `pulumi stack init`, `pulumi config set` and `pulumi up` with the Pulumi CLI
 * (its Node.js language host runs the program through `@pulumi/pulumi/cmd/run`, TypeScript
 * included), an unchanged `pulumi up`, and `pulumi destroy`, against the emulator.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/host";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/real-stack";

jest.setTimeout(300_000);

let emu: TestEmulator;
let project: CliProject;

/** README's one complete example: the first ```ts block under "## One complete example". */
function readmeProgram(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## One complete example"));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error("README.md has no ts block under One complete example");
  return block[1]!;
}

beforeAll(async () => {
  [emu, project] = await Promise.all([
    startTestEmulator({ createDelayMs: 50, exportDelayMs: 20 }),
    CliProject.create(),
  ]);
}, 240_000);

afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
});

it("runs README's program in a folder of its own with pulumi up, up again and destroy", async () => {
  // README's three lines: package.json's main, a two-line Pulumi.yaml, the program as index.ts.
  const manifest = path.join(project.dir, "package.json");
  fs.writeFileSync(manifest, JSON.stringify({ name: "my-sites", main: "index.ts", private: true }));
  fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: my-sites\nruntime: nodejs\n");
  fs.writeFileSync(path.join(project.dir, "index.ts"), readmeProgram());

  await project.mustCli(["stack", "init", "dev"]);
  await project.mustCli(["config", "set", "adminUrl", emu.adminUrl]);
  await project.mustCli(["config", "set", "--secret", "sitePassword"], undefined, "user-Site-1");
  await project.mustCli(["config", "set", "caCert", "--", emu.caCert!]);

  const up = await project.deploy("up");
  expect(up.changeSummary).toEqual({ create: 3 });
  const outputs = up.outputs!;
  expect(outputs.siteState).toBe("created");
  expect(fs.existsSync(path.resolve(project.dir, outputs.backupFile as string))).toBe(true);
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 1 });

  // The second run and destroy skip their preview: only the first `up` is README's command.
  const again = await project.deploy("up", [], { skipPreview: true });
  expect(again.changeSummary).toEqual({ same: 3 });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 1 });

  const destroyed = await project.deploy("destroy", [], { skipPreview: true });
  expect(destroyed.changeSummary).toEqual({ delete: 3 });
  // The secret is only ever stored encrypted.
  for (const text of project.storedTexts()) expect(text.includes("user-Site-1")).toBe(false);
});

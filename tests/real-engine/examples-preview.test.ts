/**
 * Every example that no other real-engine suite deploys passes `pulumi preview` with the Pulumi
 * CLI in its own folder, as its README runs it: the example copied into a project where the
 * packed package is installed, `pulumi stack init`, its config set (passwords with
 * `config set --secret`, on stdin), then `pulumi preview` (the Node.js language host runs the
 * TypeScript program, type-checked; each resource's check runs in the dynamic-provider host)
 * against the emulator. The preview plans each resource's creation and changes nothing.
 * examples/team and examples/restore-drill are deployed through the CLI by team.test.ts and
 * tests/examples/restore-drill.test.ts, examples/https by https-example.test.ts, the base
 * deployment (TypeScript and YAML) by base-deployment.test.ts.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/cli-project";

jest.setTimeout(300_000);

const PORTAL_ADMIN = { username: "gisadmin", password: "example-Portal-1" };
const SITE_PASSWORD = "example-Site-1";

let emu: TestEmulator;
const projects: CliProject[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({
    seed: portalSeed([{ ...PORTAL_ADMIN, role: "org_admin" }], "EXAMPLEPORTAL1"),
  });
}, 60_000);

afterAll(async () => {
  for (const project of projects) await project.cleanup();
  await emu?.close();
});

/** The stack config each example's README sets (plain values), against the emulator. */
/** `secrets`: the secrets the example reads besides the site's password, set only where read. */
const examples: Array<{
  name: string;
  config: () => Record<string, string>;
  secrets?: Record<string, string>;
  creates: string[];
}> = [
  {
    name: "pipeline",
    config: () => ({ release: "r1", backupDir: "backups" }),
    creates: ["Site", "SiteExport"],
  },
  { name: "existing-site", config: () => ({}), creates: ["Site", "SiteExport"] },
  {
    name: "collaboration-teardown",
    config: () => ({ hostedCollaborationId: "hosted-1", joinedCollaborationId: "joined-1" }),
    secrets: { "arcgis-admin:portalPassword": PORTAL_ADMIN.password },
    creates: ["Collaboration", "Collaboration"],
  },
  {
    name: "multi-machine",
    config: () => ({
      secondMachineAdminUrl: "https://127.0.0.1:9/arcgis/admin",
      secondMachineName: "MACHINE2",
    }),
    creates: ["Site", "SiteMachine"],
  },
];

it.each(examples)("examples/$name: pulumi preview plans its resources", async (example) => {
  const project = await CliProject.create(path.join(REPO_ROOT, "examples", example.name));
  projects.push(project);
  await project.mustCli(["stack", "init", "dev"]);
  const plain = {
    "arcgis-admin:adminUrl": emu.adminUrl,
    "arcgis-admin:username": "siteadmin",
    "arcgis-admin:sharingUrl": emu.sharingUrl,
    "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
    "arcgis-admin:caCert": emu.caCert!,
    ...example.config(),
  };
  await project.mustCli([
    "config",
    "set-all",
    ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
  ]);
  // Each secret on stdin, never on a command line; only those the example reads.
  const secrets = { "arcgis-admin:password": SITE_PASSWORD, ...example.secrets };
  for (const [key, value] of Object.entries(secrets)) {
    await project.mustCli(["config", "set", "--secret", key], undefined, value);
  }
  const before = emu.requestLog().length;
  const preview = await project.deploy("preview");
  expect(preview.changeSummary?.create).toBeGreaterThanOrEqual(example.creates.length + 1);
  for (const type of example.creates) {
    expect(preview.stdout).toMatch(new RegExp(`\\+\\s+\\S*arcgis-admin:${type} `));
  }
  // A preview asks; it never changes the server.
  expect(emu.stats().sitesCreated).toBe(0);
  const changes = emu
    .requestLog()
    .slice(before)
    .filter((r) => /createNewSite|joinSite|exportSite|\/delete\b/.test(r.url));
  expect(changes).toEqual([]);
});

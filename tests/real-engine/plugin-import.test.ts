/**
 * `pulumi import` through the provider plugin (installed with `pulumi plugin install --file` from
 * the packed package), in a Pulumi YAML project whose stack config holds the connection defaults
 * (`arcgis-admin:adminUrl`, `username`, `password`, `sharingUrl`, `portalUsername`,
 * `portalPassword`, `caCert`), against an emulator where a site, its federation with the portal
 * and a collaboration exist outside the stack. Each import takes only the id (docs/import.md); the
 * code it generates, placed in Pulumi.yaml, gives an `up --expect-no-changes` that passes; no
 * password is in that code or plain in state; each resource is recorded as adopted, and destroy
 * leaves the site, the federation and the collaboration as they were.
 *
 * One emulator, one stack, one import per test, in order (each test adds its resource to the
 * program the next `up` runs).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createNewSite,
  createPortalSession,
  federatedServers,
  federateServer,
  siteStatus,
} from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import {
  collaborationExists,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/cli-project";
import { stateResources } from "../../tools/harness/engine-events";

jest.setTimeout(300_000);

const SEED = path.join(REPO_ROOT, "examples", "quickstart-yaml", "emulator-seed.json");
const SITE_PASSWORD = "import-Site-Admin-1";
const PORTAL_ADMIN = { username: "portaladmin", password: "quickstart-Portal-1" };
const COLLABORATION = "quickstart-partners";

let emu: TestEmulator;
let project: CliProject | undefined;
let program: string;
let serverId: string;
const printed: string[] = [];

const portalSession = () =>
  createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...PORTAL_ADMIN,
    tls: { caCert: emu.caCert! },
  });

beforeAll(async () => {
  emu = await startTestEmulator({ seed: SEED, createDelayMs: 50 });
  // Outside any stack: a site on the server, federated with the portal.
  await createNewSite(
    emu.adminUrl,
    {
      serverType: "mission-server",
      username: "siteadmin",
      password: SITE_PASSWORD,
      runAsync: false,
    },
    { tls: { caCert: emu.caCert! } },
  );
  const siteRoot = emu.adminUrl.replace(/\/admin\/?$/, "");
  serverId = (
    await federateServer(portalSession(), {
      url: siteRoot,
      adminUrl: siteRoot,
      username: "siteadmin",
      password: SITE_PASSWORD,
    })
  ).serverId;

  project = await CliProject.create();
  program = path.join(project.dir, "Pulumi.yaml");
  fs.writeFileSync(program, "name: arcgis-import\nruntime: yaml\n");
  await project.installPlugin();
  await project.mustCli(["stack", "init", "dev"]);
  await project.mustCli([
    "config",
    "set-all",
    ...["--plaintext", `arcgis-admin:adminUrl=${emu.adminUrl}`],
    ...["--plaintext", "arcgis-admin:username=siteadmin"],
    ...["--plaintext", `arcgis-admin:sharingUrl=${emu.sharingUrl}`],
    ...["--plaintext", `arcgis-admin:portalUsername=${PORTAL_ADMIN.username}`],
    ...["--plaintext", `arcgis-admin:caCert=${emu.caCert!}`],
  ]);
  await project.setSecrets({
    "arcgis-admin:password": SITE_PASSWORD,
    "arcgis-admin:portalPassword": PORTAL_ADMIN.password,
  });
}, 240_000);

afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
  await closeDispatchers();
});

/**
 * `pulumi import <type> <name> <id>`: the generated code (written with `--out`) and what the CLI
 * printed; throws with the CLI's output when it fails.
 */
async function pulumiImport(type: string, name: string, id: string): Promise<string> {
  const out = path.join(project!.tmp, `${name}.yaml`);
  // No preview first: what the import read is checked in the state and the generated code.
  const result = await project!.cli(
    [
      "import",
      `arcgis-admin:index:${type}`,
      ...[name, id, "--yes", "--skip-preview", "--protect=false", "--out", out],
    ],
    240_000,
  );
  printed.push(result.stdout, result.stderr);
  if (result.code !== 0) {
    throw new Error(`pulumi import failed:\n${result.stdout}\n${result.stderr}`);
  }
  return fs.readFileSync(out, "utf8");
}

/** The generated `resources:` entries added to Pulumi.yaml's (the program `up` runs). */
function placeInProgram(generated: string): void {
  const entries = generated.replace(/^resources:\s*\n/m, "");
  const current = fs.readFileSync(program, "utf8");
  const withHeader = /^resources:/m.test(current) ? current : `${current}resources:\n`;
  fs.writeFileSync(program, `${withHeader}${entries.endsWith("\n") ? entries : `${entries}\n`}`);
}

/** `up --expect-no-changes`: the engine fails the run if anything would change. */
async function upUnchanged(): Promise<string> {
  const up = await project!.cli(["up", "--yes", "--skip-preview", "--expect-no-changes"], 240_000);
  printed.push(up.stdout, up.stderr);
  if (up.code !== 0) throw new Error(`up changed something:\n${up.stdout}\n${up.stderr}`);
  return up.stdout;
}

async function outputsOf(name: string) {
  const state = await project!.exportState();
  return stateResources(state).find((r) => r.urn.endsWith(`::${name}`))?.outputs;
}

it("refuses an id that is not a URL, naming the field, with no stack trace", async () => {
  const result = await project!.cli(
    ["import", "arcgis-admin:index:Site", "bad", "not-a-url", "--yes", "--protect=false"],
    240_000,
  );
  printed.push(result.stdout, result.stderr);
  const text = `${result.stdout}\n${result.stderr}`;
  expect(result.code).not.toBe(0);
  expect(text).toMatch(/adminUrl "not-a-url" \(from the import id\) is not an http\(s\) URL/);
  expect(text).not.toMatch(/\n\s+at .+\.js:\d+/);
  expect(text).not.toContain("expected string, received undefined");
});

it("imports the site by its adminUrl with the stack config's credentials; up after it changes nothing", async () => {
  const generated = await pulumiImport("Site", "site", emu.adminUrl);
  expect(generated).toMatch(/type: arcgis-admin:(index:)?Site\n/);
  expect(generated).toContain(`adminUrl: ${emu.adminUrl}`);
  // The credentials and the CA come from the stack config at every run, never from the code.
  expect(generated).not.toMatch(/password|username|caCert|BEGIN CERTIFICATE/i);
  const outs = await outputsOf("site");
  expect(outs).toMatchObject({
    state: "adopted",
    adminUrl: emu.adminUrl,
    deleteSiteOnDestroy: false,
  });
  expect(outs?.password).toMatchObject({ ciphertext: expect.any(String) });

  placeInProgram(generated);
  const up = await upUnchanged();
  expect(up).toMatch(/2 unchanged/);
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1 });
});

it("imports the federation by the portal's server id; up after it changes nothing", async () => {
  const generated = await pulumiImport("Federation", "federation", serverId);
  expect(generated).toMatch(/type: arcgis-admin:(index:)?Federation\n/);
  expect(generated).toContain(`adminUrl: ${emu.adminUrl}`);
  expect(generated).not.toMatch(/password|username|sharingUrl|BEGIN CERTIFICATE/i);
  const outs = await outputsOf("federation");
  expect(outs).toMatchObject({ state: "adopted", serverId, unfederateAdoptedOnDestroy: false });
  expect(outs?.serverPassword).toMatchObject({ ciphertext: expect.any(String) });

  placeInProgram(generated);
  const up = await upUnchanged();
  expect(up).toMatch(/3 unchanged/);
  expect(emu.stats()).toMatchObject({ serversFederated: 1 });
});

it("imports the collaboration by its id; up after it changes nothing", async () => {
  const generated = await pulumiImport("Collaboration", "partners", COLLABORATION);
  expect(generated).toMatch(/type: arcgis-admin:(index:)?Collaboration\n/);
  expect(generated).toContain(`collaborationId: ${COLLABORATION}`);
  expect(generated).not.toMatch(/password|username|sharingUrl/i);
  const outs = await outputsOf("partners");
  expect(outs).toMatchObject({ state: "adopted", role: "host", deleteAdoptedOnDestroy: false });

  placeInProgram(generated);
  const up = await upUnchanged();
  expect(up).toMatch(/4 unchanged/);
});

it("never prints or stores a password plain", async () => {
  const stored = [
    ...project!.storedTexts(),
    fs.readFileSync(program, "utf8"),
    fs.readFileSync(path.join(project!.dir, "Pulumi.dev.yaml"), "utf8"),
    ...printed,
  ];
  for (const secret of [SITE_PASSWORD, PORTAL_ADMIN.password]) {
    expect(stored.filter((t) => t.includes(secret))).toEqual([]);
  }
});

it("destroy leaves what it imported: the site, the federation and the collaboration", async () => {
  await project!.mustCli(["destroy", "--yes", "--skip-preview"], 240_000);
  expect(stateResources(await project!.exportState())).toEqual([]);
  expect((await federatedServers(portalSession())).map((s) => s.id)).toEqual([serverId]);
  expect(emu.stats()).toMatchObject({ serversUnfederated: 0 });
  expect(await collaborationExists(emu, PORTAL_ADMIN, COLLABORATION, "QUICKSTARTHOST")).toBe(true);
  expect((await siteStatus(emu.adminUrl, { tls: { caCert: emu.caCert! } })).state).toBe("in-site");
});

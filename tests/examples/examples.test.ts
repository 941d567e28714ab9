/**
 * The other examples run as `pulumi up` would run them (each in its folder, under mocks, see
 * tools/harness/example-programs.ts), their resources replayed through Pulumi's real
 * dynamic-provider host against one emulator: the pipeline's backup is taken again when the
 * release changes, an existing site is adopted, and collaborations are deleted as host and left as
 * guest on destroy.
 *
 * Type checking of the examples is `tsc`'s job (npm test): the programs run transpile-only here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { readZip } from "../../tools/harness/zip";
import { REPO_ROOT } from "../../tools/harness/project";
import { startHost } from "../../tools/harness/host";
import { unwrapSecrets } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";
import {
  collaborationExists,
  portalSeed,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { checkAndCreate, runProgram, type Created } from "../../tools/harness/example-programs";
import { runTempDir } from "../../tools/harness/temp";
import * as selfLink from "../../scripts/self-link.cjs";

const PORTAL_ID = "EXAMPLEPORTAL1";
const PORTAL_ADMIN = { username: "gisadmin", password: "example-Portal-1" };
const SITE_ADMIN = { username: "siteadmin", password: "example-Site-1" };

let emu: TestEmulator;
let host: Host;
let work: string;

function example(name: string, config: Record<string, string>, secrets: Record<string, string>) {
  const programDir = path.join(REPO_ROOT, "examples", name);
  return runProgram({
    programDir,
    entry: "index.ts",
    pulumiYaml: path.join(programDir, "Pulumi.yaml"),
    stack: "dev",
    config: {
      ...config,
      ...(emu.caCert === undefined ? {} : { "arcgis-admin:caCert": emu.caCert }),
    },
    secrets,
    typeCheck: false,
  });
}

beforeAll(async () => {
  selfLink.ensureSelfLink();
  work = runTempDir("arcgis-examples-");
  emu = await startTestEmulator({
    createDelayMs: 200,
    exportDelayMs: 100,
    seed: portalSeed([{ ...PORTAL_ADMIN, role: "org_admin" }], PORTAL_ID),
  });
  host = await startHost(REPO_ROOT);
  // As the engine configures the default provider: with the stack's config. The programs here
  // differ in the rest, and the provider reads only the CA certificate, which all of them share.
  if (emu.caCert !== undefined) await host.configure({ "arcgis-admin:caCert": emu.caCert });
  else await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.close();
  await emu?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("examples/pipeline", () => {
  const config = (release: string) => ({
    "arcgis-admin:adminUrl": emu.adminUrl,
    "arcgis-admin:username": SITE_ADMIN.username,
    release,
    backupDir: path.join(work, "pipeline-backups"),
  });
  const secrets = { "arcgis-admin:password": SITE_ADMIN.password };
  let backup: Created;

  it("creates the site with its store, directories and logs, and a first backup", async () => {
    const program = await example("pipeline", config("r1"), secrets);
    expect(program.registrations.map((r) => r.name)).toEqual(["site", "backup"]);
    const site = await checkAndCreate(host, program.urn("site"), program.byName("site"));
    expect(unwrapSecrets(site.properties)).toMatchObject({
      state: "created",
      configStoreConnection: { type: "FILESYSTEM" },
      directories: [
        { directoryType: "SYSTEM" },
        { directoryType: "JOBS" },
        { directoryType: "OUTPUT" },
      ],
      logSettings: { logLevel: "WARNING" },
    });
    backup = await checkAndCreate(host, program.urn("backup"), program.byName("backup"));
    expect(unwrapSecrets(backup.properties)).toMatchObject({ triggers: ["r1"] });
  });

  it("takes a new backup when the release changes, and keeps the old archive", async () => {
    const program = await example("pipeline", config("r2"), secrets);
    const urn = program.urn("backup");
    const news = await host.check(urn, backup.inputs, program.byName("backup").inputs);
    const diff = await host.diff(backup.id, urn, backup.properties, news.inputs);
    expect(diff).toMatchObject({ changes: "DIFF_SOME", replaces: ["triggers"] });

    // A replacement: create the new backup, then delete the old one.
    const next = await checkAndCreate(host, urn, program.byName("backup"));
    await host.delete(backup.id, urn, backup.properties);
    const files = [backup, next].map((b) => unwrapSecrets(b.properties).localPath as string);
    expect(new Set(files).size).toBe(2);
    for (const file of files) {
      expect((await readZip(file)).map((e) => e.name)).toContain("manifest.json");
    }
  });
});

describe("examples/existing-site", () => {
  it("adopts the site that is already there, and takes a baseline backup", async () => {
    const program = await example(
      "existing-site",
      {
        "arcgis-admin:adminUrl": emu.adminUrl,
        "arcgis-admin:username": SITE_ADMIN.username,
        backupDir: path.join(work, "baseline"),
      },
      { "arcgis-admin:password": SITE_ADMIN.password },
    );
    const created = emu.stats().sitesCreated;
    const site = await checkAndCreate(host, program.urn("site"), program.byName("site"));
    expect(unwrapSecrets(site.properties)).toMatchObject({ state: "adopted", adoptExisting: true });
    expect(emu.stats().sitesCreated).toBe(created);
    const baseline = await checkAndCreate(
      host,
      program.urn("baseline"),
      program.byName("baseline"),
    );
    expect(fs.existsSync(unwrapSecrets(baseline.properties).localPath as string)).toBe(true);
  });
});

describe("examples/collaboration-teardown", () => {
  it("deletes the hosted collaboration and leaves the joined one on destroy", async () => {
    const program = await example(
      "collaboration-teardown",
      {
        "arcgis-admin:sharingUrl": emu.sharingUrl,
        "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
        hostedCollaborationId: "hosted1",
        joinedCollaborationId: "joined1",
      },
      { "arcgis-admin:portalPassword": PORTAL_ADMIN.password },
    );
    const hosted = await checkAndCreate(host, program.urn("hosted"), program.byName("hosted"));
    const joined = await checkAndCreate(host, program.urn("joined"), program.byName("joined"));
    expect(unwrapSecrets(hosted.properties)).toMatchObject({ role: "host" });
    expect(unwrapSecrets(joined.properties)).toMatchObject({ role: "guest", leaveAsGuest: true });

    await host.delete(joined.id, program.urn("joined"), joined.properties);
    await host.delete(hosted.id, program.urn("hosted"), hosted.properties);
    expect(await collaborationExists(emu, PORTAL_ADMIN, "hosted1", PORTAL_ID)).toBe(false);
    expect(await collaborationExists(emu, PORTAL_ADMIN, "joined1", PORTAL_ID)).toBe(false);
    const urls = emu.requestLog().map((r) => r.url);
    expect(urls.some((u) => u.includes("/collaborations/hosted1/delete"))).toBe(true);
    expect(urls.some((u) => u.includes("/collaborations/joined1/removeParticipation"))).toBe(true);
    expect(urls.some((u) => u.includes("/collaborations/joined1/delete"))).toBe(false);
  });
});

/**
 * The YAML quick start (examples/quickstart-yaml) through the real engine and Pulumi YAML's
 * language host, driven with the `pulumi` CLI on a copy of the example in a project that installed
 * the packed package, whose provider plugin is installed the documented way (`pulumi plugin
 * install resource arcgis-admin <version> --file`), against the emulator seeded like the example's
 * README says: up (a Site, a SiteExport and a Collaboration under `arcgis-admin:index:*`), up
 * unchanged, a change that `replaceOnChanges` turns from an update into a replacement, refresh,
 * destroy; the passwords never plain in state, config or anywhere the CLI stores. Then, on the
 * site the quick start left running, examples/https-yaml (a ServerCertificate from secret stack
 * config) in a second stack through the same plugin: up, up unchanged, destroy.
 *
 * One emulator and one plugin install for both programs, each step once: CLI runs are what the
 * suite costs.
 */
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import {
  collaborationExists,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { presentedCertificate } from "../../provider/client";
import type { PackageSchema } from "../../provider/plugin/schema";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import { CliProject } from "../../tools/harness/cli-project";
import { messagesByResource, stateResources } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";

jest.setTimeout(240_000);

const EXAMPLE = path.join(REPO_ROOT, "examples", "quickstart-yaml");
const SEED = path.join(EXAMPLE, "emulator-seed.json");
const SITE_PASSWORD = "yaml-Site-Admin-1";
const PORTAL_ADMIN = { username: "portaladmin", password: "quickstart-Portal-1" };
const COLLABORATION = "quickstart-partners";
const HTTPS_EXAMPLE = path.join(REPO_ROOT, "examples", "https-yaml");
const PFX_PASSWORD = "yaml-Https-Pfx-1";

let emu: TestEmulator;
let project: CliProject | undefined;
let downloads: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: SEED, createDelayMs: 100, exportDelayMs: 50 });
  downloads = runTempDir("quickstart-yaml-downloads-");
}, 60_000);

afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
  if (downloads !== undefined) fs.rmSync(downloads, { recursive: true, force: true });
});

/** The line of `pulumi up`/`preview` summing up one kind of change, e.g. `+-1 to replace`. */
function summary(output: string): string[] {
  return output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) =>
      /^([+~-]|\+-)\s*\d+ (to )?(create|update|replace|delete)|^\d+ unchanged/.test(l),
    );
}

it("deploys, keeps, replaces on replaceOnChanges, refreshes and destroys the YAML quick start", async () => {
  project = await CliProject.create(EXAMPLE);
  const version = await project.installPlugin();

  // The installed plugin (the CLI runs it from its plugin cache) answers with its version and
  // schema, with the TSDoc the build extracted as its descriptions.
  const schema = JSON.parse(
    (await project.mustCli(["package", "get-schema", "arcgis-admin"])).stdout,
  ) as PackageSchema;
  expect(schema.version).toBe(version);
  const site = schema.resources["arcgis-admin:index:Site"]!;
  expect(site.description).toMatch(/^A site of a Mission, ArcGIS, Notebook or Video Server/);
  expect(site.inputProperties.adminUrl!.description).toMatch(/^Administrative root/);

  await project.mustCli(["stack", "init", "dev"]);
  await project.mustCli([
    "config",
    "set-all",
    ...["--plaintext", `arcgis-admin:adminUrl=${emu.adminUrl}`],
    ...["--plaintext", "arcgis-admin:username=siteadmin"],
    ...["--plaintext", `arcgis-admin:sharingUrl=${emu.sharingUrl}`],
    ...["--plaintext", `arcgis-admin:portalUsername=${PORTAL_ADMIN.username}`],
    ...["--plaintext", `collaborationId=${COLLABORATION}`],
    ...["--plaintext", `downloadDir=${downloads}`],
    ...["--plaintext", `arcgis-admin:caCert=${emu.caCert!}`],
  ]);
  await project.setSecrets({
    "arcgis-admin:password": SITE_PASSWORD,
    "arcgis-admin:portalPassword": PORTAL_ADMIN.password,
  });

  // up: the three resources, through the plugin the CLI installed (not from PATH).
  const up = await project.deploy("up", [], { skipPreview: true });
  expect(up.stdout).toContain("+ 6 created");
  expect(up.stdout).not.toContain("pulumi-resource-arcgis-admin from $PATH");
  expect(emu.stats()).toMatchObject({ sitesCreated: 1 });
  const backups = fs.readdirSync(downloads);
  expect(backups).toHaveLength(1);
  const outputs = up.outputs as {
    siteState: string;
    backupFile: string;
    collaborationRole: string;
  };
  expect(outputs).toMatchObject({ siteState: "created", collaborationRole: "host" });
  expect(outputs.backupFile).toBe(path.join(downloads, backups[0]!));

  const state = await project.exportState();
  const types = stateResources(state)
    .map((r) => r.type)
    .filter((t) => !t.startsWith("pulumi:"));
  expect(types.sort()).toEqual([
    "arcgis-admin:index:Collaboration",
    "arcgis-admin:index:Site",
    "arcgis-admin:index:SiteExport",
    "arcgis-admin:index:SiteUpgrade",
    "arcgis-admin:index:SystemProperties",
  ]);

  // up again: nothing changes (the CLI fails the update if anything would).
  const again = await project.mustCli(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(again.stdout).toContain("6 unchanged");

  // A new maxDownloadBytes only updates state...
  await project.mustCli(["config", "set", "maxBackupBytes", "2000000000"]);
  const yaml = fs.readFileSync(path.join(project.dir, "Pulumi.yaml"), "utf8");
  // The example without its resource option: the lines from `options:` to the option's key.
  const lines = yaml.split("\n");
  const to = lines.indexOf("        - maxDownloadBytes");
  const from = lines.lastIndexOf("    options:", to);
  expect([from > 0, to > from]).toEqual([true, true]);
  const withoutOption = [...lines.slice(0, from), ...lines.slice(to + 1)].join("\n");
  expect(withoutOption).not.toMatch(/^\s+replaceOnChanges:/m);
  fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), withoutOption);
  const update = await project.mustCli(["preview"]);
  expect(summary(update.stdout)).toEqual(["~ 1 to update", "5 unchanged"]);
  // ...but the example's replaceOnChanges makes it a replacement: a second export.
  fs.writeFileSync(path.join(project.dir, "Pulumi.yaml"), yaml);
  const replaced = await project.mustCli(["up", "--yes", "--skip-preview"]);
  expect(replaced.stdout).toMatch(/\+-\s*arcgis-admin:index:SiteExport site-backup replaced/);
  expect(summary(replaced.stdout)).toEqual(["+-1 replaced", "5 unchanged"]);
  expect(fs.readdirSync(downloads)).toHaveLength(2);

  // refresh: what the servers say matches state.
  const refreshed = await project.mustCli(["refresh", "--yes", "--skip-preview"]);
  expect(refreshed.stdout).toContain("6 unchanged");

  // No password plain anywhere the CLI keeps things (state, backups, stack config, its home).
  const stored = [
    ...project.storedTexts(),
    fs.readFileSync(path.join(project.dir, "Pulumi.dev.yaml"), "utf8"),
    JSON.stringify(await project.exportState()),
  ];
  for (const secret of [SITE_PASSWORD, PORTAL_ADMIN.password]) {
    expect(stored.filter((t) => t.includes(secret))).toEqual([]);
  }

  // destroy: the collaboration (hosted by this portal) is deleted; the state is empty.
  expect(await collaborationExists(emu, PORTAL_ADMIN, COLLABORATION, emu.portalId)).toBe(true);
  const destroyed = await project.deploy("destroy", [], { skipPreview: true });
  expect(await collaborationExists(emu, PORTAL_ADMIN, COLLABORATION, emu.portalId)).toBe(false);
  expect(stateResources(await project.exportState())).toEqual([]);
  // What each resource did, once each, told under that resource: in the engine's events (by URN) and in the
  // display's Diagnostics, grouped under each resource's heading.
  expect(messagesByResource(destroyed.diagnostics)).toMatchObject({
    "arcgis-admin:index:Site::site": [
      expect.stringMatching(
        /^The site at https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin was left running/,
      ),
    ],
    "arcgis-admin:index:SiteExport::site-backup": [
      expect.stringMatching(/^Kept the site export .*\.agssite: backups must outlive stacks/),
    ],
    "arcgis-admin:index:Collaboration::partners": [
      expect.stringMatching(/^Deleted the collaboration quickstart-partners /),
    ],
  });
  const shown = destroyed.stdout.slice(destroyed.stdout.indexOf("Diagnostics:"));
  expect(shown).toMatch(/arcgis-admin:index:Site \(site\):\n\s+The site at \S+ was left running/);
  expect(shown).toMatch(/arcgis-admin:index:SiteExport \(site-backup\):\n\s+Kept the site export/);
  expect(shown).toMatch(
    /arcgis-admin:index:Collaboration \(partners\):\n\s+Deleted the collaboration/,
  );
});

it("examples/https-yaml: the quick start's machine presents the certificate of secret stack config, trusted through its CA alone; destroy binds the previous one", async () => {
  if (project?.consumer === undefined) throw new Error("the quick start's project did not start");
  // A second project beside the quick start's copy, run with -C: the same backend and the
  // plugin the CLI installed already.
  const dir = path.join(project.consumer.dir, "https-yaml");
  fs.cpSync(HTTPS_EXAMPLE, dir, { recursive: true });
  const inDir = ["--cwd", dir];
  const ca = makeRootCa();
  const issued = issueServerCertificate(ca, ["127.0.0.1"]);
  const pfx = pkcs12(issued, PFX_PASSWORD).toString("base64");
  await project.mustCli(["stack", "init", "dev", ...inDir]);
  await project.mustCli([
    "config",
    "set-all",
    ...inDir,
    ...["--plaintext", `arcgis-admin:adminUrl=${emu.adminUrl}`],
    ...["--plaintext", "arcgis-admin:username=siteadmin"],
    ...["--plaintext", `arcgis-admin:caCert=${emu.caCert!}`],
    // The machine as the emulator's site lists it (its host name), not the host of adminUrl.
    ...["--plaintext", `serverCertificateMachine=${os.hostname()}`],
    ...["--plaintext", `caCertificate=${ca.certPem}`],
  ]);
  await project.setSecrets(
    {
      "arcgis-admin:password": SITE_PASSWORD,
      serverCertificatePfx: pfx,
      serverCertificatePassword: PFX_PASSWORD,
    },
    inDir,
  );
  const machine = { host: "127.0.0.1", port: Number(new URL(emu.adminUrl).port) };
  const fingerprintOf = (pem: string) =>
    new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();

  const up = await project.deploy("up", inDir, { skipPreview: true });
  expect(up.changeSummary).toEqual({ create: 2 });
  const presented = await presentedCertificate({ ...machine, trust: { trustOnly: ca.certPem } });
  expect(presented.sha256Fingerprint).toBe(fingerprintOf(issued.certPem));
  // The outputs the CLI shows: the alias the fingerprint names, in the keystore's form.
  const fingerprint = presented.sha256Fingerprint;
  expect(up.stdout).toMatch(new RegExp(`certificateFingerprint\\s*:\\s*"${fingerprint}"`));
  expect(up.stdout).toMatch(
    new RegExp(`certificateAlias\\s*:\\s*"quickstart-${fingerprint.slice(0, 8)}"`),
  );

  const again = await project.deploy("up", ["--expect-no-changes", ...inDir], {
    skipPreview: true,
  });
  expect(again.changeSummary).toEqual({ same: 2 });

  // The PKCS #12 file and its password never plain where the CLI keeps things.
  const stored = [
    ...project.storedTexts(),
    fs.readFileSync(path.join(dir, "Pulumi.dev.yaml"), "utf8"),
  ];
  for (const secret of [PFX_PASSWORD, pfx.slice(0, 64), SITE_PASSWORD]) {
    expect(stored.filter((t) => t.includes(secret))).toEqual([]);
  }

  const destroyed = await project.deploy("destroy", inDir, { skipPreview: true });
  expect(destroyed.changeSummary).toEqual({ delete: 2 });
  const after = await presentedCertificate({ ...machine, trust: { trustOnly: emu.caCert! } });
  expect(after.sha256Fingerprint).toBe(fingerprintOf(emu.caCert!));
});

/**
 * The Python quick start (examples/quickstart-python) with the Pulumi CLI, as its README runs it,
 * from the packed package: the plugin's schema as the engine gets it from the installed plugin
 * (`pulumi package get-schema`), the Python SDK generated from it (toolchain/sdkgen) and built into a
 * wheel, the project's own virtualenv made and filled as the README says (`python3 -m venv venv`,
 * `pip install -r requirements.txt <wheel>`), then `pulumi stack init`, `pulumi config set` and
 * `pulumi up` in the example's folder (the engine's Python language host runs `__main__.py`)
 * against the emulator seeded as `npm start` seeds it: up, up unchanged, a new backup limit that
 * replaces the backup (replace_on_changes on an input the provider only updates in state),
 * refresh, destroy. The stack config gives a PKCS #12 file, so the quick start's optional
 * ServerCertificate is deployed too and the machine presents that certificate. The state holds
 * the plugin's type tokens and no plain password.
 */
import { spawn } from "node:child_process";
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { presentedCertificate } from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import {
  collaborationExists,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/cli-project";
import { messagesByResource } from "../../tools/harness/engine-events";
import * as qs from "../../scripts/quickstart.cjs";
import * as sdkgen from "../../toolchain/sdkgen.cjs";
import * as pythonSdk from "../../toolchain/python-sdk.cjs";
import * as sdk from "../../toolchain/sdk.cjs";
import * as hosts from "../../toolchain/language-hosts.cjs";

jest.setTimeout(300_000);

const SITE_PASSWORD = "py-Quickstart-Site-1";
const PORTAL_ADMIN = { username: "portaladmin", password: "quickstart-Portal-1" };
const SEED_PORTAL = "QUICKSTARTHOST";
const COLLABORATION = "quickstart-partners";
const PFX_PASSWORD = "py-Quickstart-Pfx-1";

let emu: TestEmulator;
let project: CliProject;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Runs a command to its end; throws with its output when it fails. */
function mustRun(
  command: string,
  args: string[],
  runEnv: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: runEnv, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${stdout}${stderr}`)),
    );
  });
}

/** `pulumi <args>` in the example's folder, with its change summary from `--json`-less output. */
async function pulumi(args: string[], input?: string): Promise<string> {
  const result = await project.mustCli(args, 180_000, input);
  return result.stdout;
}

beforeAll(async () => {
  const [generator, venvPython] = await Promise.all([
    sdkgen.ensureSdkgen({ log }),
    pythonSdk.ensurePythonSdk({ log }),
    hosts.ensureLanguageHosts({ log }),
    startTestEmulator({ seed: qs.SEED_FILE }).then((e) => (emu = e)),
    CliProject.create(path.join(REPO_ROOT, "examples", "quickstart-python")).then(
      (p) => (project = p),
    ),
  ]);
  // The README's PATH: the installed package's plugin, before the engine and its hosts.
  project.extraPath.push(path.join(project.packageDir, "bin"));
  const env = project.env();
  // The schema as the engine gets it from the installed plugin, the SDK and its wheel from it.
  const schemaFile = path.join(project.tmp, "schema.json");
  fs.writeFileSync(
    schemaFile,
    await mustRun(
      project.engineInfo.bin,
      [
        "package",
        "get-schema",
        path.join(project.packageDir, "bin", "pulumi-resource-arcgis-admin"),
      ],
      env,
    ),
  );
  const sdkDir = path.join(project.tmp, "sdk", "python");
  sdk.generate(generator.bin, "python", schemaFile, sdkDir);
  const wheel = sdk.buildWheel(venvPython, sdkDir, path.join(project.tmp, "sdk", "dist"));
  // The README's virtualenv, made and filled as it says.
  await mustRun("python3", ["-m", "venv", "venv"], env, project.dir);
  await mustRun(
    path.join(project.dir, "venv", "bin", "pip"),
    ["install", "--disable-pip-version-check", "-q", "-r", "requirements.txt", wheel],
    env,
    project.dir,
  );
}, 280_000);

afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
});

it("deploys, keeps, replaces on a new backup limit, refreshes and destroys the Python quick start", async () => {
  await pulumi(["stack", "init", "dev"]);
  // The organisation's CA and the machine's certificate; every connection trusts the CA too,
  // since the machine (and the emulator's portal on its port) presents that certificate after the bind.
  const ca = makeRootCa();
  const issued = issueServerCertificate(ca, ["127.0.0.1"]);
  const pfx = pkcs12(issued, PFX_PASSWORD).toString("base64");
  const plain = {
    "arcgis-admin:adminUrl": emu.adminUrl,
    "arcgis-admin:username": "siteadmin",
    "arcgis-admin:sharingUrl": emu.sharingUrl,
    "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
    "arcgis-admin:caCert": `${emu.caCert!}\n${ca.certPem}`,
    collaborationId: COLLABORATION,
    caCertificate: ca.certPem,
    // The machine as the emulator's site lists it (its host name), not the host of adminUrl.
    serverCertificateMachine: os.hostname(),
  };
  // One CLI run for the plain keys; each secret on stdin, never on a command line.
  await pulumi([
    "config",
    "set-all",
    ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
  ]);
  for (const [key, value] of Object.entries({
    "arcgis-admin:password": SITE_PASSWORD,
    "arcgis-admin:portalPassword": PORTAL_ADMIN.password,
    serverCertificatePfx: pfx,
    serverCertificatePassword: PFX_PASSWORD,
  })) {
    await pulumi(["config", "set", "--secret", key], value);
  }

  const created = await project.deploy("up");
  expect(created.changeSummary).toEqual({ create: 7 });
  const outputs = created.outputs!;
  expect(outputs).toMatchObject({
    siteState: "created",
    collaborationRole: "host",
    collaborationName: "Quick start partners",
  });
  // downloadTo is relative to the project folder, where the program runs.
  expect(fs.existsSync(path.resolve(project.dir, outputs.backupFile as string))).toBe(true);
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 1 });
  // The machine presents the certificate of the stack config, to a handshake trusting only its CA.
  const presented = await presentedCertificate({
    host: "127.0.0.1",
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: ca.certPem },
  });
  const wanted = new X509Certificate(issued.certPem).fingerprint256;
  expect(presented.sha256Fingerprint).toBe(wanted.replaceAll(":", "").toLowerCase());
  expect(outputs.certificateFingerprint).toBe(presented.sha256Fingerprint);

  const state = await project.exportState();
  const resources = (state.deployment.resources ?? []) as Array<{
    type: string;
    outputs?: Record<string, unknown>;
  }>;
  expect(new Set(resources.map((r) => r.type))).toEqual(
    new Set([
      "pulumi:pulumi:Stack",
      "pulumi:providers:arcgis-admin",
      "arcgis-admin:index:Site",
      "arcgis-admin:index:SiteExport",
      "arcgis-admin:index:Collaboration",
      "arcgis-admin:index:SiteUpgrade",
      "arcgis-admin:index:SystemProperties",
      "arcgis-admin:index:ServerCertificate",
    ]),
  );
  // Passwords: only their ciphertext, in the state, the backend and the stack's config file.
  const site = resources.find((r) => r.type === "arcgis-admin:index:Site")!;
  expect(JSON.stringify(site.outputs?.password)).toContain("ciphertext");
  const stackConfig = fs.readFileSync(path.join(project.dir, "Pulumi.dev.yaml"), "utf8");
  expect(stackConfig).toContain("secure:");
  for (const text of [...project.storedTexts(), stackConfig]) {
    // includes(), not toContain(): a failure must not print the whole state.
    expect(text.includes(SITE_PASSWORD)).toBe(false);
    expect(text.includes(PORTAL_ADMIN.password)).toBe(false);
    expect(text.includes(PFX_PASSWORD)).toBe(false);
    expect(text.includes(pfx.slice(0, 64))).toBe(false);
  }

  // The later runs skip their preview: only the first `up` is the README's command, and what
  // they check is what each run did.
  const again = await project.deploy("up", [], { skipPreview: true });
  expect(again.changeSummary).toEqual({ same: 7 });
  expect(emu.stats()).toMatchObject({ exportsCompleted: 1 });

  // The limit alone only updates state; replace_on_changes makes it a new backup.
  await pulumi(["config", "set", "backupMaxBytes", "100000000"]);
  const replaced = await project.deploy("up", [], { skipPreview: true });
  expect(replaced.changeSummary).toEqual({ replace: 1, same: 6 });
  expect(replaced.stdout).toMatch(/\+-\s+arcgis-admin:index:SiteExport site-backup replaced/);
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 2 });
  expect(replaced.outputs!.backupFile).not.toBe(outputs.backupFile);

  const refreshed = await project.deploy("refresh", [], { skipPreview: true });
  expect(refreshed.changeSummary).toEqual({ same: 7 });

  const destroyed = await project.deploy("destroy", [], { skipPreview: true });
  expect(destroyed.changeSummary).toEqual({ delete: 7 });
  // What each resource did, once each, told under that resource (the engine's events, and the display).
  expect(messagesByResource(destroyed.diagnostics)).toMatchObject({
    "arcgis-admin:index:Site::site": [expect.stringMatching(/^The site at \S+ was left running/)],
    "arcgis-admin:index:SiteExport::site-backup": [
      expect.stringMatching(/^Kept the site export \S+\.agssite: backups must outlive stacks/),
    ],
    "arcgis-admin:index:Collaboration::partners": [
      expect.stringMatching(/^Deleted the collaboration quickstart-partners /),
    ],
  });
  const shown = destroyed.stdout.slice(destroyed.stdout.indexOf("Diagnostics:"));
  expect(shown).toMatch(/arcgis-admin:index:Site \(site\):\n\s+The site at \S+ was left running/);
  expect((await project.exportState()).deployment.resources ?? []).toEqual([]);
  // Destroy bound the emulator's self-signed certificate again.
  const after = await presentedCertificate({
    host: "127.0.0.1",
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: emu.caCert! },
  });
  expect(after.sha256Fingerprint).toBe(
    new X509Certificate(emu.caCert!).fingerprint256.replaceAll(":", "").toLowerCase(),
  );
  expect(await collaborationExists(emu, PORTAL_ADMIN, COLLABORATION, SEED_PORTAL)).toBe(false);
}, 280_000);

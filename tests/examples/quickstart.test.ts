/**
 * The main job, proven without the Pulumi CLI (it cannot be installed here): the ROOT project's
 * program (Pulumi.yaml → examples/quickstart/index.ts) goes through what `pulumi up` and then
 * `pulumi destroy` would do with it, against a live emulator seeded like `npm start` seeds it.
 *
 * - The program runs in its own folder (the engine's `--pwd` for it) with TypeScript set up the
 *   way Pulumi's Node.js language host does it (ts-node with type checking, the folder's
 *   tsconfig.json), under `pulumi.runtime.setMocks`, with the stack config `npm start` sets
 *   (scripts/quickstart.cjs), and every registered resource is recorded, serialized
 *   `__provider` included (tools/harness/mock-program-runner.cjs).
 * - Each resource goes, in registration order, to Pulumi's REAL dynamic-provider host: check,
 *   then create, with secrets stripped and re-marked as the engine does (tools/harness/host.ts).
 *   The host's cwd is the repository root, the project `npm start` deploys; a second probe runs
 *   the serialized providers from the program's folder, where the CLI starts the host.
 * - Then they are deleted in reverse order, as destroy does.
 *
 * Needs an up-to-date dist/ (`npm test` builds before Jest) and makes sure of the link
 * node_modules/pulumi-arcgis-admin → repository root, as `npm start` does: the host rebuilds
 * each provider with require-from-string (a module without a file name, resolved from the cwd),
 * so package self-reference cannot find the package there.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  createPortalSession,
  getCollaboration,
  isNotFoundError,
  siteStatus,
} from "../../provider/client";
import { readZip } from "../../tools/harness/zip";
import { findText, isSecret, unwrapSecrets } from "../../tools/harness/property-values";
import { REPO_ROOT } from "../../tools/harness/project";
import { startHost } from "../../tools/harness/host";
import type { Host } from "../../tools/harness/host-types";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  checkAndCreate,
  runProgram,
  type Created,
  type ProgramRun,
} from "../../tools/harness/example-programs";
import { run } from "../../tools/harness/process";
import { runTempDir } from "../../tools/harness/temp";
import * as qs from "../../scripts/quickstart.cjs";
import * as selfLink from "../../scripts/self-link.cjs";

const PROGRAM_DIR = path.join(REPO_ROOT, "examples", "quickstart");
const STACK = qs.STACK;

let emu: TestEmulator;
let host: Host;
let downloadDir: string;
let config: { plain: Record<string, string>; secret: Record<string, string> };
let program: ProgramRun;
const created = new Map<string, Created>();

async function collaborationExists(id: string): Promise<boolean> {
  const session = createPortalSession({
    sharingUrl: emu.sharingUrl,
    username: config.plain["arcgis-admin:portalUsername"]!,
    password: config.secret["arcgis-admin:portalPassword"]!,
    tls: { caCert: emu.caCert! },
  });
  try {
    await getCollaboration(session, emu.portalId, id);
    return true;
  } catch (error) {
    if (isNotFoundError(error)) return false;
    throw error;
  }
}

beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, "dist", "provider", "resources", "site.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first (npm test does).");
  }
  selfLink.ensureSelfLink();
  downloadDir = runTempDir("quickstart-downloads-");
  emu = await startTestEmulator({ seed: qs.SEED_FILE, createDelayMs: 200, exportDelayMs: 100 });
  config = qs.stackConfig(emu, { downloadDir });

  program = await runProgram({
    programDir: PROGRAM_DIR,
    entry: "index.ts",
    pulumiYaml: path.join(REPO_ROOT, "Pulumi.yaml"),
    stack: STACK,
    config: config.plain,
    secrets: config.secret,
  });

  host = await startHost(REPO_ROOT);
  // As the engine configures the default provider: with the stack's config.
  await host.configure(program.stackConfig);
}, 120_000);

afterAll(async () => {
  await host?.close();
  await emu?.close();
  if (downloadDir) fs.rmSync(downloadDir, { recursive: true, force: true });
});

describe("the root program (examples/quickstart) under the language host's TypeScript setup", () => {
  it("is the program Pulumi.yaml names, and registers a Site, a SiteExport and a Collaboration", () => {
    expect(fs.readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8")).toMatch(
      /^main: examples\/quickstart\/index\.ts$/m,
    );
    expect(program.registrations.map((r) => [r.name, r.type, r.custom])).toEqual([
      ["site", "pulumi-nodejs:dynamic/arcgis-admin:Site", true],
      ["partners", "pulumi-nodejs:dynamic/arcgis-admin:Collaboration", true],
      ["site-backup", "pulumi-nodejs:dynamic/arcgis-admin:SiteExport", true],
    ]);
    // The backup waits for the site: it uses the site's outputs.
    expect(program.byName("site-backup").options?.dependencies).toEqual([program.urn("site")]);
    expect(Object.keys(program.outputs).sort()).toEqual(
      [
        "backupFile",
        "backupSha256",
        "backupSizeBytes",
        "collaborationName",
        "collaborationRole",
        "siteAdminUrl",
        "siteVersion",
        "siteState",
      ].sort(),
    );
  });

  it("reads URLs, CA certificate and credentials from stack config, passwords as secrets", () => {
    const site = program.byName("site").inputs;
    expect(unwrapSecrets(site)).toMatchObject({
      adminUrl: emu.adminUrl,
      username: "siteadmin",
      tls: { caCert: emu.caCert },
    });
    expect(unwrapSecrets(program.byName("site-backup").inputs)).toMatchObject({
      adminUrl: emu.adminUrl,
      downloadTo: downloadDir,
    });
    expect(unwrapSecrets(program.byName("partners").inputs)).toMatchObject({
      sharingUrl: emu.sharingUrl,
      collaborationId: "quickstart-partners",
      portalId: emu.portalId,
      username: "portaladmin",
    });
    for (const r of program.registrations) {
      expect(isSecret(r.inputs.password)).toBe(true);
      for (const pw of Object.values(config.secret)) {
        expect(findText(r.inputs, pw).every((hit) => hit.secret)).toBe(true);
      }
    }
  });

  it("serializes small providers that load the package by name", () => {
    for (const r of program.registrations) {
      const provider = r.inputs.__provider as string;
      expect(Buffer.byteLength(provider)).toBeLessThan(4096);
      expect(provider).toMatch(/"pulumi-arcgis-admin\/dist\/provider\/resources\/[a-z-]+\.js"/);
    }
  });

  it("has providers that resolve the package from the program's folder too (the CLI's host cwd)", async () => {
    const probe = `
      const rfs = require(require.resolve("require-from-string", { paths: [require.resolve("@pulumi/pulumi")] }));
      const inputs = JSON.parse(process.env.PROBE_INPUTS);
      const stack = JSON.parse(process.env.PROBE_CONFIG);
      const config = { get: (key) => stack[key], require: (key) => stack[key] };
      const checked = async (provider, news) => {
        await provider.configure({ config });
        return provider.check({}, news);
      };
      Promise.all(inputs.map(([text, news]) => checked(rfs(text).handler(), news)))
        .then((results) => console.log(JSON.stringify(results.map((r) => r.failures ?? []))));
    `;
    const result = await run(process.execPath, ["-e", probe], {
      cwd: PROGRAM_DIR,
      env: {
        ...process.env,
        PROBE_CONFIG: JSON.stringify(unwrapSecrets(program.stackConfig)),
        PROBE_INPUTS: JSON.stringify(
          program.registrations.map((r) => [r.inputs.__provider, unwrapSecrets(r.inputs)]),
        ),
      },
      timeoutMs: 30_000,
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual([[], [], []]);
  });
});

describe("pulumi up, then pulumi destroy, through the real dynamic-provider host", () => {
  it("checks then creates each resource in order: site, collaboration, downloaded backup", async () => {
    for (const r of program.registrations) {
      created.set(r.name, await checkAndCreate(host, program.urn(r.name), r));
    }

    const site = unwrapSecrets(created.get("site")!.properties);
    expect(site).toMatchObject({ adminUrl: emu.adminUrl, state: "created" });
    expect((await siteStatus(emu.adminUrl, { tls: { caCert: emu.caCert! } })).state).toBe(
      "in-site",
    );

    const collaboration = unwrapSecrets(created.get("partners")!.properties);
    expect(collaboration).toMatchObject({ role: "host", name: "Quick start partners" });

    const backup = unwrapSecrets(created.get("site-backup")!.properties);
    expect(path.dirname(backup.localPath as string)).toBe(downloadDir);
    expect(fs.statSync(backup.localPath as string).size).toBe(backup.sizeBytes);
    const entries = await readZip(backup.localPath as string);
    expect(entries.map((e) => e.name)).toContain("manifest.json");

    // Passwords stay under keys the engine stores as secrets.
    for (const { properties } of created.values()) {
      for (const pw of Object.values(config.secret)) {
        expect(findText(properties, pw).every((hit) => hit.secret)).toBe(true);
      }
    }
  });

  it("deletes in reverse order: the collaboration is gone, the site and the backup stay", async () => {
    for (const r of [...program.registrations].reverse()) {
      const { id, properties } = created.get(r.name)!;
      await host.delete(id, program.urn(r.name), properties);
    }
    expect(await collaborationExists("quickstart-partners")).toBe(false);
    expect((await siteStatus(emu.adminUrl, { tls: { caCert: emu.caCert! } })).state).toBe(
      "in-site",
    );
    const backup = unwrapSecrets(created.get("site-backup")!.properties);
    const entries = await readZip(backup.localPath as string);
    expect(
      JSON.parse(entries.find((e) => e.name === "manifest.json")!.data.toString("utf8")),
    ).toMatchObject({ formatVersion: 1 });
  });

  it("never prints a password", () => {
    for (const pw of Object.values(config.secret)) {
      expect(host.stdout()).not.toContain(pw);
      expect(host.stderr()).not.toContain(pw);
      expect(emu.requestLog().some((entry) => entry.url.includes(pw))).toBe(false);
    }
  });
});

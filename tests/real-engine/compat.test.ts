/**
 * A stack written by an earlier release keeps working with the package of this tree, through the
 * real Pulumi CLI, for every resource the package exports: `pulumi up` with the package as it
 * was at {@link RELEASE} (packed from git) in the consumer project, then the package of this tree
 * in its place, as `npm install` of a new release leaves it. The state is the earlier release's:
 * on the dynamic path (a TypeScript program) its serialized providers name that release's module
 * paths and its inputs hold only what that release recorded; through the provider plugin (the
 * same resources by their type tokens) it holds what that release's plugin recorded, and the
 * plugin now installed reads it. `pulumi preview --expect-no-changes` finds nothing to change,
 * `pulumi refresh` reads every resource back unchanged, `pulumi up` with a changed Site time limit
 * updates that one resource, and `pulumi destroy` deletes every resource and leaves each server
 * as its docs page promises.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  createPortalSession,
  federatedServers,
  getLogSettings,
  getSystemProperties,
  listMachines,
  presentedCertificate,
} from "../../provider/client";
import {
  collaborationExists,
  portalSeed,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { consumerOfRelease, upgradePackage } from "../../tools/harness/package-upgrade";
import { RealStack } from "../../tools/harness/real-stack";
import { archiveOf } from "../../tools/harness/site-stacks";
import { stateResources } from "../../tools/harness/engine-events";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { runTempDir } from "../../tools/harness/temp";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";

/** The last commit before resources were derived from their definitions (issue 54). */
const RELEASE = "a2d789f";
const MACHINE = "127.0.0.1";
const SITE_PASSWORD = "compat-Site-Pass-54";
const PFX_PASSWORD = "compat-Pfx-Pass-54";
const PORTAL = { username: "gisadmin", password: "compat-Portal-Pass-54" };
/** The resources of the program, and the stack itself. */
const RESOURCES = 12;

// Three runs of the CLI, and the packing of both versions of the package when not cached yet.
jest.setTimeout(600_000);

const ca = makeRootCa();
const issued = issueServerCertificate(ca, [MACHINE, "localhost"], "gis.example.com");
const fingerprint = new X509Certificate(issued.certPem).fingerprint256
  .replaceAll(":", "")
  .toLowerCase();

const emulators: TestEmulator[] = [];
const stacks: RealStack[] = [];
/** The archive every fresh machine restores: made once, on another machine. */
let archive: Promise<string>;

beforeAll(() => {
  archive = archiveOf("arcgis-server", runTempDir("compat-archives-"));
});

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  for (const emu of emulators) await emu.close();
  await closeDispatchers();
});

async function start(options: Parameters<typeof startTestEmulator>[0]): Promise<TestEmulator> {
  const emu = await startTestEmulator({ serverType: "arcgis-server", ...options });
  emulators.push(emu);
  return emu;
}

/** POSTs an emulator received whose path ends so. */
const posts = (emu: TestEmulator, suffix: string) =>
  emu.requestLog().filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith(suffix))
    .length;

/**
 * The machines of one stack: the main one (its site, certificate, settings, portal), a second
 * that joins its site, a site whose software is newer, and a fresh machine to restore onto. Each
 * serves the main machine's certificate until the bind, so the program trusts one certificate
 * and the organisation's CA.
 */
async function startMachines() {
  const main = await start({
    machineName: MACHINE,
    createDelayMs: 50,
    exportDelayMs: 50,
    restartDelayMs: 100,
    seed: portalSeed([{ ...PORTAL, role: "org_admin" }]),
  });
  const certFile = main.caCertFile!;
  const tls = { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") };
  const trust = `${main.caCert!}\n${ca.certPem}`;
  const second = await start({ machineName: "gis2", joinDelayMs: 20, tls });
  // A site made at 11.1 whose software is now 11.3: the emulator started again with upgradeFrom.
  const old = await startTestEmulator({
    serverType: "arcgis-server",
    serverVersion: "11.1",
    createDelayMs: 0,
    tls,
  });
  await createNewSite(
    old.adminUrl,
    { serverType: "arcgis-server", username: "siteadmin", password: SITE_PASSWORD },
    { tls: { caCert: trust } },
  );
  await old.close();
  const upgraded = await start({
    serverVersion: "11.3",
    upgradeFrom: "11.1",
    upgradeDelayMs: 100,
    dataDir: old.dataDir,
    tls,
  });
  const fresh = await start({ createDelayMs: 50, importDelayMs: 50, tls });
  return { main, second, upgraded, fresh, trust };
}
type Machines = Awaited<ReturnType<typeof startMachines>>;

async function configOf(m: Machines, viaPlugin: boolean): Promise<Record<string, ConfigValue>> {
  return {
    viaPlugin: { value: String(viaPlugin) },
    adminUrl: { value: m.main.adminUrl },
    caCert: { value: m.trust },
    machineName: { value: MACHINE },
    orgRootPem: { value: ca.certPem },
    pfxBase64: {
      value: pkcs12(issued, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64"),
      secret: true,
    },
    pfxPassword: { value: PFX_PASSWORD, secret: true },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    secondAdminUrl: { value: m.second.adminUrl },
    secondMachineName: { value: "gis2" },
    downloadDir: { value: runTempDir("compat-downloads-") },
    sharingUrl: { value: m.main.sharingUrl },
    portalUsername: { value: PORTAL.username },
    portalPassword: { value: PORTAL.password, secret: true },
    collaborationId: { value: "hosted1" },
    upgradeAdminUrl: { value: m.upgraded.adminUrl },
    freshAdminUrl: { value: m.fresh.adminUrl },
    archive: { value: await archive },
  };
}

describe.each([
  ["the dynamic path", false],
  ["the provider plugin", true],
] as const)("%s", (_path, viaPlugin) => {
  it(`a stack written by ${RELEASE} previews no change, refreshes, updates and destroys cleanly after the upgrade`, async () => {
    const [m, consumer] = await Promise.all([startMachines(), consumerOfRelease(RELEASE)]);
    const stack = await RealStack.create(viaPlugin ? "compat-plugin" : "compat", consumer, {
      dir: path.join(__dirname, "compat-program"),
      entry: "index.ts",
    });
    stacks.push(stack);
    // The plugin is found on PATH: the launcher of the package installed at each step.
    const bin = path.join(consumer.dir, "node_modules", "pulumi-arcgis-admin", "bin");
    const env = viaPlugin ? { PATH: [bin, process.env.PATH].join(path.delimiter) } : {};

    const up = await stack.mustRun("up", { config: await configOf(m, viaPlugin), env });
    expect(up.changeSummary).toEqual({ create: RESOURCES });
    expect(up.outputs).toMatchObject({ fingerprint });
    const backupFile = String(up.outputs?.backupFile);
    const upgrades = posts(m.upgraded, "/upgrade");
    const imports = posts(m.fresh, "/importSite");
    expect([upgrades, imports]).toEqual([1, 1]);

    await upgradePackage(consumer);

    // Each resource's diff of the earlier release's state against this package's inputs.
    const preview = await stack.run("preview", {
      options: { expectNoChanges: true, diff: true },
      env,
    });
    // On failure, the engine's display names each resource it would change and the inputs that differ.
    expect(preview.ok ? "" : `${preview.output}\n${preview.error ?? ""}`).toBe("");
    expect(preview.changeSummary).toEqual({ same: RESOURCES });

    // Each resource read back by this package from the earlier release's state, nothing changed.
    const refresh = await stack.run("refresh", { options: { expectNoChanges: true }, env });
    expect(refresh.ok ? "" : `${refresh.output}\n${refresh.error ?? ""}`).toBe("");
    expect(refresh.changeSummary).toEqual({ same: RESOURCES });

    // An update of a state-only input: this package's update, given the earlier outputs.
    const update = await stack.mustRun("up", {
      config: { siteCreateMs: { value: "1800000" } },
      env,
    });
    expect(update.changeSummary).toEqual({ same: RESOURCES - 1, update: 1 });

    // On the dynamic path destroy runs the providers that the state names: the module paths of
    // the earlier release, resolved in the package of this tree.
    const destroy = await stack.mustRun("destroy", { env });
    expect(destroy.changeSummary).toEqual({ delete: RESOURCES });
    const state = (await stack.mustRun("export")).state!;
    expect(stateResources(state)).toEqual([]);
    expect(state.deployment.pending_operations ?? []).toEqual([]);

    // Each server as the resource's docs page says destroy leaves it.
    const session = createAdminSession({
      adminUrl: m.main.adminUrl,
      username: "siteadmin",
      password: SITE_PASSWORD,
      tls: { caCert: m.trust },
    });
    // Site: left; SiteMachine: the machine it joined is unregistered.
    expect(await listMachines(session)).toEqual([MACHINE]);
    // ServerCertificate: nothing rebound, the declared certificate still presented.
    const presented = await presentedCertificate({
      host: MACHINE,
      port: Number(new URL(m.main.adminUrl).port),
      trust: { trustOnly: ca.certPem },
    });
    expect(presented.sha256Fingerprint).toBe(fingerprint);
    // SiteExport: the archive is kept.
    expect(fs.existsSync(backupFile)).toBe(true);
    // LogSettings, SystemProperties: the earlier state recorded nothing written, so nothing is
    // put back.
    expect((await getLogSettings(session)).logLevel).toBe("SEVERE");
    expect((await getSystemProperties(session)).WebContextURL).toBe(
      "https://gis.example.com/server",
    );
    // Federation: unfederated.
    const portal = createPortalSession({
      sharingUrl: m.main.sharingUrl,
      ...PORTAL,
      tls: { caCert: m.trust },
    });
    expect(await federatedServers(portal)).toEqual([]);
    // Collaboration: the hosted one is deleted.
    const trusted = { ...m.main, caCert: m.trust } as TestEmulator;
    expect(await collaborationExists(trusted, PORTAL, "hosted1")).toBe(false);
    // SiteUpgrade and SiteImport: destroy sends nothing (an upgrade or a restore cannot be undone).
    expect([posts(m.upgraded, "/upgrade"), posts(m.fresh, "/importSite")]).toEqual([
      upgrades,
      imports,
    ]);
  });
});

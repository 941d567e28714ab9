/**
 * A stack written by an earlier release keeps working with the package of this tree, through the
 * real Pulumi CLI, for every resource the package exports: `pulumi up` with the package as it
 * was at {@link RELEASE} (packed from git) in the consumer project, then the package of this tree
 * in its place, as `npm install` of a new release leaves it. The state is the earlier release's
 * (its serialized providers name that release's module paths, its inputs hold only what that
 * release recorded): `pulumi preview --expect-no-changes` finds nothing to change, and
 * `pulumi destroy` deletes every resource and leaves each server as its docs page promises.
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
  type AdminSession,
} from "../../provider/client";
import {
  collaborationExists,
  portalSeed,
  runTempDir,
  startTestEmulator,
  type TestEmulator,
} from "../../tools/harness/emulator";
import { consumerOfRelease, upgradePackage } from "../../tools/harness/package-upgrade";
import {
  archiveOf,
  RealStack,
  stateResources,
  type ConfigValue,
} from "../../tools/harness/real-stack";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../helpers/test-pki";

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
let main: TestEmulator;
let upgraded: TestEmulator;
let fresh: TestEmulator;
let stack: RealStack;
let config: Record<string, ConfigValue>;

/** Every emulator serves the main machine's certificate until the bind: one CA to trust. */
function sharedTls(): { tls: { certFile: string; keyFile: string } } {
  const certFile = main.caCertFile!;
  return { tls: { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") } };
}

async function start(options: Parameters<typeof startTestEmulator>[0]): Promise<TestEmulator> {
  const emu = await startTestEmulator({ serverType: "arcgis-server", ...options });
  emulators.push(emu);
  return emu;
}

/** What the program trusts: the certificate every machine serves first, and the organisation's CA. */
const trust = () => `${main.caCert!}\n${ca.certPem}`;

function sessionOf(emu: TestEmulator): AdminSession {
  return createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: trust() },
  });
}

/** A site made at 11.1 whose software is now 11.3: the emulator started again with upgradeFrom. */
async function siteToUpgrade(): Promise<TestEmulator> {
  const old = await startTestEmulator({
    serverType: "arcgis-server",
    serverVersion: "11.1",
    createDelayMs: 0,
    ...sharedTls(),
  });
  await createNewSite(
    old.adminUrl,
    { serverType: "arcgis-server", username: "siteadmin", password: SITE_PASSWORD },
    { tls: { caCert: main.caCert! } },
  );
  await old.close();
  return start({
    serverVersion: "11.3",
    upgradeFrom: "11.1",
    upgradeDelayMs: 100,
    dataDir: old.dataDir,
    ...sharedTls(),
  });
}

/** POSTs an emulator received whose path ends so. */
const posts = (emu: TestEmulator, suffix: string) =>
  emu.requestLog().filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith(suffix))
    .length;

beforeAll(async () => {
  main = await start({
    machineName: MACHINE,
    createDelayMs: 50,
    exportDelayMs: 50,
    restartDelayMs: 100,
    seed: portalSeed([{ ...PORTAL, role: "org_admin" }]),
  });
  const second = await start({ machineName: "gis2", joinDelayMs: 20, ...sharedTls() });
  upgraded = await siteToUpgrade();
  fresh = await start({ createDelayMs: 50, importDelayMs: 50, ...sharedTls() });
  const archives = runTempDir("compat-archives-");
  const [archive, consumer] = await Promise.all([
    archiveOf("arcgis-server", archives),
    consumerOfRelease(RELEASE),
  ]);
  stack = await RealStack.create("compat", consumer, {
    dir: path.join(__dirname, "compat-program"),
    entry: "index.ts",
  });
  config = {
    adminUrl: { value: main.adminUrl },
    caCert: { value: trust() },
    machineName: { value: MACHINE },
    orgRootPem: { value: ca.certPem },
    pfxBase64: {
      value: pkcs12(issued, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64"),
      secret: true,
    },
    pfxPassword: { value: PFX_PASSWORD, secret: true },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    secondAdminUrl: { value: second.adminUrl },
    secondMachineName: { value: "gis2" },
    downloadDir: { value: runTempDir("compat-downloads-") },
    sharingUrl: { value: main.sharingUrl },
    portalUsername: { value: PORTAL.username },
    portalPassword: { value: PORTAL.password, secret: true },
    collaborationId: { value: "hosted1" },
    upgradeAdminUrl: { value: upgraded.adminUrl },
    freshAdminUrl: { value: fresh.adminUrl },
    archive: { value: archive },
  };
}, 600_000);

afterAll(async () => {
  await stack?.cleanup();
  for (const emu of emulators) await emu.close();
  await closeDispatchers();
});

it(`a stack written by ${RELEASE} previews no change and destroys cleanly after the upgrade`, async () => {
  const up = await stack.mustRun("up", { config });
  expect(up.changeSummary).toEqual({ create: RESOURCES });
  expect(up.outputs).toMatchObject({
    siteState: "created",
    fingerprint,
    machines: [MACHINE, "gis2"],
    logLevel: "SEVERE",
    collaborationName: "Regional partners",
  });
  const backupFile = String(up.outputs?.backupFile);
  const upgrades = posts(upgraded, "/upgrade");
  const imports = posts(fresh, "/importSite");
  expect([upgrades, imports]).toEqual([1, 1]);

  await upgradePackage(stack.consumer);

  // Each resource's diff of the earlier release's state against this package's inputs.
  const preview = await stack.run("preview", {
    options: { expectNoChanges: true, diff: true },
  });
  // On failure, the engine's display names each resource it would change and the inputs that differ.
  expect(preview.ok ? "" : `${preview.output}\n${preview.error ?? ""}`).toBe("");
  expect(preview.changeSummary).toEqual({ same: RESOURCES });

  // Destroy runs the providers that the state names: the module paths of the earlier release,
  // resolved in the package of this tree.
  const destroy = await stack.mustRun("destroy");
  expect(destroy.changeSummary).toEqual({ delete: RESOURCES });
  const state = (await stack.mustRun("export")).state!;
  expect(stateResources(state)).toEqual([]);
  expect(state.deployment.pending_operations ?? []).toEqual([]);

  // Each server as the resource's docs page says destroy leaves it.
  const session = sessionOf(main);
  // Site: left; SiteMachine: the machine it joined is unregistered.
  expect(await listMachines(session)).toEqual([MACHINE]);
  // ServerCertificate: nothing rebound, the declared certificate still presented.
  const presented = await presentedCertificate({
    host: MACHINE,
    port: Number(new URL(main.adminUrl).port),
    trust: { trustOnly: ca.certPem },
  });
  expect(presented.sha256Fingerprint).toBe(fingerprint);
  // SiteExport: the archive is kept.
  expect(fs.existsSync(backupFile)).toBe(true);
  // LogSettings, SystemProperties: the earlier state recorded nothing written, so nothing is put back.
  expect((await getLogSettings(session)).logLevel).toBe("SEVERE");
  expect((await getSystemProperties(session)).WebContextURL).toBe("https://gis.example.com/server");
  // Federation: unfederated.
  const portal = createPortalSession({
    sharingUrl: main.sharingUrl,
    ...PORTAL,
    tls: { caCert: trust() },
  });
  expect(await federatedServers(portal)).toEqual([]);
  // Collaboration: the hosted one is deleted.
  const trusted = { ...main, caCert: trust() } as TestEmulator;
  expect(await collaborationExists(trusted, PORTAL, "hosted1")).toBe(false);
  // SiteUpgrade and SiteImport: destroy sends nothing (an upgrade or a restore cannot be undone).
  expect([posts(upgraded, "/upgrade"), posts(fresh, "/importSite")]).toEqual([upgrades, imports]);
});

/**
 * Another spelling of the same URL through the real Pulumi CLI, on every resource with a URL input
 * at once (url-spelling-program.cjs): created with a trailing slash on every URL, the slashes
 * removed are a `pulumi up` that replaces nothing, fails nothing and sends none of the one-shot
 * calls again. A Site moved to another server without `deleteSiteOnDestroy` is refused by check(),
 * once, under the resource, saying what to do, and nothing is sent.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeDispatchers } from "../../provider/client";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { archiveOf } from "../../tools/harness/site-stacks";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import { runTempDir } from "../../tools/harness/temp";

// A test here runs the pulumi CLI up to three times over eleven resources; on a loaded machine
// one run can take minutes.
jest.setTimeout(600_000);

const SITE_PASSWORD = "url-Spelling-Pass-53";
const PORTAL_PASSWORD = "url-Spelling-Portal-53";
const PFX_PASSWORD = "url-Spelling-Pfx-53";
const CERT_MACHINE = "127.0.0.1";

const emulators: TestEmulator[] = [];
let a: TestEmulator;
let b: TestEmulator;
let c: TestEmulator;
let stack: RealStack;
let folder: string;
let config: Record<string, ConfigValue>;

async function emulator(options: Parameters<typeof startTestEmulator>[0]) {
  const emu = await startTestEmulator(options);
  emulators.push(emu);
  return emu;
}

/** How many of the one-shot calls each machine has received. */
function oneShots(): Record<string, number> {
  const posts = (emu: TestEmulator, suffix: string) =>
    emu.requestLog().filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith(suffix))
      .length;
  return {
    createNewSite: posts(a, "/createNewSite") + posts(c, "/createNewSite"),
    importSite: posts(a, "/importSite"),
    exportSite: posts(a, "/exportSite"),
    joinSite: posts(b, "/joinSite"),
    federate: posts(a, "/federation/servers/federate"),
    unfederate: posts(a, "/unfederate"),
    logsEdit: posts(a, "/logs/settings/edit"),
    propertiesUpdate: posts(a, "/system/properties/update"),
    upgrade: posts(a, "/upgrade"),
    certificateImport: posts(c, "/importExistingServerCertificate"),
    bind: posts(c, `/machines/${CERT_MACHINE}/edit`),
    deleteSite: posts(a, "/deleteSite") + posts(c, "/deleteSite"),
    unregister: posts(a, "/unregister"),
  };
}

beforeAll(async () => {
  folder = runTempDir("real-engine-url-spelling-");
  const archive = await archiveOf("mission-server", folder);
  const downloadDir = path.join(folder, "downloads");
  fs.mkdirSync(downloadDir);
  a = await emulator({
    machineName: "gis1",
    createDelayMs: 0,
    importDelayMs: 50,
    exportDelayMs: 50,
    seed: portalSeed([{ username: "gisadmin", password: PORTAL_PASSWORD, role: "org_admin" }]),
  });
  // The joining machine presents machine a's certificate: one CA to trust for both.
  const certFile = a.caCertFile!;
  b = await emulator({
    machineName: "gis2",
    joinDelayMs: 50,
    tls: { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") },
  });
  c = await emulator({
    serverType: "arcgis-server",
    machineName: CERT_MACHINE,
    createDelayMs: 0,
    restartDelayMs: 300,
  });
  const ca = makeRootCa();
  const issued = issueServerCertificate(ca, [CERT_MACHINE, "localhost"], "gis.example.com");
  stack = await RealStack.create("url-spelling");
  fs.copyFileSync(path.join(__dirname, "url-spelling-program.cjs"), stack.program);
  config = {
    sitePassword: { value: SITE_PASSWORD, secret: true },
    portalUsername: { value: "gisadmin" },
    portalPassword: { value: PORTAL_PASSWORD, secret: true },
    pfxBase64: {
      value: pkcs12(issued, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64"),
      secret: true,
    },
    pfxPassword: { value: PFX_PASSWORD, secret: true },
    a: {
      value: JSON.stringify({
        adminUrl: a.adminUrl,
        sharingUrl: a.sharingUrl,
        caCert: a.caCert!,
        archive,
        downloadDir,
        collaborationId: "hosted1",
      }),
    },
    b: { value: JSON.stringify({ adminUrl: b.adminUrl, machineName: "gis2" }) },
    c: {
      value: JSON.stringify({
        adminUrl: c.adminUrl,
        caCert: c.caCert!,
        orgRootPem: ca.certPem,
        machineName: CERT_MACHINE,
      }),
    },
    suffix: { value: "/" },
  };
}, 300_000);

afterAll(async () => {
  await stack?.cleanup();
  for (const emu of emulators) await emu.close();
  await closeDispatchers();
  if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
});

it("every URL input written with a trailing slash, then without: an up that replaces nothing, fails nothing and sends nothing twice", async () => {
  const created = await stack.mustRun("up", { config });
  expect(created.changeSummary).toEqual({ create: 12 });
  const sent = oneShots();
  expect(sent).toMatchObject({
    createNewSite: 2,
    importSite: 1,
    exportSite: 1,
    joinSite: 1,
    federate: 1,
    certificateImport: 1,
    bind: 1,
  });

  const respelled = await stack.mustRun("up", { config: { suffix: { value: "" } } });
  expect(respelled.ok).toBe(true);
  const changes = respelled.changeSummary ?? {};
  for (const op of ["create", "delete", "replace", "create-replacement", "delete-replaced"]) {
    expect([op, changes[op] ?? 0]).toEqual([op, 0]);
  }
  expect(respelled.output).not.toContain("replace");
  expect((respelled.diagnostics ?? []).filter((d) => d.severity === "error")).toEqual([]);
  expect(oneShots()).toEqual(sent);
});

it("a Site moved to another server without deleteSiteOnDestroy is refused by check(), once, under the Site, saying what to do", async () => {
  const before = oneShots();
  const moved = a.adminUrl.replace("//127.0.0.1:", "//gis9.example.com:");
  const refused = await stack.run("up", { config: { siteAdminUrl: { value: moved } } });
  expect(refused.ok).toBe(false);
  // Said once, by the check, under the Site: a diff's error reached the engine twice (the SDK's
  // host also printed it under the stack, with its stack trace).
  const said = (refused.diagnostics ?? []).filter(
    (d) => d.severity !== "debug" && d.message.includes("Cannot change adminUrl"),
  );
  expect(said).toHaveLength(1);
  expect(said[0]!.severity).toBe("error");
  expect(said[0]!.urn).toMatch(/::site$/);
  expect(said[0]!.message).toMatch(
    /resource 'site' has a problem: Cannot change adminUrl of the site at https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin\/?: .*createNewSite cannot run on it again.*first set deleteSiteOnDestroy: true and run `pulumi up`, then make the change\./s,
  );
  expect((refused.diagnostics ?? []).filter((d) => d.severity === "error")).toHaveLength(1);
  const shown = `${refused.output}\n${refused.stderr}`;
  expect(shown).not.toMatch(/^\s*:\s*$/m);
  expect(shown).not.toContain("    at ");
  expect(oneShots()).toEqual(before);
});

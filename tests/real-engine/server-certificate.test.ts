/**
 * ServerCertificate through the real Pulumi engine, from the packed package, against the TLS
 * emulator: the machine ends up presenting the declared certificate (to a handshake that trusts
 * only the organisation's new CA), a second `up` changes nothing and sends nothing, a renewal
 * swaps it in place, the state holds the PKCS #12 file and its password only as secrets, and
 * destroy leaves a working server (binding the previous certificate again when asked).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import {
  closeDispatchers,
  createAdminSession,
  getMachine,
  presentedCertificate,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { issueServerCertificate, makeRootCa, pkcs12, type Issued } from "../helpers/test-pki";
import { RealStack, type ConfigValue } from "../../tools/harness/real-stack";

// The counts include the stack itself. A test here runs the pulumi CLI several times; on a loaded machine one run can take 30 s.
jest.setTimeout(300_000);

const MACHINE = "127.0.0.1";
const SITE_PASSWORD = "cert-Engine-Pass-41";
const PFX_PASSWORD = "pfx-Engine-Secret-41";

let emu: TestEmulator;
let stack: RealStack;
let config: Record<string, ConfigValue>;
const ca = makeRootCa();
const first = issueServerCertificate(ca, [MACHINE, "localhost"], "gis.example.com");
const firstPfx = pkcs12(first, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64");

function fingerprintOf(issued: Issued | string): string {
  const pem = typeof issued === "string" ? issued : issued.certPem;
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

/** What the machine presents to a handshake that trusts only `trusted`. */
function presentedTo(trusted: string) {
  return presentedCertificate({
    host: MACHINE,
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: trusted },
  });
}

function posts(suffix: string): number {
  return emu
    .requestLog()
    .filter((r) => r.method === "POST" && r.url.split("?")[0]!.endsWith(suffix)).length;
}
const sent = () => ({
  roots: posts("/importRootOrIntermediate"),
  servers: posts("/importExistingServerCertificate"),
  binds: posts(`/machines/${MACHINE}/edit`),
});

beforeAll(async () => {
  emu = await startTestEmulator({
    serverType: "arcgis-server",
    machineName: MACHINE,
    createDelayMs: 50,
    restartDelayMs: 300,
  });
  stack = await RealStack.create("server-certificate");
  fs.copyFileSync(path.join(__dirname, "server-certificate-program.cjs"), stack.program);
  config = {
    adminUrl: { value: emu.adminUrl },
    machineName: { value: MACHINE },
    // The self-signed certificate before the bind, the organisation's CA after it.
    caCert: { value: `${emu.caCert!}\n${ca.certPem}` },
    orgRootPem: { value: ca.certPem },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    pfxBase64: { value: firstPfx, secret: true },
    pfxPassword: { value: PFX_PASSWORD, secret: true },
  };
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
  await closeDispatchers();
});

it("the machine presents the declared certificate, trusted through the new CA alone", async () => {
  const up = await stack.mustRun("up", { config });
  expect(up.changeSummary).toEqual({ create: 3 });
  expect(sent()).toEqual({ roots: 1, servers: 1, binds: 1 });
  expect((await presentedTo(ca.certPem)).sha256Fingerprint).toBe(fingerprintOf(first));
  expect(up.outputs).toMatchObject({
    sha256Fingerprint: fingerprintOf(first),
    previousAlias: "SelfSignedCertificate",
    certificateAlias: `gis-${fingerprintOf(first).slice(0, 8)}`,
  });
  // Nothing the CLI printed holds the file or its password.
  for (const secret of [PFX_PASSWORD, firstPfx.slice(0, 40)]) {
    expect(up.output + up.stderr).not.toContain(secret);
  }
});

it("the state holds the PKCS #12 file and its password only as secrets, after a refresh too", async () => {
  const refreshed = await stack.mustRun("refresh");
  expect(refreshed.changeSummary).toEqual({ same: 3 });
  const state = (await stack.mustRun("export")).state!;
  const text = JSON.stringify(state);
  for (const secret of [PFX_PASSWORD, firstPfx.slice(0, 40), SITE_PASSWORD]) {
    expect(text).not.toContain(secret);
  }
  const resource = state.deployment.resources!.find((r) => String(r.urn).endsWith("::https")) as {
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
  };
  const SECRET_SIG = "4dabf18193072939515e22adb298388d";
  for (const key of ["pkcs12", "certPassword", "password"]) {
    expect(resource.inputs[key]).toMatchObject({ [SECRET_SIG]: expect.any(String) });
    expect(resource.outputs[key]).toMatchObject({ [SECRET_SIG]: expect.any(String) });
  }
});

it("a second up changes nothing and sends nothing", async () => {
  const before = sent();
  const again = await stack.mustRun("up", { options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 3 });
  expect(sent()).toEqual(before);
});

it("a renewal is swapped in place: imported under its own alias and bound", async () => {
  const renewed = issueServerCertificate(ca, [MACHINE, "localhost"], "gis.example.com");
  const renewedPfx = pkcs12(renewed, PFX_PASSWORD, { chain: [ca.certPem] }).toString("base64");
  const before = sent();
  const up = await stack.mustRun("up", {
    config: { pfxBase64: { value: renewedPfx, secret: true } },
  });
  expect(up.changeSummary).toEqual({ update: 1, same: 2 });
  expect(sent()).toEqual({
    roots: before.roots,
    servers: before.servers + 1,
    binds: before.binds + 1,
  });
  expect((await presentedTo(ca.certPem)).sha256Fingerprint).toBe(fingerprintOf(renewed));
  expect(up.outputs?.certificateAlias).toBe(`gis-${fingerprintOf(renewed).slice(0, 8)}`);
  expect(up.output).not.toContain(renewedPfx.slice(0, 40));
});

it("destroy with rebindPreviousOnDestroy binds the previous certificate again; the server answers", async () => {
  const up = await stack.mustRun("up", { config: { rebind: { value: "true" } } });
  expect(up.changeSummary).toEqual({ update: 1, same: 2 });
  const destroyed = await stack.mustRun("destroy");
  expect(destroyed.changeSummary).toEqual({ delete: 3 });
  // The self-signed certificate again, and the admin API answers over it.
  expect((await presentedTo(emu.caCert!)).sha256Fingerprint).toBe(fingerprintOf(emu.caCert!));
  const session = createAdminSession({
    adminUrl: emu.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: emu.caCert! },
  });
  expect((await getMachine(session, MACHINE)).webServerCertificateAlias).toBe(
    "selfsignedcertificate",
  );
  expect(emu.stats().sitesCreated).toBe(1);
});

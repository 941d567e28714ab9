/**
 * examples/https through the real dynamic-provider host: its program makes the organisation's CA
 * and a server certificate (pki.cjs, node-forge), the site is created from `arcgis-admin:*`
 * config, and its machine ends up presenting that certificate to a handshake that trusts only the
 * example's CA; then the site is federated with the emulator's portal, which imports the CA
 * first; destroy unfederates it, binds the self-signed certificate again and leaves the site.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import {
  createPortalSession,
  federatedServers,
  portalCertificate,
  presentedCertificate,
} from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startHost } from "../../tools/harness/host";
import { unwrapSecrets } from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { checkAndCreate, runProgram } from "../../tools/harness/example-programs";
import * as selfLink from "../../scripts/self-link.cjs";

const PKI_DIR = path.join(REPO_ROOT, "examples", "https", "pki");
const PORTAL_ADMIN = { username: "portaladmin", password: "emulator-Admin-1" };

let emu: TestEmulator;
let host: Host;

beforeAll(async () => {
  selfLink.ensureSelfLink();
  // The example keeps its CA between runs; this test starts from none and leaves none.
  fs.rmSync(PKI_DIR, { recursive: true, force: true });
  emu = await startTestEmulator({
    serverType: "arcgis-server",
    machineName: "127.0.0.1",
    createDelayMs: 50,
    restartDelayMs: 200,
  });
  host = await startHost(REPO_ROOT);
  await host.configure();
}, 60_000);

afterAll(async () => {
  await host?.close();
  await emu?.close();
  fs.rmSync(PKI_DIR, { recursive: true, force: true });
});

function presentedTo(trusted: string) {
  return presentedCertificate({
    host: "127.0.0.1",
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: trusted },
  });
}

it("binds a certificate of the example's own CA to the site's machine and federates the site; destroy unfederates it and binds the self-signed one again", async () => {
  const programDir = path.join(REPO_ROOT, "examples", "https");
  const program = await runProgram({
    programDir,
    entry: "index.ts",
    pulumiYaml: path.join(programDir, "Pulumi.yaml"),
    stack: "dev",
    config: {
      "arcgis-admin:adminUrl": emu.adminUrl,
      "arcgis-admin:username": "siteadmin",
      "arcgis-admin:caCert": emu.caCert!,
      "arcgis-admin:sharingUrl": emu.sharingUrl,
      "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
      portalRestartWaitMs: "0",
    },
    secrets: {
      "arcgis-admin:password": "example-Https-Site-1",
      "arcgis-admin:portalPassword": PORTAL_ADMIN.password,
      pfxPassword: "example-Pfx-1",
    },
    typeCheck: false,
  });
  const caPem = fs.readFileSync(path.join(PKI_DIR, "ca.pem"), "utf8");
  expect(fs.readdirSync(PKI_DIR).sort()).toEqual(["ca-key.pem", "ca.pem", "server-1.pfx"]);
  const site = await checkAndCreate(host, program.urn("site"), program.byName("site"));
  expect(unwrapSecrets(site.properties)).toMatchObject({ state: "created" });
  const https = await checkAndCreate(host, program.urn("https"), program.byName("https"));
  const outs = unwrapSecrets(https.properties) as Record<string, unknown>;
  const presented = await presentedTo(caPem);
  expect(outs).toMatchObject({
    sha256Fingerprint: presented.sha256Fingerprint,
    previousAlias: "SelfSignedCertificate",
  });
  expect(new X509Certificate(presented.pem).checkIssued(new X509Certificate(caPem))).toBe(true);
  // Federated only after the bind, with the portal given the CA that signed the new certificate.
  expect(program.byName("federation").options?.dependencies).toContain(program.urn("https"));
  const federation = await checkAndCreate(
    host,
    program.urn("federation"),
    program.byName("federation"),
  );
  expect(unwrapSecrets(federation.properties)).toMatchObject({
    state: "federated",
    serverType: "arcgis-server",
  });
  // The emulator's portal answers on the machine's port, so it presents the new certificate too.
  const portal = createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...PORTAL_ADMIN,
    tls: { caCert: `${emu.caCert!}\n${caPem}` },
  });
  expect(await federatedServers(portal)).toEqual([expect.objectContaining({ id: federation.id })]);
  const trusted = await portalCertificate(portal, "examplerootca");
  expect(trusted?.sha256Fingerprint?.replace(/[^0-9a-f]/gi, "").toLowerCase()).toBe(
    new X509Certificate(caPem).fingerprint256.replaceAll(":", "").toLowerCase(),
  );
  // Destroy in the engine's order: the federation before the certificate it depends on.
  await host.delete(federation.id, program.urn("federation"), federation.properties);
  expect(await federatedServers(portal)).toEqual([]);
  await host.delete(https.id, program.urn("https"), https.properties);
  const selfSigned = await presentedTo(emu.caCert!);
  expect(selfSigned.sha256Fingerprint).toBe(
    new X509Certificate(emu.caCert!).fingerprint256.replaceAll(":", "").toLowerCase(),
  );
  expect(emu.stats().sitesCreated).toBe(1);
});

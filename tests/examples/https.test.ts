/**
 * examples/https through the real dynamic-provider host: its program makes the organisation's CA
 * and a server certificate (pki.cjs, node-forge), the site is created from `arcgis-admin:*`
 * config, and its machine ends up presenting that certificate to a handshake that trusts only the
 * example's CA; destroy binds the self-signed certificate again and leaves the site.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import { presentedCertificate } from "../../provider/client";
import { REPO_ROOT, startHost, unwrapSecrets, type Host } from "../../tools/harness/host";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { checkAndCreate, runProgram } from "./support";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const selfLink = require("../../scripts/self-link.cjs");

const PKI_DIR = path.join(REPO_ROOT, "examples", "https", "pki");

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

it("binds a certificate of the example's own CA to the site's machine; destroy binds the self-signed one again", async () => {
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
    },
    secrets: { "arcgis-admin:password": "example-Https-Site-1", pfxPassword: "example-Pfx-1" },
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
  await host.delete(https.id, program.urn("https"), https.properties);
  const selfSigned = await presentedTo(emu.caCert!);
  expect(selfSigned.sha256Fingerprint).toBe(
    new X509Certificate(emu.caCert!).fingerprint256.replaceAll(":", "").toLowerCase(),
  );
  expect(emu.stats().sitesCreated).toBe(1);
});

/**
 * ServerCertificate through Pulumi's real dynamic-provider host, from the packed package in a
 * consumer project's node_modules, against the TLS emulator: check (also with the PKCS #12 file
 * unknown, as in a preview), create (the machine presents the certificate), the PKCS #12 file and
 * both passwords kept as secrets, a no-op diff, a renewal diffed as an update in place, refresh,
 * and delete leaving the server as it is.
 */
import { X509Certificate } from "node:crypto";
import { createNewSite, presentedCertificate } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import {
  closeAll,
  consumerWithHost,
  type Consumer,
  type Registration,
} from "../../tools/harness/consumer";
import {
  findText,
  isSecret,
  UNKNOWN,
  unwrapSecrets,
  urn,
} from "../../tools/harness/property-values";
import type { Host } from "../../tools/harness/host-types";

const ADMIN = { username: "siteadmin", password: "cert-Engine-Pw-7d1e" };
const PFX_PASSWORD = "pfx-Engine-Pw-41aa";
const URN = urn("https");
const MACHINE = "127.0.0.1";

let consumer: Consumer;
let host: Host;
let emu: TestEmulator;
let registration: Registration;
const ca = makeRootCa();
const server = issueServerCertificate(ca, [MACHINE]);
const pfx = pkcs12(server, PFX_PASSWORD).toString("base64");
const fingerprint = new X509Certificate(server.certPem).fingerprint256
  .replaceAll(":", "")
  .toLowerCase();

beforeAll(async () => {
  ({ consumer, host } = await consumerWithHost());
  emu = await startTestEmulator({
    serverType: "arcgis-server",
    machineName: MACHINE,
    createDelayMs: 0,
    restartDelayMs: 200,
  });
  await createNewSite(
    emu.adminUrl,
    { serverType: "arcgis-server", ...ADMIN },
    { tls: { caCert: emu.caCert! } },
  );
  [registration] = (await consumer.runProgram(`
    const { ServerCertificate } = require("pulumi-arcgis-admin");
    new ServerCertificate("https", ${JSON.stringify({
      serverType: "arcgis-server",
      adminUrl: emu.adminUrl,
      ...ADMIN,
      tls: { caCert: emu.caCert },
      machineName: MACHINE,
      caCertificates: [{ alias: "orgroot", pem: ca.certPem }],
      pkcs12: pfx,
      certPassword: PFX_PASSWORD,
      alias: "gis",
    })});
  `)) as [Registration];
}, 180_000);

afterAll(async () => {
  await emu?.close();
  await closeAll(host, consumer);
});

it("goes through check, preview, create, no-op diff, a renewal's diff, refresh and delete", async () => {
  // The class registers the file and its password as secrets.
  expect(isSecret(registration.inputs.pkcs12)).toBe(true);
  expect(isSecret(registration.inputs.certPassword)).toBe(true);
  const preview = await host.check(URN, {}, { ...registration.inputs, pkcs12: UNKNOWN });
  expect(preview.failures).toEqual([]);

  const checked = await host.check(URN, {}, registration.inputs);
  expect(checked.failures).toEqual([]);
  const created = await host.create(URN, checked.inputs, {
    additionalSecretOutputs: registration.options?.additionalSecretOutputs ?? [],
  });
  expect(created.id).toBe(`${emu.adminUrl}/machines/${MACHINE}/webServerCertificate`);
  expect(unwrapSecrets(created.properties)).toMatchObject({
    sha256Fingerprint: fingerprint,
    certificateAlias: `gis-${fingerprint.slice(0, 8)}`,
  });
  const seen = await presentedCertificate({
    host: MACHINE,
    port: Number(new URL(emu.adminUrl).port),
    trust: { trustOnly: ca.certPem },
  });
  expect(seen.sha256Fingerprint).toBe(fingerprint);
  // Every place the file and the passwords appear in the outputs is a secret.
  for (const secret of [pfx, PFX_PASSWORD, ADMIN.password]) {
    const hits = findText(created.properties, secret);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.filter((h) => !h.secret)).toEqual([]);
  }

  const same = await host.diff(created.id, URN, created.properties, checked.inputs);
  expect(same.changes).toBe("DIFF_NONE");
  const renewed = pkcs12(issueServerCertificate(ca, [MACHINE]), PFX_PASSWORD).toString("base64");
  const renewal = await host.diff(created.id, URN, created.properties, {
    ...checked.inputs,
    pkcs12: renewed,
  });
  expect(renewal.changes).toBe("DIFF_SOME");
  expect(renewal.replaces).toEqual([]);

  const read = await host.read(created.id, URN, created.properties, checked.inputs);
  expect(read.id).toBe(created.id);
  expect(unwrapSecrets(read.properties)).toMatchObject({
    boundAlias: `gis-${fingerprint.slice(0, 8)}`,
  });

  const edits = () => emu.requestLog().filter((r) => r.url.includes("/edit")).length;
  const before = edits();
  await host.delete(created.id, URN, created.properties);
  expect(edits()).toBe(before);
});

/**
 * examples/https with the Pulumi CLI, as its README runs it, from the packed package: `pulumi up`
 * makes the example's CA, creates the site, binds a certificate of that CA to the site's machine
 * and only then federates the site with the portal (which imports the CA first); an unchanged
 * `pulumi up`; `pulumi destroy` unfederates the server, binds the self-signed certificate again
 * and leaves the site.
 */
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  createPortalSession,
  federatedServers,
  portalCertificate,
  presentedCertificate,
} from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/cli-project";

jest.setTimeout(300_000);

const PORTAL_ADMIN = { username: "portaladmin", password: "emulator-Admin-1" };

let emu: TestEmulator;
let project: CliProject;

beforeAll(async () => {
  [emu, project] = await Promise.all([
    startTestEmulator({ serverType: "arcgis-server", machineName: "127.0.0.1", createDelayMs: 50 }),
    CliProject.create(path.join(REPO_ROOT, "examples", "https")),
  ]);
  // The copy starts without a CA: one the example suite may have left in the repository's
  // folder was made with another password.
  fs.rmSync(path.join(project.dir, "pki"), { recursive: true, force: true });
}, 240_000);

afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
});

function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

it("binds the example CA's certificate, then federates; destroy unfederates before binding the self-signed one again", async () => {
  await project.mustCli(["stack", "init", "dev"]);
  await project.mustCli([
    "config",
    "set-all",
    ...Object.entries({
      "arcgis-admin:adminUrl": emu.adminUrl,
      "arcgis-admin:username": "siteadmin",
      "arcgis-admin:caCert": emu.caCert!,
      "arcgis-admin:sharingUrl": emu.sharingUrl,
      "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
      // The emulator's portal does not restart after an import: no wait needed.
      portalRestartWaitMs: "0",
    }).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
  ]);
  // Each secret on stdin, never on a command line.
  for (const [key, value] of Object.entries({
    "arcgis-admin:password": "example-Https-Site-1",
    "arcgis-admin:portalPassword": PORTAL_ADMIN.password,
    pfxPassword: "example-Pfx-1",
  })) {
    await project.mustCli(["config", "set", "--secret", key], undefined, value);
  }

  const up = await project.deploy("up");
  expect(up.changeSummary).toEqual({ create: 4 });
  const outputs = up.outputs!;
  const caPem = outputs.caCertificate as string;
  const port = Number(new URL(emu.adminUrl).port);
  const presented = await presentedCertificate({
    host: "127.0.0.1",
    port,
    trust: { trustOnly: caPem },
  });
  expect(outputs).toMatchObject({
    sha256Fingerprint: presented.sha256Fingerprint,
    federationState: "federated",
  });
  // The emulator's portal answers on the machine's port, so it presents the new certificate too.
  const portal = createPortalSession({
    sharingUrl: emu.sharingUrl,
    ...PORTAL_ADMIN,
    tls: { caCert: `${emu.caCert!}\n${caPem}` },
  });
  expect(await federatedServers(portal)).toEqual([
    expect.objectContaining({ id: outputs.serverId }),
  ]);
  const trusted = await portalCertificate(portal, "examplerootca");
  expect(trusted?.sha256Fingerprint?.replace(/[^0-9a-f]/gi, "").toLowerCase()).toBe(
    fingerprintOf(caPem),
  );
  // The federate came after the bind: the portal was asked once the machine presented the CA's certificate.
  const log = emu.requestLog().map((r) => r.url);
  const bind = log.findIndex((u) => /\/machines\/[^/]+\/edit\b/.test(u));
  const federate = log.findIndex((u) => /\/federation\/servers\/federate\b/.test(u));
  expect(bind).toBeGreaterThanOrEqual(0);
  expect(federate).toBeGreaterThan(bind);

  // The second run and destroy skip their preview: only the first `up` is the README's command.
  const again = await project.deploy("up", [], { skipPreview: true });
  expect(again.changeSummary).toEqual({ same: 4 });

  const destroyed = await project.deploy("destroy", [], { skipPreview: true });
  expect(destroyed.changeSummary).toEqual({ delete: 4 });
  expect(await federatedServers(portal)).toEqual([]);
  const selfSigned = await presentedCertificate({
    host: "127.0.0.1",
    port,
    trust: { trustOnly: emu.caCert! },
  });
  expect(selfSigned.sha256Fingerprint).toBe(fingerprintOf(emu.caCert!));
  // Unfederated before the rebind: the engine deletes the federation first (its dependsOn).
  const after = emu.requestLog().map((r) => r.url);
  const unfederate = after.findIndex((u) => /\/servers\/[^/]+\/unfederate\b/.test(u));
  const rebind = after.findLastIndex((u) => /\/machines\/[^/]+\/edit\b/.test(u));
  expect(unfederate).toBeGreaterThan(federate);
  expect(rebind).toBeGreaterThan(unfederate);
  expect(emu.stats().sitesCreated).toBe(1);
});

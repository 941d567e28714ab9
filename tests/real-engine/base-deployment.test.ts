/**
 * examples/base-deployment (TypeScript, the dynamic provider) and examples/base-deployment-yaml
 * (Pulumi YAML, the plugin) with the Pulumi CLI, each against an emulator of fresh installs: a
 * portal in no site, a machine in no site, a Web Adaptor nobody registered. Before `up` a request
 * through the Web Adaptor's URL is refused; after `up` the portal's site exists with the declared
 * administrator, the machine presents the organisation's certificate, and a request through the
 * Web Adaptor's URL reaches the server's REST API; an unchanged `up` changes nothing; after
 * `destroy` the Web Adaptor's URL is refused again and the server is no longer federated.
 */
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import { Agent, request } from "undici";
import {
  createPortalSession,
  federatedServers,
  generateToken,
  presentedCertificate,
} from "../../provider/client";
import { REPO_ROOT } from "../../tools/harness/project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { issueServerCertificate, makeRootCa, pkcs12 } from "../../tools/harness/pki";
import { CliProject } from "../../tools/harness/cli-project";

jest.setTimeout(300_000);

const SITE_ADMIN = { username: "siteadmin", password: "base-Site-Admin-1" };
const PORTAL_ADMIN = { username: "portaladmin", password: "base-Portal-Admin-1" };
const PFX_PASSWORD = "base-Pfx-1";

const emulators: TestEmulator[] = [];
const projects: CliProject[] = [];

afterAll(async () => {
  await Promise.all(projects.map((p) => p.cleanup()));
  await Promise.all(emulators.map((e) => e.close()));
});

/** Fresh installs: a server machine and a portal in no site, a Web Adaptor not registered. */
async function freshInstalls(): Promise<TestEmulator> {
  const emu = await startTestEmulator({
    serverType: "arcgis-server",
    machineName: "127.0.0.1",
    createDelayMs: 50,
    portalNoSite: true,
    portalCreateDelayMs: 50,
    restartDelayMs: 100,
    webAdaptor: { context: "server", port: 0 },
  });
  emulators.push(emu);
  return emu;
}

/** A GET of the server's REST API through the Web Adaptor: its status, and whether it is rest/info. */
async function throughWebAdaptor(emu: TestEmulator, trusted: string) {
  const dispatcher = new Agent({ connect: { ca: trusted } });
  try {
    const answer = await request(`${emu.webAdaptorUrl!}/rest/info?f=json`, { dispatcher });
    const text = await answer.body.text();
    return { status: answer.statusCode, reachesServer: /"currentVersion"/.test(text) };
  } finally {
    await dispatcher.close();
  }
}

const fingerprintOf = (pem: string) =>
  new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();

describe.each([
  { example: "base-deployment", plugin: false },
  { example: "base-deployment-yaml", plugin: true },
])("examples/$example", ({ example, plugin }) => {
  it("builds the base deployment from fresh installs, keeps it unchanged, and destroys it cleanly", async () => {
    const [emu, project] = await Promise.all([
      freshInstalls(),
      CliProject.create(path.join(REPO_ROOT, "examples", example)),
    ]);
    projects.push(project);
    if (plugin) await project.installPlugin();
    const ca = makeRootCa();
    const issued = issueServerCertificate(ca, ["127.0.0.1"]);
    const trusted = `${emu.caCert!}\n${ca.certPem}`;

    const before = await throughWebAdaptor(emu, trusted);
    expect(before).toEqual({ status: 503, reachesServer: false });

    await project.mustCli(["stack", "init", "dev"]);
    await project.mustCli([
      "config",
      "set-all",
      ...Object.entries({
        "arcgis-admin:adminUrl": emu.adminUrl,
        "arcgis-admin:username": SITE_ADMIN.username,
        "arcgis-admin:caCert": emu.caCert!,
        "arcgis-admin:sharingUrl": emu.sharingUrl,
        "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
        portalEmail: "gis-admins@example.com",
        portalContentDir: "/arcgis/portal/content",
        machineName: "127.0.0.1",
        caCertificate: ca.certPem,
        webAdaptorUrl: emu.webAdaptorUrl!,
        ...(plugin ? { trustedCertificates: trusted } : {}),
      }).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
    ]);
    await project.setSecrets({
      "arcgis-admin:password": SITE_ADMIN.password,
      "arcgis-admin:portalPassword": PORTAL_ADMIN.password,
      serverCertificatePfx: pkcs12(issued, PFX_PASSWORD).toString("base64"),
      serverCertificatePassword: PFX_PASSWORD,
    });

    const up = await project.deploy("up");
    expect(up.changeSummary).toEqual({ create: 7 });
    // The portal's site, with the declared administrator: it signs in.
    const token = await generateToken({
      ...PORTAL_ADMIN,
      tokenUrl: `${emu.sharingUrl}/generateToken`,
      referer: "https://base-deployment.test",
      tls: { caCert: trusted },
    });
    expect(token.token).toEqual(expect.any(String));
    // The machine presents the organisation's certificate.
    const presented = await presentedCertificate({
      host: "127.0.0.1",
      port: Number(new URL(emu.adminUrl).port),
      trust: { trustOnly: ca.certPem },
    });
    expect(presented.sha256Fingerprint).toBe(fingerprintOf(issued.certPem));
    // Through the Web Adaptor's URL, the server's REST API answers.
    expect(await throughWebAdaptor(emu, trusted)).toEqual({ status: 200, reachesServer: true });
    const portal = createPortalSession({
      sharingUrl: emu.sharingUrl,
      ...PORTAL_ADMIN,
      tls: { caCert: trusted },
    });
    expect(await federatedServers(portal)).toEqual([
      expect.objectContaining({ url: emu.webAdaptorUrl }),
    ]);

    const again = await project.deploy("up", ["--expect-no-changes"], { skipPreview: true });
    expect(again.changeSummary).toEqual({ same: 7 });

    const destroyed = await project.deploy("destroy", [], { skipPreview: true });
    expect(destroyed.changeSummary).toEqual({ delete: 7 });
    expect(await throughWebAdaptor(emu, trusted)).toEqual({ status: 503, reachesServer: false });
    expect(await federatedServers(portal)).toEqual([]);
    expect(emu.stats().sitesCreated).toBe(1);
  });
});

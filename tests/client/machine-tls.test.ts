/**
 * The client's machine TLS operations over the network against the emulator, per product: the
 * keystore list (each product's list key), one certificate, the imports (root PEM and DER, a
 * server certificate from PKCS #12), the bind through `machines/<m>/edit` sending back the whole
 * read, the web server presenting the new certificate (checked by a handshake that trusts only the
 * organisation's CA), deletion, and the refusals: a wrong `certPassword` (named, never shown, and
 * nothing sent), a file the server refuses, a taken alias, an unknown alias.
 */
import { X509Certificate } from "node:crypto";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  deleteSslCertificate,
  editMachine,
  getMachine,
  getSslCertificate,
  importExistingServerCertificate,
  importRootOrIntermediate,
  isArcGISRequestError,
  isNotFoundError,
  listSslCertificates,
  presentedCertificate,
  type AdminSession,
  type ArcGISRequestError,
  type ServerType,
} from "../../provider/client";
import { machineEditForm } from "../../provider/client/admin/editMachine";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { issueServerCertificate, makeRootCa, pkcs12, type Issued } from "../../tools/harness/pki";

const ADMIN = { username: "siteadmin", password: "tls-Admin-Pass-1" };
const PFX_PASSWORD = "pfx-Secret-41";
const MACHINE = "127.0.0.1";

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<ArcGISRequestError> {
  try {
    await promise;
  } catch (error) {
    if (isArcGISRequestError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

async function eventually<T>(look: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await look();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterAll(() => closeDispatchers());

describe.each([
  ["arcgis-server", "certificates"],
  ["mission-server", "certificates and sslCertificates"],
  ["video-server", "sslCertificates"],
] as const)("machine TLS on %s (list key: %s)", (serverType: ServerType, _listKey: string) => {
  let emu: TestEmulator;
  let session: AdminSession;
  let selfSigned: string;
  let ca: Issued;
  let server: Issued;
  let port: number;

  beforeAll(async () => {
    ca = makeRootCa();
    server = issueServerCertificate(ca, ["127.0.0.1", "localhost"], "gis.example.com");
    emu = await startTestEmulator({
      serverType,
      serverVersion: serverType === "video-server" ? "12.0" : "11.3",
      machineName: MACHINE,
      createDelayMs: 0,
      restartDelayMs: 200,
    });
    selfSigned = emu.caCert!;
    port = Number(new URL(emu.adminUrl).port);
    await createNewSite(emu.adminUrl, { serverType, ...ADMIN }, { tls: { caCert: selfSigned } });
    // Trusts both: the self-signed certificate now, the organisation's once bound.
    session = createAdminSession({
      adminUrl: emu.adminUrl,
      ...ADMIN,
      tls: { caCert: `${selfSigned}\n${ca.certPem}` },
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  it("lists the keystore and reads the self-signed certificate the listener presents", async () => {
    expect(await listSslCertificates(session, MACHINE)).toEqual(["selfsignedcertificate"]);
    const read = await getSslCertificate(session, MACHINE, "SelfSignedCertificate");
    const presented = await presentedCertificate({
      host: "127.0.0.1",
      port,
      trust: { trustOnly: selfSigned },
    });
    expect(read).toMatchObject({
      alias: "selfsignedcertificate",
      entryType: "PrivateKeyEntry",
      subject: "CN=arcgis-admin-emulator",
      sha256Fingerprint: presented.sha256Fingerprint,
      sha1Fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/),
      keyAlgorithm: "EC",
    });
    expect(read.sha256Fingerprint).toBe(fingerprintOf(selfSigned));
    expect(read.validUntil).toEqual(new X509Certificate(selfSigned).validToDate);
    expect(presented.verified).toBe(true);
  });

  it("refuses an unknown alias, naming it, the machine and the aliases held", async () => {
    const error = await failure(getSslCertificate(session, MACHINE, "no-such-alias"));
    expect(isNotFoundError(error)).toBe(true);
    expect(error.message).toContain("'no-such-alias'");
    expect(error.message).toContain(`machine '${MACHINE}'`);
    expect(error.message).toContain("holds: selfsignedcertificate");
    const removal = await failure(deleteSslCertificate(session, MACHINE, "no-such-alias"));
    expect(removal.serverCode).toBe(404);
    expect(removal.message).toContain("'no-such-alias'");
    // An unknown machine is not worded as an unknown alias.
    const machine = await failure(getSslCertificate(session, "nosuchmachine", "x"));
    expect(machine.serverCode).toBe(404);
    expect(machine.message).not.toContain("holds:");
  });

  it("imports the organisation's root (PEM and DER), never over a taken alias", async () => {
    const imported = await importRootOrIntermediate(session, {
      machineName: MACHINE,
      alias: "OrgRootCA",
      certificate: ca.certPem,
    });
    expect(imported.sha256Fingerprint).toBe(fingerprintOf(ca.certPem));
    const intermediate = makeRootCa("Test Organisation Other CA");
    await importRootOrIntermediate(session, {
      machineName: MACHINE,
      alias: "otherca",
      certificate: new X509Certificate(intermediate.certPem).raw,
    });
    expect(await listSslCertificates(session, MACHINE)).toEqual([
      "selfsignedcertificate",
      "orgrootca",
      "otherca",
    ]);
    expect(await getSslCertificate(session, MACHINE, "orgrootca")).toMatchObject({
      entryType: "trustedCertEntry",
      subject: "CN=Test Organisation Root CA, O=Test Organisation",
      sha256Fingerprint: fingerprintOf(ca.certPem),
    });
    const taken = await failure(
      importRootOrIntermediate(session, {
        machineName: MACHINE,
        alias: "orgrootca",
        certificate: intermediate.certPem,
      }),
    );
    expect(taken.code).toBe("SERVER");
    expect(taken.message).toContain("Importing CA certificate failed.");
    expect(taken.message).toContain("alias 'orgrootca' is not already in the keystore");
    // Still the first certificate under that alias.
    expect((await getSslCertificate(session, MACHINE, "orgrootca")).sha256Fingerprint).toBe(
      fingerprintOf(ca.certPem),
    );
    const notACertificate = await failure(
      importRootOrIntermediate(session, {
        machineName: MACHINE,
        alias: "junk",
        certificate: "not a certificate",
      }),
    );
    expect(notACertificate.code).toBe("BAD_INPUT");
  });

  it("refuses a wrong certPassword before sending, naming it and never showing it", async () => {
    const before = emu.requestLog().length;
    const error = await failure(
      importExistingServerCertificate(session, {
        machineName: MACHINE,
        alias: "gis.example.com",
        pkcs12: pkcs12(server, PFX_PASSWORD, { chain: [ca.certPem] }),
        certPassword: "Wrong-Pfx-Password-9",
      }),
    );
    expect(error.code).toBe("BAD_INPUT");
    expect(error.message).toContain("certPassword");
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
      "Wrong-Pfx-Password-9",
    );
    expect(
      emu
        .requestLog()
        .slice(before)
        .filter((entry) => entry.url.includes("importExistingServerCertificate")),
    ).toEqual([]);
  });

  it("words a server's refusal of the file with certPassword, and redacts the password", async () => {
    // Not a PKCS #12 file: the client cannot judge it, the server refuses it.
    const error = await failure(
      importExistingServerCertificate(session, {
        machineName: MACHINE,
        alias: "not-a-pfx",
        pkcs12: Buffer.from(server.certPem),
        certPassword: PFX_PASSWORD,
      }),
    );
    expect(error.code).toBe("SERVER");
    expect(error.serverCode).toBe(500);
    expect(error.message).toContain("Importing CA certificate failed.");
    expect(error.message).toContain("certPassword opens it");
    for (const text of [error.message, ...error.messages, error.stack ?? ""]) {
      expect(text).not.toContain(PFX_PASSWORD);
    }
    expect(emu.requestLog().some((entry) => entry.url.includes(PFX_PASSWORD))).toBe(false);
  });

  it("imports the server certificate, binds it sending back the whole read, and the listener presents it", async () => {
    await importExistingServerCertificate(session, {
      machineName: MACHINE,
      alias: "gis.example.com",
      pkcs12: pkcs12(server, PFX_PASSWORD, { chain: [ca.certPem] }),
      certPassword: PFX_PASSWORD,
    });
    expect(await getSslCertificate(session, MACHINE, "gis.example.com")).toMatchObject({
      entryType: "PrivateKeyEntry",
      issuer: "CN=Test Organisation Root CA, O=Test Organisation",
      subject: "CN=gis.example.com, O=Test Organisation",
      sha256Fingerprint: fingerprintOf(server.certPem),
    });
    // A second import under the same alias is refused, never an overwrite.
    const again = await failure(
      importExistingServerCertificate(session, {
        machineName: MACHINE,
        alias: "gis.example.com",
        pkcs12: pkcs12(server, PFX_PASSWORD),
        certPassword: PFX_PASSWORD,
      }),
    );
    expect(again.message).toContain("alias 'gis.example.com' is not already in the keystore");

    // Before the bind, a handshake trusting only the organisation's CA fails.
    const untrusted = await failure(
      presentedCertificate({ host: "127.0.0.1", port, trust: { trustOnly: ca.certPem } }),
    );
    expect(untrusted.code).toBe("TLS");
    expect(untrusted.message).toContain("trust.trustOnly");
    const unverified = await presentedCertificate({
      host: "127.0.0.1",
      port,
      trust: "do-not-verify",
    });
    expect(unverified).toMatchObject({
      sha256Fingerprint: fingerprintOf(selfSigned),
      verified: false,
    });

    const machine = await getMachine(session, MACHINE);
    expect(machine).toMatchObject({
      machineName: MACHINE,
      webServerCertificateAlias: "SelfSignedCertificate",
    });
    // A certificate without a key (a root), or one the keystore lacks, cannot be bound.
    for (const alias of ["orgrootca", "not-imported"]) {
      const refused = await failure(
        editMachine(session, machine, { webServerCertificateAlias: alias }),
      );
      expect(refused.code).toBe("SERVER");
      expect(refused.message).toContain(alias);
    }
    await editMachine(session, machine, { webServerCertificateAlias: "gis.example.com" });
    const after = await getMachine(session, MACHINE);
    expect(after.webServerCertificateAlias).toBe("gis.example.com");
    // Every other field is as it was read (it was sent back unchanged).
    expect({ ...after, webServerCertificateAlias: undefined }).toEqual({
      ...machine,
      webServerCertificateAlias: undefined,
    });

    const seen = await eventually(
      () =>
        presentedCertificate({ host: "127.0.0.1", port, trust: { trustOnly: ca.certPem } }).catch(
          (error: unknown) => error,
        ),
      (value) => !isArcGISRequestError(value),
    );
    expect(seen).toMatchObject({
      sha256Fingerprint: fingerprintOf(server.certPem),
      verified: true,
    });
    // The old certificate is no longer presented.
    expect(
      (
        await failure(
          presentedCertificate({ host: "127.0.0.1", port, trust: { trustOnly: selfSigned } }),
        )
      ).code,
    ).toBe("TLS");
  });

  it("deletes a certificate, but not the one the web server is bound to", async () => {
    const bound = await failure(deleteSslCertificate(session, MACHINE, "gis.example.com"));
    expect(bound.code).toBe("SERVER");
    expect(bound.serverCode).toBe(400);
    await deleteSslCertificate(session, MACHINE, "otherca");
    expect(await listSslCertificates(session, MACHINE)).not.toContain("otherca");
  });
});

describe("machineEditForm()", () => {
  it("sends back every scalar field read and Chef's port parameters, with the changes on top", () => {
    const read = {
      machineName: "GIS1.EXAMPLE.COM",
      platform: "linux",
      adminURL: "https://gis1.example.com:6443/arcgis/admin",
      ports: { HTTP: 6080, HTTPS: 6443, JMXPort: 4000, OpenEJBPort: 4001 },
      ServerStartTime: 1700000000000,
      webServerMaxHeapSize: -1,
      appServerMaxHeapSize: 256,
      socMaxHeapSize: 64,
      webServerSSLEnabled: true,
      webServerCertificateAlias: "SelfSignedCertificate",
      configuredState: "STARTED",
      synchronize: false,
    };
    expect(machineEditForm(read, { webServerCertificateAlias: "gis-2025" })).toEqual({
      machineName: "GIS1.EXAMPLE.COM",
      platform: "linux",
      adminURL: "https://gis1.example.com:6443/arcgis/admin",
      ServerStartTime: 1700000000000,
      webServerMaxHeapSize: -1,
      appServerMaxHeapSize: 256,
      socMaxHeapSize: 64,
      webServerSSLEnabled: true,
      webServerCertificateAlias: "gis-2025",
      configuredState: "STARTED",
      synchronize: false,
      JMXPort: 4000,
      OpenEJBPort: 4001,
    });
  });
});

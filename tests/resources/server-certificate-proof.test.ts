/**
 * The proof of a ServerCertificate's certificate from its inputs alone (proof.ts), rule by rule:
 * the file opens with certPassword, its private key matches its certificate, the certificate is
 * valid now, names the host of webServerUrl (else adminUrl) as TLS checks it (alternative names
 * first, the common name only without a DNS name, a wildcard in the left-most label only, an IP
 * address against IP addresses alone), and chains to a root among caCertificates. Then where it
 * runs: check() on a new or changed certificate only, never on an unchanged one; a URL still
 * unknown at check is proven at create, before anything is sent; an update that leaves an expired
 * certificate in place is not refused.
 */
import { X509Certificate } from "node:crypto";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  editMachine,
  getMachine,
  importExistingServerCertificate,
} from "../../provider/client";
import { UNKNOWN } from "../../provider/resources/common/inputs/check";
import { certificateFailures } from "../../provider/resources/server-certificate/proof";
import {
  implementation as serverCertificate,
  keystoreAlias,
} from "../../provider/resources/server-certificate/lifecycle";
import type { ServerCertificateOutputs } from "../../provider/resources/server-certificate/generated";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  issueIntermediateCa,
  issueServerCertificate,
  makeRootCa,
  pkcs12,
  type Issued,
} from "../../tools/harness/pki";

const PFX_PASSWORD = "pfx-Proof-Secret-7";
const DAY = 24 * 3600 * 1000;

const root = makeRootCa();
const otherRoot = makeRootCa("Another Organisation Root CA");
const gis = issueServerCertificate(root, ["gis.example.com"], "gis.example.com");

function pfx(issued: Issued, chain: readonly string[] = [], password = PFX_PASSWORD): string {
  return pkcs12(issued, password, { chain }).toString("base64");
}

/** The proof's failures for a certificate, with webServerUrl and the CA certificates given. */
function failuresOf(
  issued: Issued,
  options: {
    webServerUrl?: string | undefined;
    adminUrl?: string;
    caCertificates?: unknown;
    chain?: readonly string[];
    certPassword?: string;
  } = {},
) {
  return certificateFailures({
    pkcs12: pfx(issued, options.chain),
    certPassword: options.certPassword ?? PFX_PASSWORD,
    adminUrl: options.adminUrl ?? "https://admin.example.com:6443/arcgis/admin",
    ...("webServerUrl" in options
      ? { webServerUrl: options.webServerUrl }
      : { webServerUrl: "https://gis.example.com:6443" }),
    caCertificates: options.caCertificates ?? [{ alias: "orgroot", pem: root.certPem }],
  });
}

describe("the proof, rule by rule", () => {
  it("proves a certificate that breaks no rule", () => {
    expect(failuresOf(gis)).toEqual([]);
  });

  it("certPassword: a password that does not open the file, never showing either", () => {
    const failures = failuresOf(gis, { certPassword: "wrong-Proof-Secret" });
    expect(failures).toEqual([
      { property: "certPassword", reason: expect.stringMatching(/^does not open the PKCS #12/) },
    ]);
    expect(JSON.stringify(failures)).not.toMatch(/wrong-Proof-Secret|pfx-Proof-Secret/);
  });

  it("pkcs12: base64 of something that is no PKCS #12 file", () => {
    expect(
      certificateFailures({
        pkcs12: Buffer.from("not a certificate file at all").toString("base64"),
        certPassword: PFX_PASSWORD,
        adminUrl: "https://gis.example.com:6443/arcgis/admin",
      }),
    ).toEqual([{ property: "pkcs12", reason: expect.stringMatching(/is not a PKCS #12 file/) }]);
  });

  it("pkcs12: a private key that does not match the certificate", () => {
    const stranger = issueServerCertificate(root, ["gis.example.com"]);
    const mismatched = { certPem: gis.certPem, keyPem: stranger.keyPem };
    expect(failuresOf(mismatched)).toEqual([
      {
        property: "pkcs12",
        reason: expect.stringMatching(
          /^the private key does not match the certificate \(CN=gis\.example\.com, SHA-256 [0-9A-F:]+\)/,
        ),
      },
    ]);
  });

  it("pkcs12: an expired certificate, with the date it expired on", () => {
    const notAfter = new Date(Date.now() - DAY);
    const expired = issueServerCertificate(root, ["gis.example.com"], "gis.example.com", {
      notBefore: new Date(Date.now() - 30 * DAY),
      notAfter,
    });
    const shown = new X509Certificate(expired.certPem).validToDate.toISOString().slice(0, 19);
    expect(failuresOf(expired)).toEqual([
      {
        property: "pkcs12",
        reason: expect.stringMatching(
          new RegExp(`\\) expired on ${shown}Z: give a renewed certificate\\.$`),
        ),
      },
    ]);
  });

  it("pkcs12: a certificate not valid yet", () => {
    const early = issueServerCertificate(root, ["gis.example.com"], "gis.example.com", {
      notBefore: new Date(Date.now() + DAY),
      notAfter: new Date(Date.now() + 30 * DAY),
    });
    expect(failuresOf(early)).toEqual([
      { property: "pkcs12", reason: expect.stringMatching(/\) is not valid before \d{4}-/) },
    ]);
  });

  describe("the host, as TLS checks it", () => {
    const named = (
      issued: Issued,
      url: string,
      via: "webServerUrl" | "adminUrl" = "webServerUrl",
    ) =>
      failuresOf(
        issued,
        via === "webServerUrl" ? { webServerUrl: url } : { webServerUrl: undefined, adminUrl: url },
      );

    it("webServerUrl: a certificate for another host, naming both", () => {
      expect(named(gis, "https://gis2.example.com:6443")).toEqual([
        {
          property: "webServerUrl",
          reason: expect.stringMatching(
            /^the certificate of pkcs12 names gis\.example\.com, not gis2\.example\.com: set webServerUrl/,
          ),
        },
      ]);
    });

    it("adminUrl when there is no webServerUrl", () => {
      expect(named(gis, "https://gis.example.com:6443/arcgis/admin", "adminUrl")).toEqual([]);
      expect(named(gis, "https://localhost:6443/arcgis/admin", "adminUrl")).toEqual([
        {
          property: "adminUrl",
          reason: expect.stringMatching(/names gis\.example\.com, not localhost/),
        },
      ]);
    });

    it("a host name in any case", () => {
      expect(named(gis, "https://GIS.Example.COM:6443")).toEqual([]);
    });

    it("a wildcard stands for the left-most label only, and for one label", () => {
      const wildcard = issueServerCertificate(root, ["*.example.com"], "*.example.com");
      expect(named(wildcard, "https://gis.example.com")).toEqual([]);
      expect(named(wildcard, "https://a.gis.example.com")).toHaveLength(1);
      expect(named(wildcard, "https://example.com")).toHaveLength(1);
      const inner = issueServerCertificate(root, ["gis.*.com"], "gis.*.com");
      expect(named(inner, "https://gis.example.com")).toHaveLength(1);
    });

    it("the common name counts only when the certificate holds no DNS name", () => {
      const cnOnly = issueServerCertificate(root, [], "gis.example.com");
      expect(named(cnOnly, "https://gis.example.com")).toEqual([]);
      const both = issueServerCertificate(root, ["other.example.com"], "gis.example.com");
      expect(named(both, "https://gis.example.com")).toEqual([
        {
          property: "webServerUrl",
          reason: expect.stringMatching(/names other\.example\.com, not gis\.example\.com/),
        },
      ]);
    });

    it("an IP address matches the certificate's IP addresses only", () => {
      const withIp = issueServerCertificate(root, ["gis.example.com", "10.1.2.3", "::1"]);
      expect(named(withIp, "https://10.1.2.3:6443")).toEqual([]);
      expect(named(withIp, "https://[::1]:6443")).toEqual([]);
      expect(named(withIp, "https://10.1.2.4:6443")).toEqual([
        {
          property: "webServerUrl",
          reason: expect.stringMatching(
            /names gis\.example\.com, 10\.1\.2\.3, .*not the IP address 10\.1\.2\.4 \(an IP address is matched only against the certificate's IP addresses\)/,
          ),
        },
      ]);
      // An address in the common name is no IP address of the certificate.
      const cnAddress = issueServerCertificate(root, [], "10.1.2.3");
      expect(named(cnAddress, "https://10.1.2.3:6443")).toHaveLength(1);
    });
  });

  describe("the chain to caCertificates", () => {
    const intermediate = issueIntermediateCa(root);
    const issued = issueServerCertificate(intermediate, ["gis.example.com"]);

    it("caCertificates: a certificate from another CA", () => {
      const foreign = issueServerCertificate(otherRoot, ["gis.example.com"]);
      expect(failuresOf(foreign)).toEqual([
        {
          property: "caCertificates",
          reason: expect.stringMatching(
            /issued by CN=Another Organisation Root CA\) does not chain to any of caCertificates \(orgroot\)/,
          ),
        },
      ]);
    });

    it("through an intermediate the file holds, or one among caCertificates", () => {
      expect(failuresOf(issued, { chain: [intermediate.certPem] })).toEqual([]);
      expect(
        failuresOf(issued, {
          caCertificates: [
            { alias: "orgroot", pem: root.certPem },
            { alias: "issuing", pem: intermediate.certPem },
          ],
        }),
      ).toEqual([]);
      expect(failuresOf(issued)).toHaveLength(1);
    });

    it("an intermediate without its root is no trust anchor", () => {
      expect(
        failuresOf(issued, { caCertificates: [{ alias: "issuing", pem: intermediate.certPem }] }),
      ).toEqual([
        {
          property: "caCertificates",
          reason: expect.stringMatching(/^hold issuing, which .* but not the root CA/),
        },
      ]);
    });

    it("a root among caCertificates that has expired", () => {
      const old = makeRootCa("Old Root CA", {
        notBefore: new Date(Date.now() - 30 * DAY),
        notAfter: new Date(Date.now() - DAY),
      });
      const fromOld = issueServerCertificate(old, ["gis.example.com"]);
      expect(
        failuresOf(fromOld, { caCertificates: [{ alias: "oldroot", pem: old.certPem }] }),
      ).toEqual([
        {
          property: "caCertificates",
          reason: expect.stringMatching(/^hold oldroot, CN=Old Root CA, .* and expired on /),
        },
      ]);
    });

    it("without caCertificates, the chain is not checked", () => {
      const foreign = issueServerCertificate(otherRoot, ["gis.example.com"]);
      expect(failuresOf(foreign, { caCertificates: [] })).toEqual([]);
    });
  });

  it("leaves what is still unknown (a preview) to create", () => {
    const elsewhere = issueServerCertificate(otherRoot, ["gis2.example.com"]);
    const base = {
      pkcs12: pfx(elsewhere),
      certPassword: PFX_PASSWORD,
      adminUrl: "https://gis.example.com:6443/arcgis/admin",
    };
    expect(
      certificateFailures({ ...base, webServerUrl: UNKNOWN, caCertificates: UNKNOWN }),
    ).toEqual([]);
    expect(certificateFailures({ ...base, pkcs12: UNKNOWN })).toEqual([]);
    expect(certificateFailures({ ...base, certPassword: UNKNOWN, caCertificates: [] })).toEqual([]);
  });
});

describe("where the proof runs", () => {
  const expired = issueServerCertificate(root, ["127.0.0.1"], "127.0.0.1", {
    notBefore: new Date(Date.now() - 30 * DAY),
    notAfter: new Date(Date.now() - DAY),
  });
  const inputs = (issued: Issued, extra: Record<string, unknown> = {}) => ({
    adminUrl: "https://127.0.0.1:6443/arcgis/admin",
    username: "siteadmin",
    password: "site-Proof-Pass-1",
    machineName: "127.0.0.1",
    caCertificates: [{ alias: "orgroot", pem: root.certPem }],
    pkcs12: pfx(issued),
    certPassword: PFX_PASSWORD,
    alias: "gis",
    ...extra,
  });

  it("check() refuses a new certificate that breaks a rule, naming the input", async () => {
    const result = await serverCertificate.check({}, inputs(expired));
    expect(result.failures).toEqual([
      { property: "pkcs12", reason: expect.stringMatching(/expired on /) },
    ]);
  });

  it("check() does not prove an unchanged certificate again (an expired one keeps previewing)", async () => {
    const olds = inputs(expired);
    expect(
      (await serverCertificate.check(olds, { ...olds, timeouts: { bindMs: 1_000 } })).failures,
    ).toEqual([]);
    // The same file with other line breaks is the same file.
    const wrapped = { ...olds, pkcs12: olds.pkcs12.replace(/(.{64})/g, "$1\n") };
    expect((await serverCertificate.check(olds, wrapped)).failures).toEqual([]);
  });

  it("check() proves a changed certificate, and an unchanged one for another host", async () => {
    const valid = issueServerCertificate(root, ["127.0.0.1"]);
    expect((await serverCertificate.check(inputs(valid), inputs(expired))).failures).toHaveLength(
      1,
    );
    const forLocalhost = inputs(valid, { webServerUrl: "https://localhost:6443" });
    expect((await serverCertificate.check(inputs(valid), forLocalhost)).failures).toEqual([
      { property: "webServerUrl", reason: expect.stringMatching(/not localhost/) },
    ]);
  });

  describe("against the emulator", () => {
    let emu: TestEmulator;
    const ADMIN = { username: "siteadmin", password: "site-Proof-Pass-1" };
    beforeAll(async () => {
      emu = await startTestEmulator({
        serverType: "arcgis-server",
        machineName: "127.0.0.1",
        createDelayMs: 0,
        restartDelayMs: 100,
      });
      await createNewSite(
        emu.adminUrl,
        { serverType: "arcgis-server", ...ADMIN },
        { tls: { caCert: emu.caCert! } },
      );
    });
    afterAll(async () => {
      await emu.close();
      await closeDispatchers();
    });
    const onEmulator = (issued: Issued, extra: Record<string, unknown> = {}) =>
      inputs(issued, {
        serverType: "arcgis-server",
        adminUrl: emu.adminUrl,
        tls: { caCert: emu.caCert! },
        ...extra,
      });

    it("a webServerUrl unknown at check is proven at create, before anything is sent", async () => {
      const forAnother = issueServerCertificate(root, ["gis.example.com"]);
      const preview = await serverCertificate.check(
        {},
        onEmulator(forAnother, { webServerUrl: UNKNOWN }),
      );
      expect(preview.failures ?? []).toEqual([]);
      const before = emu.requestLog().length;
      const known = onEmulator(forAnother, { webServerUrl: new URL(emu.adminUrl).origin });
      const error = await serverCertificate.create(known).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toMatch(
        /^webServerUrl: the certificate of pkcs12 names gis\.example\.com, not the IP address 127\.0\.0\.1 .* Nothing was imported or bound\.$/,
      );
      expect(emu.requestLog().length).toBe(before);
    });

    it("a handshake after the bind that refuses the certificate says what to change, not to run again", async () => {
      // Valid when proven, expired by the time the machine's web server has restarted with it.
      const restartDelayMs = 6_000;
      const late = await startTestEmulator({
        serverType: "arcgis-server",
        machineName: "127.0.0.1",
        createDelayMs: 0,
        restartDelayMs,
      });
      try {
        await createNewSite(
          late.adminUrl,
          { serverType: "arcgis-server", ...ADMIN },
          { tls: { caCert: late.caCert! } },
        );
        const brief = issueServerCertificate(root, ["127.0.0.1"], "127.0.0.1", {
          notAfter: new Date(Date.now() + restartDelayMs / 2),
        });
        const error = await serverCertificate
          .create(
            inputs(brief, {
              serverType: "arcgis-server",
              adminUrl: late.adminUrl,
              tls: { caCert: late.caCert! },
              timeouts: { importMs: 5_000, bindMs: 4 * restartDelayMs },
            }),
          )
          .then(
            () => undefined,
            (e: Error) => e,
          );
        expect(error?.message).toMatch(
          /a TLS handshake that trusts only caCertificates fails: .*has expired.* Give pkcs12 a certificate valid now .*The machine stays bound to gis-[0-9a-f]{8}; once the inputs are changed, `pulumi up` imports and binds the certificate they give\./,
        );
        expect(error?.message).not.toMatch(/again|tls\.caCert|insecureSkipVerify/);
      } finally {
        await late.close();
      }
    });

    it("an update that leaves an expired certificate in place is not refused, and refresh says it expired", async () => {
      // The expired certificate, imported and bound out of band as a stack would have left it.
      const session = createAdminSession({
        adminUrl: emu.adminUrl,
        ...ADMIN,
        tls: { caCert: emu.caCert! },
      });
      const alias = keystoreAlias(
        "gis",
        new X509Certificate(expired.certPem).fingerprint256.replaceAll(":", "").toLowerCase(),
      );
      await importExistingServerCertificate(session, {
        machineName: "127.0.0.1",
        alias,
        pkcs12: pkcs12(expired, PFX_PASSWORD),
        certPassword: PFX_PASSWORD,
      });
      await editMachine(session, await getMachine(session, "127.0.0.1"), {
        webServerCertificateAlias: alias,
      });
      const recorded = onEmulator(expired, { caCertificates: [] });
      const olds = {
        ...recorded,
        certificateAlias: alias,
        boundAlias: alias,
        previousAlias: "SelfSignedCertificate",
        importedAliases: [alias],
        sha256Fingerprint: "",
        validUntil: new X509Certificate(expired.certPem).validToDate.toISOString(),
      } as unknown as ServerCertificateOutputs;
      const sent = () =>
        emu
          .requestLog()
          .filter((r) => r.method === "POST" && /\/(import\w+|edit)$/.test(r.url.split("?")[0]!))
          .length;
      const before = sent();
      const { outs } = await serverCertificate.update("id", olds, {
        ...recorded,
        rebindPreviousOnDestroy: true,
      });
      expect(outs).toMatchObject({ boundAlias: alias, rebindPreviousOnDestroy: true });
      expect(sent()).toBe(before);
      // A changed certificate is proven, and refused, before anything is sent.
      const renewedButExpired = issueServerCertificate(root, ["127.0.0.1"], "127.0.0.1", {
        notBefore: new Date(Date.now() - 30 * DAY),
        notAfter: new Date(Date.now() - DAY),
      });
      const refused = await serverCertificate
        .update("id", olds, onEmulator(renewedButExpired, { caCertificates: [] }))
        .then(
          () => undefined,
          (e: Error) => e,
        );
      expect(refused?.message).toMatch(/^pkcs12: the certificate .* expired on /);
      expect(sent()).toBe(before);
      // A refresh reads the machine and says the certificate it presents has expired.
      const warnings: string[] = [];
      const spy = jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
        warnings.push(args.map(String).join(" "));
      });
      try {
        await serverCertificate.read("id", olds);
      } finally {
        spy.mockRestore();
      }
      expect(warnings).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `The certificate ${alias} that machine '127\\.0\\.0\\.1' of .* presents expired on `,
          ),
        ),
      );
    });
  });
});

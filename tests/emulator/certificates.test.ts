/**
 * A machine's own TLS certificate, over the network: the keystore (`machines/<m>/sslcertificates`)
 * lists the self-signed certificate the listener presents, imports an organisation's root CA and a
 * server certificate it signed (PKCS #12), refuses a wrong password as real servers do, and after
 * `machines/<m>/edit` binds the certificate, the listener presents it to new connections: a client
 * that trusts only the organisation's CA connects, one that trusts only the old self-signed
 * certificate is refused; the choice survives a restart (docs/emulator.md, "Certificates").
 */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import { Agent, FormData, request } from "undici";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { issueServerCertificate, makeRootCa, pkcs12, type Issued } from "../../tools/harness/pki";
import { runTempDir } from "../../tools/harness/temp";

const ADMIN = { username: "siteadmin", password: "certs-Pass-1" };
const PFX_PASSWORD = "pfx-Secret-1";

/** The certificate a fresh TLS connection trusting only `ca` is shown, or why it was refused. */
function handshake(
  port: number,
  ca: string,
): Promise<{ fingerprint256: string } | { error: string }> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: "127.0.0.1", port, ca, session: undefined }, () => {
      const peer = socket.getPeerX509Certificate();
      socket.end();
      resolve({ fingerprint256: peer?.fingerprint256 ?? "" });
    });
    socket.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
  });
}

async function waitFor<T>(check: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An admin client of one emulator that trusts the given CAs (no keep-alive: each call connects). */
class Admin {
  private agent: Agent;
  private token = "";

  constructor(
    private readonly emu: TestEmulator,
    cas: string[],
    private readonly tokenIn: "form" | "header",
  ) {
    this.agent = new Agent({ connect: { ca: cas }, pipelining: 0 });
  }

  async signIn(): Promise<void> {
    const answer = await this.post("generateToken", { ...ADMIN, client: "requestip" }, false);
    this.token = answer.token as string;
  }

  private auth(form: Record<string, string>, withToken: boolean) {
    if (!withToken) return { form, headers: {} };
    return this.tokenIn === "form"
      ? { form: { ...form, token: this.token }, headers: {} }
      : { form, headers: { "x-esri-authorization": `Bearer ${this.token}` } };
  }

  async post(op: string, fields: Record<string, string> = {}, withToken = true) {
    const { form, headers } = this.auth({ ...fields, f: "json" }, withToken);
    const res = await request(`${this.emu.adminUrl}/${op}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
      dispatcher: this.agent,
    });
    return (await res.body.json()) as Record<string, unknown>;
  }

  async get(op: string) {
    const { form, headers } = this.auth({ f: "json" }, true);
    const res = await request(
      `${this.emu.adminUrl}/${op}?${new URLSearchParams(form).toString()}`,
      {
        headers,
        dispatcher: this.agent,
      },
    );
    return (await res.body.json()) as Record<string, unknown>;
  }

  /** A multipart POST, as Chef and DSC send the imports. */
  async upload(op: string, fields: Record<string, string>, file: [string, Buffer, string]) {
    const { form: all, headers } = this.auth({ ...fields, f: "json" }, true);
    const form = new FormData();
    for (const [name, value] of Object.entries(all)) form.append(name, value);
    form.append(file[0], new Blob([file[1]]), file[2]);
    const res = await request(`${this.emu.adminUrl}/${op}`, {
      method: "POST",
      headers,
      body: form,
      dispatcher: this.agent,
    });
    return (await res.body.json()) as Record<string, unknown>;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** The product's error document (ArcGIS Server's, or the others' `error` object). */
function errorOf(serverType: string, code: number, text: string) {
  return serverType === "arcgis-server"
    ? { status: "error", code, messages: expect.arrayContaining([expect.stringContaining(text)]) }
    : { error: { code, message: expect.stringContaining(text) } };
}

describe.each([
  ["arcgis-server", "form"],
  ["mission-server", "header"],
] as const)("the web server certificate of a %s machine", (serverType, tokenIn) => {
  let emu: TestEmulator;
  let admin: Admin;
  let selfSigned: string;
  let ca: Issued;
  let server: Issued;
  const machine = "127.0.0.1";
  const sslcertificates = `machines/${machine}/sslcertificates`;

  beforeAll(async () => {
    ca = makeRootCa();
    server = issueServerCertificate(ca, ["127.0.0.1", "localhost"], "gis.example.com");
    emu = await startTestEmulator({
      serverType,
      machineName: machine,
      createDelayMs: 0,
      restartDelayMs: 1000,
    });
    selfSigned = emu.caCert!;
    admin = new Admin(emu, [selfSigned, ca.certPem], tokenIn);
    expect(await admin.post("createNewSite", ADMIN, false)).toMatchObject({ status: "success" });
    await admin.signIn();
  });
  afterAll(async () => {
    await admin.close();
    await emu.close();
  });

  it("lists and describes the self-signed certificate the listener presents", async () => {
    const listed = await admin.get(sslcertificates);
    const key = serverType === "arcgis-server" ? "certificates" : "sslCertificates";
    expect(listed[key]).toEqual(["selfsignedcertificate"]);
    const read = await admin.get(`${sslcertificates}/SelfSignedCertificate`);
    const presented = new X509Certificate(selfSigned);
    expect(read).toMatchObject({
      aliasName: "selfsignedcertificate",
      entryType: "PrivateKeyEntry",
      subject: "CN=arcgis-admin-emulator",
      sha256Fingerprint: presented.fingerprint256.replaceAll(":", "").toLowerCase(),
      sha1Fingerprint: presented.fingerprint.replaceAll(":", "").toLowerCase(),
      validFromEpoch: presented.validFromDate.getTime(),
      keyAlgorithm: "EC",
      keySize: 256,
      signatureAlgorithm: "SHA256withECDSA",
      keyUsage: ["Digital_Signature", "Key_Cert_Sign"],
      subjectAlternativeNames: expect.arrayContaining([
        "DNSName: localhost",
        "IPAddress: 127.0.0.1",
      ]),
    });
    expect(read.validFrom).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d UTC \d{4}$/);
    expect(await admin.get(`${sslcertificates}/no-such-alias`)).toEqual(
      errorOf(serverType, 404, "no-such-alias"),
    );
  });

  it("imports the organisation's root CA and its server certificate, refusing a wrong password", async () => {
    expect(
      await admin.upload(`${sslcertificates}/importRootOrIntermediate`, { alias: "OrgRootCA" }, [
        "rootCACertificate",
        Buffer.from(ca.certPem),
        "root.cer",
      ]),
    ).toEqual({ status: "success" });
    expect(await admin.get(`${sslcertificates}/orgrootca`)).toMatchObject({
      aliasName: "orgrootca",
      entryType: "trustedCertEntry",
      subject: "CN=Test Organisation Root CA, O=Test Organisation",
      keyUsage: ["Key_Cert_Sign", "CRL_Sign"],
    });
    // The same alias again: never overwritten.
    expect(
      await admin.upload(`${sslcertificates}/importRootOrIntermediate`, { alias: "orgrootca" }, [
        "rootCACertificate",
        Buffer.from(ca.certPem),
        "root.cer",
      ]),
    ).toEqual(errorOf(serverType, 500, "Importing CA certificate failed."));

    const pfx = pkcs12(server, PFX_PASSWORD, { chain: [ca.certPem] });
    const wrong = await admin.upload(
      `${sslcertificates}/importExistingServerCertificate`,
      { alias: "gis.example.com", certPassword: "not-the-password" },
      ["certFile", pfx, "gis.pfx"],
    );
    expect(wrong).toEqual(errorOf(serverType, 500, "Importing CA certificate failed."));
    expect(JSON.stringify(wrong)).toContain("password");
    expect(
      await admin.upload(
        `${sslcertificates}/importExistingServerCertificate`,
        { alias: "gis.example.com", certPassword: PFX_PASSWORD },
        ["certFile", pfx, "gis.pfx"],
      ),
    ).toEqual({ status: "success" });
    const read = await admin.get(`${sslcertificates}/gis.example.com`);
    expect(read).toMatchObject({
      aliasName: "gis.example.com",
      entryType: "PrivateKeyEntry",
      issuer: "CN=Test Organisation Root CA, O=Test Organisation",
      subject: "CN=gis.example.com, O=Test Organisation",
      keyAlgorithm: "RSA",
      keySize: 2048,
      sha256Fingerprint: new X509Certificate(server.certPem).fingerprint256
        .replaceAll(":", "")
        .toLowerCase(),
    });
  });

  it("presents the bound certificate to new connections after the restart, and again after a restart", async () => {
    const imported = new X509Certificate(server.certPem).fingerprint256;
    const port = Number(new URL(emu.adminUrl).port);
    expect(await handshake(port, ca.certPem)).toEqual({ error: expect.any(String) });
    expect(await handshake(port, selfSigned)).toHaveProperty("fingerprint256");

    // An alias the keystore does not hold, or one without a key, is refused.
    const before = await admin.post(`machines/${machine}`);
    for (const alias of ["not-imported", "orgrootca"]) {
      expect(
        await admin.post(`machines/${machine}/edit`, { webServerCertificateAlias: alias }),
      ).toEqual(errorOf(serverType, 400, alias));
    }
    // DSC's Update-SSLCertificate: every field of the machine's read, the alias changed.
    const form: Record<string, string> = {};
    for (const [name, value] of Object.entries(before)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
        form[name] = String(value);
      }
    }
    form.webServerCertificateAlias = "gis.example.com";
    form.ports = "@{HTTPS=20443}";
    expect(await admin.post(`machines/${machine}/edit`, form)).toEqual({ status: "success" });
    expect(await admin.post(`machines/${machine}`)).toMatchObject({
      webServerCertificateAlias: "gis.example.com",
    });
    // Until the machine has "restarted", new connections still get the old certificate.
    expect(await handshake(port, selfSigned)).toHaveProperty("fingerprint256");

    const after = await waitFor(
      () => handshake(port, ca.certPem),
      (result) => "fingerprint256" in result,
    );
    expect(after).toEqual({ fingerprint256: imported });
    expect(await handshake(port, selfSigned)).toEqual({ error: expect.any(String) });

    // The bound certificate cannot be deleted; the root can.
    expect(await admin.post(`${sslcertificates}/gis.example.com/delete`)).toEqual(
      errorOf(serverType, 400, "gis.example.com"),
    );
    expect(await admin.post(`${sslcertificates}/orgrootca/delete`)).toEqual({ status: "success" });
    expect(await admin.get(`${sslcertificates}/orgrootca`)).toEqual(
      errorOf(serverType, 404, "orgrootca"),
    );

    // The data dir keeps the keystore and the binding: the next start presents it at once.
    await admin.close();
    await emu.close();
    emu = await startTestEmulator({
      serverType,
      machineName: machine,
      dataDir: emu.dataDir,
      port,
    });
    admin = new Admin(emu, [ca.certPem], tokenIn);
    expect(await handshake(port, ca.certPem)).toEqual({ fingerprint256: imported });
    await admin.signIn();
    const listed = await admin.get(sslcertificates);
    expect(listed[serverType === "arcgis-server" ? "certificates" : "sslCertificates"]).toEqual([
      "selfsignedcertificate",
      "gis.example.com",
    ]);
  });
});

describe("PKCS #12 files of the common kinds", () => {
  let emu: TestEmulator;
  let admin: Admin;
  const sslcertificates = "machines/127.0.0.1/sslcertificates";

  beforeAll(async () => {
    emu = await startTestEmulator({
      serverType: "notebook-server",
      machineName: "127.0.0.1",
      createDelayMs: 0,
    });
    admin = new Admin(emu, [emu.caCert!], "header");
    await admin.post("createNewSite", ADMIN, false);
    await admin.signIn();
  });
  afterAll(async () => {
    await admin.close();
    await emu.close();
  });

  it("reads AES (PBES2) and 3DES files, and refuses what is not one", async () => {
    const ca = makeRootCa();
    const server = issueServerCertificate(ca, ["127.0.0.1"]);
    for (const algorithm of ["aes256", "3des"] as const) {
      expect(
        await admin.upload(
          `${sslcertificates}/importExistingServerCertificate`,
          { alias: `server-${algorithm}`, certPassword: PFX_PASSWORD },
          ["certFile", pkcs12(server, PFX_PASSWORD, { algorithm }), "server.pfx"],
        ),
      ).toEqual({ status: "success" });
    }
    expect(
      await admin.upload(
        `${sslcertificates}/importExistingServerCertificate`,
        { alias: "not-a-pfx", certPassword: PFX_PASSWORD },
        ["certFile", Buffer.from(server.certPem), "server.pem"],
      ),
    ).toEqual(errorOf("notebook-server", 500, "Importing CA certificate failed."));
    // Notebook Server answers both list keys (its docs and DSC differ).
    expect(await admin.get(sslcertificates)).toMatchObject({
      certificates: ["selfsignedcertificate", "server-aes256", "server-3des"],
      sslCertificates: ["selfsignedcertificate", "server-aes256", "server-3des"],
    });
  });

  const openssl = (() => {
    try {
      execFileSync("openssl", ["version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  (openssl ? it : it.skip)(
    "reads an EC key in OpenSSL 3's default file (AES-256, SHA-256 MAC), with a DER root",
    async () => {
      const dir = runTempDir("certs-openssl-");
      try {
        const run = (...args: string[]) =>
          execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
        run(
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:P-384",
          "-nodes",
          "-keyout",
          "key.pem",
          "-out",
          "cert.pem",
          "-subj",
          "/CN=ec.example.com",
          "-days",
          "2",
        );
        run(
          "pkcs12",
          "-export",
          "-in",
          "cert.pem",
          "-inkey",
          "key.pem",
          "-out",
          "ec.pfx",
          "-passout",
          `pass:${PFX_PASSWORD}`,
        );
        run("x509", "-in", "cert.pem", "-outform", "DER", "-out", "cert.cer");
        expect(
          await admin.upload(
            `${sslcertificates}/importExistingServerCertificate`,
            { alias: "ec", certPassword: PFX_PASSWORD },
            ["certFile", await fs.readFile(path.join(dir, "ec.pfx")), "ec.pfx"],
          ),
        ).toEqual({ status: "success" });
        expect(await admin.get(`${sslcertificates}/ec`)).toMatchObject({
          keyAlgorithm: "EC",
          keySize: 384,
          signatureAlgorithm: "SHA256withECDSA",
        });
        // DSC's ArcGIS_TLSCertificateImport uploads a DER `.cer`.
        expect(
          await admin.upload(`${sslcertificates}/importRootOrIntermediate`, { alias: "der" }, [
            "rootCACertificate",
            await fs.readFile(path.join(dir, "cert.cer")),
            "cert.cer",
          ]),
        ).toEqual({ status: "success" });
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  );
});

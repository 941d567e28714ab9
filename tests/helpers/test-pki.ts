/**
 * A small PKI for tests: an organisation's root CA and server certificates it signs, packaged as
 * an administrator brings them to ArcGIS (the CA as PEM, the server certificate and its key as a
 * PKCS #12 file). node:crypto makes the keys and signs; node-forge (which node:crypto lacks the
 * means for) lays out the certificates and writes the PKCS #12 file.
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import forge from "node-forge";

/** A certificate with its key, in PEM. */
export interface Issued {
  readonly certPem: string;
  readonly keyPem: string;
}

function rsaKeys(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ format: "pem", type: "pkcs1" }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem);
  return {
    privateKey: forgeKey,
    publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e),
  };
}

/**
 * Signs `cert` with SHA-256 and RSA as forge's `cert.sign` does, but with node:crypto's native
 * RSA: forge's JavaScript big-number arithmetic made certificates the slowest part of the tests.
 */
function signWith(cert: forge.pki.Certificate, keyPem: string): void {
  const signed: string[] = [];
  const md = {
    algorithm: "sha256",
    update(bytes: string) {
      signed.push(bytes);
      return md;
    },
  };
  const key = {
    sign: () => sign("sha256", Buffer.from(signed.join(""), "binary"), keyPem).toString("binary"),
  };
  cert.sign(key as unknown as forge.pki.rsa.PrivateKey, md as unknown as forge.md.MessageDigest);
}

function newCertificate(publicKey: forge.pki.PublicKey, commonName: string, days: number) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial number: the first byte's high bit clear.
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + days * 24 * 3600 * 1000);
  // In the usual order, most general first (Java prints them the other way round).
  cert.setSubject([
    { name: "organizationName", value: "Test Organisation" },
    { name: "commonName", value: commonName },
  ]);
  return cert;
}

/** A self-signed root CA. */
export function makeRootCa(commonName = "Test Organisation Root CA"): Issued {
  const keys = rsaKeys();
  const cert = newCertificate(keys.publicKey, commonName, 3650);
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  const keyPem = forge.pki.privateKeyToPem(keys.privateKey);
  signWith(cert, keyPem);
  return { certPem: forge.pki.certificateToPem(cert), keyPem };
}

/** A server certificate for `names` (DNS names or IP addresses), signed by `ca`. */
export function issueServerCertificate(
  ca: Issued,
  names: readonly string[],
  commonName = names[0] ?? "server",
): Issued {
  const keys = rsaKeys();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const cert = newCertificate(keys.publicKey, commonName, 365);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: names.map((name) =>
        /^[\d.]+$/.test(name) || name.includes(":")
          ? { type: 7, ip: name }
          : { type: 2, value: name },
      ),
    },
  ]);
  signWith(cert, ca.keyPem);
  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

/**
 * A PKCS #12 file of a certificate, its key and (optionally) the chain, encrypted with `password`:
 * `3des` is what Windows and OpenSSL 1.x write, `aes256` (PBES2) what OpenSSL 3 writes.
 */
export function pkcs12(
  issued: Issued,
  password: string,
  options: { chain?: readonly string[]; algorithm?: "3des" | "aes256"; friendlyName?: string } = {},
): Buffer {
  const certs = [issued.certPem, ...(options.chain ?? [])].map((pem) =>
    forge.pki.certificateFromPem(pem),
  );
  const asn1 = forge.pkcs12.toPkcs12Asn1(
    forge.pki.privateKeyFromPem(issued.keyPem),
    certs,
    password,
    {
      algorithm: options.algorithm ?? "3des",
      ...(options.friendlyName === undefined ? {} : { friendlyName: options.friendlyName }),
    },
  );
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
}

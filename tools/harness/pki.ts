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

/** When a certificate is valid: by default from a minute ago. */
export interface Validity {
  readonly notBefore?: Date;
  readonly notAfter?: Date;
}

function newCertificate(
  publicKey: forge.pki.PublicKey,
  commonName: string,
  days: number,
  validity: Validity = {},
) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial number: the first byte's high bit clear.
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = validity.notBefore ?? new Date(Date.now() - 60_000);
  cert.validity.notAfter = validity.notAfter ?? new Date(Date.now() + days * 24 * 3600 * 1000);
  // In the usual order, most general first (Java prints them the other way round).
  cert.setSubject([
    { name: "organizationName", value: "Test Organisation" },
    { name: "commonName", value: commonName },
  ]);
  return cert;
}

/** A self-signed root CA, valid for ten years unless `validity` says otherwise. */
export function makeRootCa(
  commonName = "Test Organisation Root CA",
  validity: Validity = {},
): Issued {
  const keys = rsaKeys();
  const cert = newCertificate(keys.publicKey, commonName, 3650, validity);
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

/** An intermediate CA, signed by `ca`. */
export function issueIntermediateCa(
  ca: Issued,
  commonName = "Test Organisation Issuing CA",
): Issued {
  const keys = rsaKeys();
  const cert = newCertificate(keys.publicKey, commonName, 1825);
  cert.setIssuer(forge.pki.certificateFromPem(ca.certPem).subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  signWith(cert, ca.keyPem);
  return {
    certPem: forge.pki.certificateToPem(cert),
    keyPem: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

/**
 * A server certificate for `names` (DNS names or IP addresses, its subject alternative names;
 * none: no such extension, the common name alone), signed by `ca`, valid for a year unless
 * `validity` says otherwise.
 */
export function issueServerCertificate(
  ca: Issued,
  names: readonly string[],
  commonName = names[0] ?? "server",
  validity: Validity = {},
): Issued {
  const keys = rsaKeys();
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const cert = newCertificate(keys.publicKey, commonName, 365, validity);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    ...(names.length === 0
      ? []
      : [
          {
            name: "subjectAltName",
            altNames: names.map((name) =>
              /^[\d.]+$/.test(name) || name.includes(":")
                ? { type: 7, ip: name }
                : { type: 2, value: name },
            ),
          },
        ]),
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

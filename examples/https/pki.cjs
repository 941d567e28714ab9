"use strict";
/**
 * The organisation's CA this example makes for itself, with node-forge (a dependency of
 * pulumi-arcgis-admin): a root CA, and a server certificate it signs per renewal, packaged as an
 * administrator brings them to ArcGIS (the CA as PEM, the certificate and its key as a PKCS #12
 * file). Kept in a folder and made once, so that the next `pulumi up` finds the same ones.
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const forge = require("node-forge");

/** An RSA key pair: node:crypto makes it (fast), node-forge signs with it. */
function keys() {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(
    privateKey.export({ format: "pem", type: "pkcs1" }).toString(),
  );
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

function certificate(publicKey, commonName, days) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial number: the first byte's high bit clear.
  cert.serialNumber = `01${crypto.randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + days * 24 * 3600 * 1000);
  cert.setSubject([
    { name: "organizationName", value: "Example Organisation" },
    { name: "commonName", value: commonName },
  ]);
  return cert;
}

/** The root CA in `dir`, made when it is not there yet. */
function rootCa(dir) {
  const certFile = path.join(dir, "ca.pem");
  const keyFile = path.join(dir, "ca-key.pem");
  if (!fs.existsSync(certFile)) {
    const pair = keys();
    const cert = certificate(pair.publicKey, "Example Organisation Root CA", 3650);
    cert.setIssuer(cert.subject.attributes);
    cert.setExtensions([
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
      { name: "subjectKeyIdentifier" },
    ]);
    cert.sign(pair.privateKey, forge.md.sha256.create());
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(keyFile, forge.pki.privateKeyToPem(pair.privateKey), { mode: 0o600 });
    fs.writeFileSync(certFile, forge.pki.certificateToPem(cert));
  }
  return { certPem: fs.readFileSync(certFile, "utf8"), keyPem: fs.readFileSync(keyFile, "utf8") };
}

/**
 * The organisation's root CA (PEM) and the server certificate of `renewal` for `names` (DNS names
 * or IP addresses), as a PKCS #12 file in base64 encrypted with `password`; both made once in `dir`.
 */
function organisationPki(dir, { names, renewal, password }) {
  const ca = rootCa(dir);
  const pfxFile = path.join(dir, `server-${renewal}.pfx`);
  if (!fs.existsSync(pfxFile)) {
    const pair = keys();
    const caCert = forge.pki.certificateFromPem(ca.certPem);
    const cert = certificate(pair.publicKey, names[0], 365);
    cert.setIssuer(caCert.subject.attributes);
    cert.setExtensions([
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: names.map((n) => (net.isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })),
      },
    ]);
    cert.sign(forge.pki.privateKeyFromPem(ca.keyPem), forge.md.sha256.create());
    const p12 = forge.pkcs12.toPkcs12Asn1(pair.privateKey, [cert, caCert], password, {
      algorithm: "3des",
    });
    fs.writeFileSync(pfxFile, Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary"), {
      mode: 0o600,
    });
  }
  return { caPem: ca.certPem, pkcs12: fs.readFileSync(pfxFile).toString("base64") };
}

module.exports = { organisationPki };

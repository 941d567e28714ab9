/**
 * Reading a PKCS #12 (.pfx / .p12) file, as `importExistingServerCertificate` receives it, and the
 * few certificate details node:crypto does not give (key usage).
 *
 * node-forge opens the container: it checks the password (the file's MAC), and decrypts both the
 * legacy PKCS #12 encryptions (pbeWithSHAAnd3-KeyTripleDES-CBC, RC2-40: what Windows and OpenSSL
 * 1.x write, and what `openssl pkcs12 -legacy` writes) and PBES2 with AES (OpenSSL 3's default).
 * pkijs, already installed through `selfsigned`, reads PBES2 only, so it would refuse many of the
 * files administrators bring. forge's own key and certificate types know RSA only, so the key and
 * certificates are taken out as DER and handed to node:crypto, which reads RSA and EC alike.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import forge from "node-forge";

/** What a PKCS #12 file holds: one private key, its certificate and the rest of the chain. */
export interface Pkcs12Contents {
  /** PKCS #8 PEM of the key. */
  readonly keyPem: string;
  /** The certificate of the key first, then the other certificates of the file, as PEM. */
  readonly chainPem: readonly string[];
}

/** Why a file could not be read, in words for an error message. */
export class Pkcs12Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Pkcs12Error";
  }
}

function derOf(node: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");
}

/**
 * Opens a PKCS #12 file with its password. Throws {@link Pkcs12Error} when the bytes are not a
 * PKCS #12 file, the password does not open it, or it holds no private key with its certificate.
 */
export function readPkcs12(file: Buffer, password: string): Pkcs12Contents {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(file.toString("binary"));
  } catch {
    throw new Pkcs12Error("The file is not a PKCS #12 (.pfx, .p12) file.");
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // forge's words for a MAC that does not verify, or a key bag that does not decrypt.
    if (/MAC could not be verified|wrong password|Invalid password/i.test(message)) {
      throw new Pkcs12Error("The password does not open the certificate file.");
    }
    throw new Pkcs12Error("The file is not a PKCS #12 (.pfx, .p12) file.");
  }
  const keys: KeyObject[] = [];
  const certificates: X509Certificate[] = [];
  for (const safe of p12.safeContents) {
    for (const bag of safe.safeBags) {
      try {
        if (bag.type === forge.pki.oids.pkcs8ShroudedKeyBag || bag.type === forge.pki.oids.keyBag) {
          // forge parses RSA keys itself and leaves any other key as its PrivateKeyInfo.
          const info =
            bag.key != null
              ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key))
              : bag.asn1;
          keys.push(createPrivateKey({ key: derOf(info), format: "der", type: "pkcs8" }));
        } else if (bag.type === forge.pki.oids.certBag) {
          const cert = bag.cert != null ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1;
          certificates.push(new X509Certificate(derOf(cert)));
        }
      } catch {
        throw new Pkcs12Error("The file holds a key or certificate that cannot be read.");
      }
    }
  }
  if (keys.length !== 1) {
    throw new Pkcs12Error(
      keys.length === 0
        ? "The file holds no private key: a server certificate needs its key."
        : "The file holds more than one private key.",
    );
  }
  const key = keys[0]!;
  const leaf = certificates.find((c) => c.checkPrivateKey(key));
  if (leaf === undefined) {
    throw new Pkcs12Error("The file holds no certificate of its private key.");
  }
  return {
    keyPem: key.export({ format: "pem", type: "pkcs8" }).toString(),
    chainPem: [leaf, ...certificates.filter((c) => c !== leaf)].map((c) => c.toString()),
  };
}

/** Names of the key usage bits (RFC 5280, 4.2.1.3), in the form Esri's examples show them. */
const KEY_USAGES = [
  "Digital_Signature",
  "Non_Repudiation",
  "Key_Encipherment",
  "Data_Encipherment",
  "Key_Agreement",
  "Key_Cert_Sign",
  "CRL_Sign",
  "Encipher_Only",
  "Decipher_Only",
];

/**
 * The key usages a certificate's keyUsage extension (2.5.29.15) allows; empty without one. Read
 * with forge's ASN.1 parser, since node:crypto does not expose this extension.
 */
export function keyUsageOf(certificate: X509Certificate): string[] {
  let tbs: forge.asn1.Asn1 | undefined;
  try {
    const cert = forge.asn1.fromDer(certificate.raw.toString("binary"));
    tbs = (cert.value as forge.asn1.Asn1[])[0];
  } catch {
    return [];
  }
  // The extensions are the [3] element of TBSCertificate.
  const tagged = (tbs?.value as forge.asn1.Asn1[] | undefined)?.find(
    (node) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && Number(node.type) === 3,
  );
  const extensions = (tagged?.value as forge.asn1.Asn1[] | undefined)?.[0]?.value;
  if (!Array.isArray(extensions)) return [];
  for (const extension of extensions) {
    const parts = extension.value as forge.asn1.Asn1[];
    if (forge.asn1.derToOid(parts[0]!.value as string) !== "2.5.29.15") continue;
    const octets = parts.at(-1)!.value as string;
    const bitString = forge.asn1.fromDer(octets) as forge.asn1.Asn1 & {
      bitStringContents?: string;
    };
    // forge may decode a BIT STRING's content as nested ASN.1; the raw content stays here.
    const raw = bitString.bitStringContents ?? bitString.value;
    if (typeof raw !== "string") return [];
    const bytes = Buffer.from(raw, "binary");
    // First byte: unused bits; then the bits, most significant first.
    const bits = bytes.subarray(1);
    return KEY_USAGES.filter((_name, i) => ((bits[i >> 3] ?? 0) & (0x80 >> (i & 7))) !== 0);
  }
  return [];
}

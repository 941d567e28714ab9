/**
 * What the PKCS #12 input holds: the server certificate's fingerprint and expiry, read here so
 * that its keystore alias and the TLS check are known before anything is sent. The file and its
 * password appear in no message.
 */
import { X509Certificate } from "node:crypto";
import type * as Forge from "node-forge";

/** The server certificate of a PKCS #12 file. */
export interface Pkcs12Certificate {
  /** The file's bytes, to upload. */
  bytes: Uint8Array;
  /** SHA-256 fingerprint, lower-case hex without colons (the keystore's form). */
  sha256Fingerprint: string;
  /** End of validity, ISO 8601. */
  validUntil: string;
}

/**
 * Opens `pkcs12` (base64) with `certPassword` and finds the certificate of its private key (the
 * certificate bag with the key's `localKeyId`, else the first certificate). A password that does
 * not open it, or a file that is no PKCS #12, is an error naming the input, never its value.
 */
export function readPkcs12(pkcs12: string, certPassword: string): Pkcs12Certificate {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: the package entry never loads node-forge
  const forge = require("node-forge") as typeof Forge;
  const bytes = Buffer.from(pkcs12.replace(/\s+/g, ""), "base64");
  let p12: Forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(
      forge.asn1.fromDer(bytes.toString("binary")),
      false,
      certPassword,
    );
  } catch (error) {
    const said = error instanceof Error ? error.message : "";
    if (/MAC could not be verified|Invalid password|wrong password/i.test(said)) {
      throw new Error(
        "certPassword does not open the PKCS #12 file of pkcs12 (its integrity check fails " +
          "with that password); nothing was sent. Give the password the file was exported with.",
        { cause: error },
      );
    }
    throw new Error(
      "pkcs12 is not a PKCS #12 file this provider can read (give the .pfx or .p12 file in " +
        "base64, with its certificate and private key); nothing was sent.",
      { cause: error },
    );
  }
  const keyBags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[
      forge.pki.oids.pkcs8ShroudedKeyBag!
    ] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ];
  const certBags = p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [];
  if (keyBags.length === 0 || certBags.length === 0) {
    throw new Error(
      "pkcs12 holds no private key with its certificate: the web server needs both (export the " +
        "certificate with its private key); nothing was sent.",
    );
  }
  const keyIdOf = (b: Forge.pkcs12.Bag): unknown =>
    (b.attributes as Record<string, unknown[] | undefined>).localKeyId?.[0];
  const keyId = keyIdOf(keyBags[0]!);
  const bag = certBags.find((b) => keyId !== undefined && keyIdOf(b) === keyId) ?? certBags[0]!;
  const der = bag.cert
    ? forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)).getBytes()
    : bag.asn1
      ? forge.asn1.toDer(bag.asn1).getBytes()
      : "";
  const x509 = new X509Certificate(Buffer.from(der, "binary"));
  return {
    bytes,
    sha256Fingerprint: x509.fingerprint256.replaceAll(":", "").toLowerCase(),
    validUntil: x509.validToDate.toISOString(),
  };
}

/** A PEM certificate's SHA-256 fingerprint, lower-case hex without colons. */
export function pemFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

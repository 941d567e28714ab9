/**
 * What the PKCS #12 input holds, opened here before anything is sent: the server certificate, its
 * private key and the other certificates of the file (its chain). node-forge opens the container
 * (the password's MAC, and both the legacy and the PBES2 encryptions); forge's own key and
 * certificate types know RSA only, so both are taken out as DER and handed to node:crypto. The
 * file and its password appear in no message.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import type * as Forge from "node-forge";
import type { CheckFailure } from "../common/inputs/check";

/** The server certificate of a PKCS #12 file, as the lifecycle records and sends it. */
export interface Pkcs12Certificate {
  /** The file's bytes, to upload. */
  bytes: Uint8Array;
  /** SHA-256 fingerprint, lower-case hex without colons (the keystore's form). */
  sha256Fingerprint: string;
  /** End of validity, ISO 8601. */
  validUntil: string;
}

/** A PKCS #12 file opened with its password. */
export interface OpenedPkcs12 {
  /** The file's bytes, to upload. */
  bytes: Uint8Array;
  /** The certificate of the private key (see {@link openPkcs12}). */
  certificate: X509Certificate;
  /** The file's other certificates: its chain, as exported. */
  others: X509Certificate[];
  /** The private key; undefined when node:crypto cannot read it. */
  key: KeyObject | undefined;
}

/**
 * Opens `pkcs12` (base64) with `certPassword`. The certificate is the one whose `localKeyId`
 * is the key's, else the one the key matches, else the first. A password that does not open the
 * file, a file that is no PKCS #12, or one without a key and a certificate is a failure naming
 * the input (`certPassword` or `pkcs12`), never its value.
 */
export function openPkcs12(pkcs12: string, certPassword: string): OpenedPkcs12 | CheckFailure {
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
      return {
        property: "certPassword",
        reason:
          "does not open the PKCS #12 file of pkcs12 (its integrity check fails with this " +
          "password): give the password the file was exported with.",
      };
    }
    return {
      property: "pkcs12",
      reason:
        "is not a PKCS #12 file this provider can read: give the .pfx or .p12 file in base64, " +
        "with its certificate and private key.",
    };
  }
  const der = (node: Forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");
  const bagsOf = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBags = [
    ...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag!),
    ...bagsOf(forge.pki.oids.keyBag!),
  ];
  const certBags = bagsOf(forge.pki.oids.certBag!);
  if (keyBags.length === 0 || certBags.length === 0) {
    return {
      property: "pkcs12",
      reason:
        "holds no private key with its certificate: the web server needs both (export the " +
        "certificate with its private key).",
    };
  }
  const keyBag = keyBags[0]!;
  let certificates: Array<{ bag: Forge.pkcs12.Bag; x509: X509Certificate }>;
  try {
    certificates = certBags.map((bag) => ({
      bag,
      x509: new X509Certificate(der(bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1)),
    }));
  } catch {
    return { property: "pkcs12", reason: "holds a certificate that cannot be read." };
  }
  let key: KeyObject | undefined;
  try {
    // forge parses RSA keys itself and leaves any other key as its PrivateKeyInfo.
    const info = keyBag.key
      ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keyBag.key))
      : keyBag.asn1;
    key = createPrivateKey({ key: der(info), format: "der", type: "pkcs8" });
  } catch {
    key = undefined;
  }
  const keyIdOf = (b: Forge.pkcs12.Bag): unknown =>
    (b.attributes as Record<string, unknown[] | undefined>).localKeyId?.[0];
  const keyId = keyIdOf(keyBag);
  const chosen =
    certificates.find((c) => keyId !== undefined && keyIdOf(c.bag) === keyId) ??
    certificates.find((c) => key !== undefined && c.x509.checkPrivateKey(key)) ??
    certificates[0]!;
  return {
    bytes,
    certificate: chosen.x509,
    others: certificates.filter((c) => c !== chosen).map((c) => c.x509),
    key,
  };
}

/** Whether {@link openPkcs12} failed. */
export function isFailure(opened: OpenedPkcs12 | CheckFailure): opened is CheckFailure {
  return "property" in opened;
}

/** What the lifecycle records and sends of an opened file. */
export function certificateOf(opened: OpenedPkcs12): Pkcs12Certificate {
  return {
    bytes: opened.bytes,
    sha256Fingerprint: opened.certificate.fingerprint256.replaceAll(":", "").toLowerCase(),
    validUntil: opened.certificate.validToDate.toISOString(),
  };
}

/** A PEM certificate's SHA-256 fingerprint, lower-case hex without colons. */
export function pemFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();
}

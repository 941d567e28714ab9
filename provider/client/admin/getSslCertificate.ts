import { z } from "zod";
import { validateAnswer } from "../response";
import type { AdminSession } from "../session";
import { keystorePath, unknownAliasError } from "./keystore";

// Every field but the alias is optional: Mission and Notebook Server's pages show an older form.
const CertificateAnswer = z.looseObject({
  aliasName: z.string().optional(),
  entryType: z.string().optional(),
  issuer: z.string().optional(),
  subject: z.string().optional(),
  subjectAlternativeNames: z.array(z.string()).optional(),
  validFromEpoch: z.number().optional(),
  validUntilEpoch: z.number().optional(),
  serialNumber: z.string().optional(),
  keyAlgorithm: z.string().optional(),
  keySize: z.number().optional(),
  sha1Fingerprint: z.string().optional(),
  sha256Fingerprint: z.string().optional(),
});

/** A certificate of a machine's keystore, as the server describes it. */
export interface SslCertificate {
  /** The alias it is kept under (lower-case on every product's examples). */
  alias: string;
  /** `PrivateKeyEntry` (a server certificate, with its key) or `trustedCertEntry` (a root or intermediate). */
  entryType?: string | undefined;
  /** Issuer's distinguished name, in Java's form (most specific first), e.g. `CN=Org CA, O=Org`. */
  issuer?: string | undefined;
  /** Subject's distinguished name, in the same form. */
  subject?: string | undefined;
  /** e.g. `["DNSName: gis.example.com", "IPAddress: 10.0.0.5"]`. */
  subjectAlternativeNames?: string[] | undefined;
  /** Start of validity (the answer's `validFromEpoch`). */
  validFrom?: Date | undefined;
  /** End of validity (the answer's `validUntilEpoch`). */
  validUntil?: Date | undefined;
  /** Serial number, hex. */
  serialNumber?: string | undefined;
  /** e.g. `RSA`, `EC`. */
  keyAlgorithm?: string | undefined;
  /** Key size in bits. */
  keySize?: number | undefined;
  /** SHA-1 fingerprint: lower-case hex without colons (DSC compares it with a thumbprint). */
  sha1Fingerprint?: string | undefined;
  /** SHA-256 fingerprint: lower-case hex without colons, as {@link presentedCertificate} reports it. */
  sha256Fingerprint?: string | undefined;
  /** The whole answer, for the fields not named here. */
  raw: Record<string, unknown>;
}

/**
 * Reads one certificate of a machine's keystore: its type, subject, issuer, validity and
 * fingerprints (fingerprints normalised to lower-case hex without colons, the form Esri's examples
 * show). An alias the keystore does not hold is an error (code 404) naming the machine, the alias
 * and the aliases it holds; list first ({@link listSslCertificates}) to ask whether one is there.
 * Retried on transient failures: a read.
 *
 * @param session - an admin session.
 * @param machineName - the machine's name as the site lists it.
 * @param alias - the certificate's alias (any letter case: keystore aliases are case-insensitive).
 * @returns the certificate.
 * @example
 * ```ts
 * const { sha256Fingerprint, validUntil } = await getSslCertificate(session, "GIS1.EXAMPLE.COM", "gis.example.com");
 * ```
 * Maps to: `GET {admin_root}/machines/<machineName>/sslcertificates/<alias>?f=json`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/certificate
 * (Mission Server: https://developers.arcgis.com/rest/enterprise-administration/mission-server/machines-machine-ssl-certificates-ssl-cert,
 * Video Server: https://developers.arcgis.com/rest/enterprise-administration/video-server/certificate).
 */
export async function getSslCertificate(
  session: AdminSession,
  machineName: string,
  alias: string,
): Promise<SslCertificate> {
  const path = keystorePath(machineName, alias.toLowerCase());
  const operation = "sslcertificates/<alias>";
  let body: Record<string, unknown>;
  try {
    body = await session.call(path, {}, { method: "GET", idempotent: true, operation });
  } catch (error) {
    throw await unknownAliasError(session, machineName, alias, error, operation);
  }
  const answer = validateAnswer(CertificateAnswer, body, { operation, url: session.url(path) });
  return {
    alias: answer.aliasName ?? alias.toLowerCase(),
    entryType: answer.entryType,
    issuer: answer.issuer,
    subject: answer.subject,
    subjectAlternativeNames: answer.subjectAlternativeNames,
    validFrom: answer.validFromEpoch === undefined ? undefined : new Date(answer.validFromEpoch),
    validUntil: answer.validUntilEpoch === undefined ? undefined : new Date(answer.validUntilEpoch),
    serialNumber: answer.serialNumber,
    keyAlgorithm: answer.keyAlgorithm,
    keySize: answer.keySize,
    sha1Fingerprint: normalizeFingerprint(answer.sha1Fingerprint),
    sha256Fingerprint: normalizeFingerprint(answer.sha256Fingerprint),
    raw: body,
  };
}

/**
 * A fingerprint in one form: lower-case hex without colons or spaces.
 *
 * @param value - e.g. `AB:CD:...` or `abcd...`.
 * @returns the normalised form, or undefined.
 * @example
 * ```ts
 * normalizeFingerprint("AB:CD") // "abcd"
 * ```
 * Reads a value; sends no request.
 */
export function normalizeFingerprint(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.replace(/[:\s]/g, "").toLowerCase();
}

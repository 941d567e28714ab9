/**
 * The proof of a server certificate from the inputs alone, before anything is sent: `pkcs12`
 * opens with `certPassword`, holds a private key that matches its certificate, the certificate is
 * valid now, names the host of `webServerUrl` (else `adminUrl`) as TLS checks it and, when
 * `caCertificates` are given, chains to a root among them. The one implementation: `check()` runs
 * it on new or changed certificate inputs, create and update before the import (a URL unknown at
 * preview is known there). The TLS handshake after the bind stays the last proof.
 */
import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import { type CheckFailure, containsUnknown } from "../common/inputs/check";
import { certificateOf, isFailure, openPkcs12, type Pkcs12Certificate } from "./pkcs12";

/** The inputs the proof reads; any of them may still be unknown at preview. */
export interface CertificateInputs {
  pkcs12?: unknown;
  certPassword?: unknown;
  caCertificates?: unknown;
  webServerUrl?: unknown;
  adminUrl?: unknown;
}

/**
 * Every rule the certificate of `inputs` breaks at `now`, each naming its input; none when it is
 * proven. A rule whose inputs are still unknown (a preview) is left for create or update: the file
 * or its password unknown, nothing is proven; the URL unknown, not the host; `caCertificates`
 * unknown, not the chain.
 *
 * @example
 * ```ts
 * certificateFailures({ pkcs12, certPassword: "wrong", adminUrl })
 * // [{ property: "certPassword", reason: "does not open the PKCS #12 file of pkcs12 …" }]
 * ```
 */
export function certificateFailures(
  inputs: CertificateInputs,
  now: Date = new Date(),
): CheckFailure[] {
  const { pkcs12, certPassword } = inputs;
  if (typeof pkcs12 !== "string" || typeof certPassword !== "string") return [];
  if (containsUnknown(pkcs12) || containsUnknown(certPassword)) return [];
  const opened = openPkcs12(pkcs12, certPassword);
  if (isFailure(opened)) return [opened];
  const { certificate } = opened;
  const failures: CheckFailure[] = [];
  if (opened.key === undefined) {
    failures.push({
      property: "pkcs12",
      reason: `holds a private key that cannot be read, beside ${described(certificate)}.`,
    });
  } else if (!certificate.checkPrivateKey(opened.key)) {
    failures.push({
      property: "pkcs12",
      reason:
        `the private key does not match the certificate (${described(certificate)}): export ` +
        "the certificate together with its own private key.",
    });
  }
  const validity = validityFailure(certificate, now);
  if (validity !== undefined) failures.push({ property: "pkcs12", reason: validity });
  const host = hostFailure(certificate, inputs);
  if (host !== undefined) failures.push(host);
  const chain = chainFailure(certificate, opened.others, inputs.caCertificates, now);
  if (chain !== undefined) failures.push(chain);
  return failures;
}

/**
 * The certificate of `inputs`, proven: what the lifecycle records and imports. Throws one error
 * naming every rule broken (nothing was sent).
 */
export function provenCertificate(inputs: CertificateInputs): Pkcs12Certificate {
  const failures = certificateFailures(inputs);
  if (failures.length > 0) throw refusal(failures);
  return openedCertificate(inputs);
}

/**
 * The certificate of `inputs`, opened but not proven again: for an update that does not change
 * the certificate (an expired one stays in place until it is replaced).
 */
export function openedCertificate(inputs: CertificateInputs): Pkcs12Certificate {
  const opened = openPkcs12(String(inputs.pkcs12), String(inputs.certPassword));
  if (isFailure(opened)) throw refusal([opened]);
  return certificateOf(opened);
}

function refusal(failures: CheckFailure[]): Error {
  const said = failures.map((f) => `${f.property}: ${f.reason}`).join(" ");
  return new Error(`${said} Nothing was imported or bound.`);
}

/** How a certificate is named in messages: its subject's common name and SHA-256 fingerprint. */
function described(certificate: X509Certificate): string {
  const cn = /^CN=(.*)$/m.exec(certificate.subject)?.[1];
  const subject = cn === undefined ? certificate.subject.replace(/\n/g, ", ") : `CN=${cn}`;
  return `${subject}, SHA-256 ${certificate.fingerprint256}`;
}

/** A date as messages show it, to the second. */
function when(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** What is wrong with a certificate's validity at `now`: "expired on …", "is not valid before …". */
function validityProblem(certificate: X509Certificate, now: Date): string | undefined {
  if (certificate.validToDate.getTime() < now.getTime()) {
    return `expired on ${when(certificate.validToDate)}`;
  }
  if (certificate.validFromDate.getTime() > now.getTime()) {
    return `is not valid before ${when(certificate.validFromDate)}`;
  }
  return undefined;
}

function validityFailure(certificate: X509Certificate, now: Date): string | undefined {
  const problem = validityProblem(certificate, now);
  if (problem === undefined) return undefined;
  const what = problem.startsWith("expired")
    ? "give a renewed certificate"
    : "give a certificate valid now, or check this computer's clock";
  return `the certificate (${described(certificate)}) ${problem}: ${what}.`;
}

/**
 * Whether the certificate names the host of `webServerUrl` (else `adminUrl`) as TLS checks it
 * (OpenSSL's X509_check_host and X509_check_ip, through node:crypto): a DNS name against the
 * subject alternative names, the common name only when there is no DNS name among them, a
 * wildcard in the left-most label only; an IP address against the IP addresses alone.
 */
function hostFailure(
  certificate: X509Certificate,
  inputs: CertificateInputs,
): CheckFailure | undefined {
  const property = inputs.webServerUrl === undefined ? "adminUrl" : "webServerUrl";
  const url = inputs[property];
  if (typeof url !== "string" || containsUnknown(url)) return undefined;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
  const ip = isIP(host) !== 0;
  const named = ip ? certificate.checkIP(host) : certificate.checkHost(host);
  if (named !== undefined) return undefined;
  const names = namesOf(certificate);
  const holds = names.length === 0 ? "names no host" : `names ${names.join(", ")}`;
  const how = ip ? " (an IP address is matched only against the certificate's IP addresses)" : "";
  return {
    property,
    reason:
      `the certificate of pkcs12 ${holds}, not ${ip ? "the IP address " : ""}${host}${how}: ` +
      "set webServerUrl to the machine's https URL under a name the certificate holds, or " +
      `give pkcs12 a certificate issued for ${host}.`,
  };
}

/** The names a certificate holds, as TLS reads them: its alternative names, else its CN. */
function namesOf(certificate: X509Certificate): string[] {
  const alternative = (certificate.subjectAltName ?? "")
    .split(/,\s*/)
    .map((entry) => /^(DNS|IP Address):(.*)$/.exec(entry.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ dns: m[1] === "DNS", name: m[2]!.replace(/^"|"$/g, "") }));
  const dns = alternative.filter((a) => a.dns);
  const cn = /^CN=(.*)$/m.exec(certificate.subject)?.[1];
  const fromCn = dns.length === 0 && cn !== undefined ? [`${cn} (its common name)`] : [];
  return [...alternative.map((a) => a.name), ...fromCn];
}

/**
 * Whether the certificate chains to a root among `caCertificates`, through the file's own
 * certificates or `caCertificates`, each signature checked and each CA valid now, as a TLS
 * handshake that trusts only `caCertificates` builds it (the root must be among them: an
 * intermediate alone is no trust anchor there).
 */
function chainFailure(
  certificate: X509Certificate,
  others: readonly X509Certificate[],
  caCertificates: unknown,
  now: Date,
): CheckFailure | undefined {
  if (!Array.isArray(caCertificates) || caCertificates.length === 0) return undefined;
  if (containsUnknown(caCertificates)) return undefined;
  const given: Array<{ alias: string; x509: X509Certificate }> = [];
  for (const ca of caCertificates as Array<{ alias?: unknown; pem?: unknown }>) {
    try {
      given.push({ alias: String(ca.alias), x509: new X509Certificate(String(ca.pem)) });
    } catch {
      // Not a certificate: the schema says so.
    }
  }
  const aliases = given.map((g) => g.alias).join(", ");
  const candidates = [...given.map((g) => g.x509), ...others];
  const isGiven = (x: X509Certificate) => given.find((g) => g.x509.raw.equals(x.raw));
  let current = certificate;
  let reachedGiven: { alias: string } | undefined;
  for (let depth = 0; depth < 10; depth++) {
    if (current.checkIssued(current) && current.verify(current.publicKey)) break;
    const issuer = candidates.find((c) => current.checkIssued(c) && current.verify(c.publicKey));
    if (issuer === undefined) break;
    const problem = validityProblem(issuer, now);
    if (problem !== undefined) {
      const alias = isGiven(issuer)?.alias;
      return {
        property: alias === undefined ? "pkcs12" : "caCertificates",
        reason:
          `${alias === undefined ? "holds the CA certificate" : `hold ${alias},`} ` +
          `${described(issuer)}, which issued the chain of its certificate and ${problem}: ` +
          `give ${alias === undefined ? "the file" : "caCertificates"} its renewed CA certificate.`,
      };
    }
    reachedGiven = isGiven(issuer) ?? reachedGiven;
    current = issuer;
  }
  const rooted = current.checkIssued(current) && isGiven(current) !== undefined;
  if (rooted) return undefined;
  if (reachedGiven !== undefined) {
    return {
      property: "caCertificates",
      reason:
        `hold ${reachedGiven.alias}, which the certificate of pkcs12 chains to, but not the ` +
        `root CA that issued ${issuerOf(current)}: add the root certificate (a TLS client ` +
        "trusts a chain only up to a root).",
    };
  }
  return {
    property: "caCertificates",
    reason:
      `the certificate of pkcs12 (${described(certificate)}, issued by ` +
      `${issuerOf(certificate)}) does not chain to any of caCertificates (${aliases}): give the ` +
      "root and intermediate certificates of the CA that issued it.",
  };
}

function issuerOf(certificate: X509Certificate): string {
  const cn = /^CN=(.*)$/m.exec(certificate.issuer)?.[1];
  return cn === undefined ? certificate.issuer.replace(/\n/g, ", ") : `CN=${cn}`;
}

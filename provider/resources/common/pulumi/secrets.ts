/**
 * Pulumi's secret marker in the values a provider answers, and the certificate inputs a check
 * marks with it: the engine's `--diff` display prints every input that is not a secret in full,
 * and a certificate's PEM is dozens of lines that say nothing a fingerprint does not (the diff's
 * own message names both fingerprints, `certificateChanges`).
 *
 * @internal
 */

/** The key of Pulumi's secret envelope in a Struct (`sig.Secret`), and its value. */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A value wrapped so that the engine records it as a secret. */
export function secretEnvelope(value: unknown): Record<string, unknown> {
  return { [SECRET_SIG_KEY]: SECRET_SIG, value };
}

/** Whether a value is a secret envelope. */
export function isSecretEnvelope(value: unknown): value is { value?: unknown } {
  return value !== null && typeof value === "object" && SECRET_SIG_KEY in value;
}

/**
 * The certificate inputs (PEM) of the resources, as paths into their inputs; `*` is every item
 * of a list.
 */
export const CERTIFICATE_INPUTS: ReadonlyArray<readonly string[]> = [
  ["tls", "caCert"],
  ["serverCertificate", "pem"],
  ["caCertificates", "*", "pem"],
];

/**
 * The checked inputs with each certificate that is a string wrapped as a secret (a value not
 * known yet is left as it is). The engine removes the envelope before it calls the provider
 * again, since the provider does not accept secrets.
 */
export function certificatesAsSecrets(inputs: unknown): unknown {
  let out = inputs;
  for (const path of CERTIFICATE_INPUTS) out = wrapAt(out, path);
  return out;
}

function wrapAt(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return typeof value === "string" ? secretEnvelope(value) : value;
  const [head, ...rest] = path;
  if (head === "*") return Array.isArray(value) ? value.map((item) => wrapAt(item, rest)) : value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (!(head! in record) || isSecretEnvelope(record[head!])) return value;
  return { ...record, [head!]: wrapAt(record[head!], rest) };
}

/**
 * `tls.caCertConfig`: the CA certificate a resource takes from the stack's config, by key.
 *
 * State then records the key and the SHA-256 of the certificate's text (`tls.caCertSha256`,
 * which check() sets, so that a new certificate under the same key is a change) instead of the
 * certificate, which a resource would otherwise hold twice (its inputs and its outputs) as a
 * secret's ciphertext: in a fleet of resources that trust one CA, the largest part of each entry.
 * Pulumi gives a dynamic provider the stack's config when its host starts (`configure`); for
 * `pulumi refresh` and `pulumi destroy`, which run no program, it is the config the last update
 * recorded with the default provider, so every operation finds the key there.
 *
 * @internal
 */
import { createHash } from "node:crypto";
import { UNKNOWN } from "../inputs/check";

/** What this module reads of the stack's config (Pulumi's dynamic `Config`). */
export interface StackConfig {
  get(key: string): string | undefined;
}

let stackConfig: StackConfig | undefined;

/**
 * Keeps the stack config the host was configured with, for {@link configuredCaCert}.
 *
 * @internal
 */
export function useStackConfig(config: StackConfig): void {
  stackConfig = config;
}

/**
 * The SHA-256 (hex) of a certificate's text, as `tls.caCertSha256` records it.
 *
 * @internal
 */
export function caCertDigest(pem: string): string {
  return createHash("sha256").update(pem, "utf8").digest("hex");
}

/**
 * The certificate text stack config `key` holds, or what is wrong (a sentence naming the key,
 * never the value).
 *
 * @internal
 */
export function configuredCaCert(key: string): { pem: string } | { problem: string } {
  if (stackConfig === undefined) {
    return {
      problem:
        `tls.caCertConfig names stack config "${key}", but this provider was not given the ` +
        "stack's config (only the Node.js package's resources read it): give the certificate " +
        "itself as tls.caCert.",
    };
  }
  const pem = stackConfig.get(key);
  if (pem === undefined || pem === "") {
    return {
      problem:
        `tls.caCertConfig names stack config "${key}", which the stack's config does not ` +
        `have: set it (\`pulumi config set ${key} -- "$(cat ca.pem)"\`). A refresh or destroy ` +
        "reads the config the last `pulumi up` recorded.",
    };
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    return {
      problem:
        `stack config "${key}" (tls.caCertConfig) must be a PEM certificate ` +
        "(-----BEGIN CERTIFICATE-----).",
    };
  }
  return { pem };
}

/** The `tls` input as this module reads it. */
interface TlsValue {
  caCert?: unknown;
  caCertConfig?: unknown;
  caCertSha256?: unknown;
}

/**
 * The inputs with `tls.caCertSha256` set from the certificate `tls.caCertConfig` names (and
 * removed where `tls.caCertConfig` is not given), or the problem with the key. A key not known
 * yet (a preview) is left as it is.
 *
 * @internal
 */
export function withCaCertDigest(
  inputs: Record<string, unknown>,
): { inputs: Record<string, unknown> } | { problem: string } {
  const tls = inputs["tls"];
  if (tls === null || typeof tls !== "object" || Array.isArray(tls)) return { inputs };
  const { caCertSha256: given, ...rest } = tls as TlsValue;
  const key = rest.caCertConfig;
  if (typeof key !== "string" || rest.caCert !== undefined) {
    return { inputs: given === undefined ? inputs : { ...inputs, tls: rest } };
  }
  if (key === UNKNOWN) return { inputs };
  const found = configuredCaCert(key);
  if ("problem" in found) return found;
  return { inputs: { ...inputs, tls: { ...rest, caCertSha256: caCertDigest(found.pem) } } };
}

/** The fields of `tls` that say which CA certificate to trust. */
const CA_FIELDS = ["caCert", "caCertConfig", "caCertSha256"] as const;

/**
 * The old outputs as a diff compares them: when the old `tls` trusts the same certificate as the
 * new one, by another form (the certificate itself against a config key and its digest, as after
 * an upgrade that moves a default to `caCertConfig`), the old `tls` takes the new one's CA fields,
 * so that this is no change and no update; another certificate, or another config key, is a
 * change. The outputs the engine keeps then still say how to reach the server.
 *
 * @internal
 */
export function withEquivalentCa<O>(olds: O, news: unknown): O {
  const before = tlsOf(olds);
  const after = tlsOf(news);
  if (before === undefined || after === undefined) return olds;
  const was = digestOf(before);
  const is = digestOf(after);
  if (was === undefined || was !== is) return olds;
  const bothKeys =
    typeof before.caCertConfig === "string" && typeof after.caCertConfig === "string";
  if (bothKeys && before.caCertConfig !== after.caCertConfig) return olds;
  const tls: Record<string, unknown> = { ...before };
  for (const field of CA_FIELDS) {
    if (after[field] === undefined) delete tls[field];
    else tls[field] = after[field];
  }
  return { ...olds, tls };
}

/** The `tls` object of some inputs or outputs, if any. */
function tlsOf(values: unknown): (TlsValue & Record<string, unknown>) | undefined {
  if (values === null || typeof values !== "object") return undefined;
  const tls = (values as Record<string, unknown>)["tls"];
  if (tls === null || typeof tls !== "object" || Array.isArray(tls)) return undefined;
  return tls as TlsValue & Record<string, unknown>;
}

/** The digest of the certificate a `tls` trusts: recorded with a key, else of the certificate. */
function digestOf(tls: TlsValue): string | undefined {
  if (typeof tls.caCertConfig === "string") {
    return typeof tls.caCertSha256 === "string" ? tls.caCertSha256 : undefined;
  }
  return typeof tls.caCert === "string" ? caCertDigest(tls.caCert) : undefined;
}

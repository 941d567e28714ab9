/**
 * The `tls` argument every resource has, and how it becomes the client layer's transport options.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TlsOptions, TransportOptions } from "../../../client";
import { logWarn } from "../messages/log";
import { configuredCaCert } from "./ca-config";

/** How a resource checks the server's TLS certificate (the `tls` argument and output). */
export interface TlsSettings {
  /**
   * CA certificate(s) in PEM to trust in addition to the system store (and to the certificates
   * of `NODE_EXTRA_CA_CERTS`), e.g. the server's self-signed certificate of port 6443/20443.
   */
  caCert?: string;
  /**
   * The stack config key (e.g. `arcgis-admin:caCert`; without a namespace, the project's) whose
   * value is the CA certificate to trust, instead of `caCert`: state then records the key and
   * `caCertSha256` rather than the certificate, about 2 KB less per resource (Node.js package
   * only).
   */
  caCertConfig?: string;
  /**
   * Set by the provider with `caCertConfig`: the SHA-256 (hex) of the certificate's text, so that
   * another certificate under the same key is a change.
   */
  caCertSha256?: string;
  /** Switches certificate verification off (discouraged; warns on every run). Default false. */
  insecureSkipVerify?: boolean;
}

/** A value type whose every field also accepts a `pulumi.Input` (the arguments' nested shapes). */
export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** The `tls` argument of every resource: {@link TlsSettings}, each field a `pulumi.Input`. */
export type TlsArgs = pulumi.Input<InputsOf<TlsSettings>>;

/** The `tls` fields {@link transportFor} reads (inputs as parsed: an absent one may be undefined). */
export type TlsFields = {
  [K in "caCert" | "caCertConfig" | "insecureSkipVerify"]?: TlsSettings[K] | undefined;
};

/**
 * The CA certificate(s) a `tls` input trusts: `caCert`, or the certificate of the stack config
 * key `caCertConfig` names (an Error saying what to do when the config has none).
 */
export function caCertOf(tls: TlsFields | undefined): string | undefined {
  if (tls?.caCert !== undefined || tls?.caCertConfig === undefined) return tls?.caCert;
  const found = configuredCaCert(tls.caCertConfig);
  if ("problem" in found) throw new Error(found.problem);
  return found.pem;
}

/**
 * Turns the `tls` input into the client layer's transport options, and warns when verification
 * is switched off (the user asked for it, but it should be visible in every run).
 */
export function transportFor(
  target: string,
  tls: TlsFields | undefined,
  extra: Omit<TransportOptions, "tls"> = {},
): TransportOptions {
  const options: TlsOptions = {};
  const caCert = caCertOf(tls);
  if (caCert !== undefined) options.caCert = caCert;
  if (tls?.insecureSkipVerify === true) {
    options.insecureSkipVerify = true;
    logWarn(
      `TLS certificate verification is switched off for ${target} (tls.insecureSkipVerify). ` +
        "Prefer tls.caCert with the server's CA certificate.",
    );
  }
  return { ...extra, tls: options };
}

/**
 * What certificate a server presents: one TLS handshake, nothing sent over it. For "verify that
 * the server now presents that certificate" after a machine's web server was bound to a new one.
 */
import { isIP } from "node:net";
import * as tls from "node:tls";
import { requestError } from "./response";
import { describeError, transportError } from "./transport-error";

/**
 * How the handshake checks the certificate the server presents:
 * - `{ trustOnly: pem }`: trust only these CA certificates (PEM, one or several), not Node's
 *   store: the handshake fails (code `TLS`) unless the chain leads to one of them and the
 *   certificate names the host;
 * - `"do-not-verify"`: accept whatever is presented, unchecked (to read a fingerprint only).
 */
export type PresentedCertificateTrust = { trustOnly: string | readonly string[] } | "do-not-verify";

/** Options of {@link presentedCertificate}. */
export interface PresentedCertificateOptions {
  /** Host name or IP address to connect to. */
  host: string;
  /** TCP port, e.g. 6443 or 20443. */
  port: number;
  /** How the certificate is checked; see {@link PresentedCertificateTrust}. */
  trust: PresentedCertificateTrust;
  /** Name sent as SNI and checked against the certificate; default `host` (none for an IP address). */
  servername?: string | undefined;
  /** Time limit of the connection and handshake, in ms; default 10 000. */
  timeoutMs?: number | undefined;
  /** Cancels the handshake (error code `ABORTED`). */
  signal?: AbortSignal | undefined;
}

/** The certificate a server presented. */
export interface PresentedCertificate {
  /** SHA-256 fingerprint, lower-case hex without colons: the form a keystore's certificate reports (`getSslCertificate`). */
  sha256Fingerprint: string;
  /** Subject, as Node prints it (`CN=...`, one per line). */
  subject: string;
  /** Issuer, in the same form. */
  issuer: string;
  /** Start of validity. */
  validFrom: Date;
  /** End of validity. */
  validUntil: Date;
  /** Whether the chain was checked (`trustOnly`) or not (`do-not-verify`). */
  verified: boolean;
  /** The certificate, PEM. */
  pem: string;
}

/**
 * Connects over TLS to `host:port`, completes the handshake and returns the certificate the server
 * presents, with its SHA-256 fingerprint, then closes the connection (nothing is sent). With
 * `trust: { trustOnly: caPem }` only that CA is trusted, so success proves that the server presents
 * a certificate that CA issued for the host; with `"do-not-verify"` any certificate is read, unchecked.
 * Failures are the client's errors: `TLS` (not trusted, or another host's), `NETWORK`, `TIMEOUT`,
 * `ABORTED`. Each call makes a new connection (no session is resumed), so a web server that
 * changed its certificate is seen at once.
 *
 * @param options - host, port, trust, SNI name, time limit, signal.
 * @returns the presented certificate.
 * @example
 * ```ts
 * const seen = await presentedCertificate({ host: "gis.example.com", port: 6443, trust: { trustOnly: orgCaPem } });
 * if (seen.sha256Fingerprint !== (await getSslCertificate(session, machine, alias)).sha256Fingerprint) { ... }
 * ```
 * Maps to: a TLS handshake with `host:port`; no HTTP request.
 */
export async function presentedCertificate(
  options: PresentedCertificateOptions,
): Promise<PresentedCertificate> {
  const verify = options.trust !== "do-not-verify";
  const servername = options.servername ?? (isIP(options.host) === 0 ? options.host : undefined);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const url = `https://${isIP(options.host) === 6 ? `[${options.host}]` : options.host}:${options.port}`;
  const ctx = { operation: "TLS handshake", url };
  const transport = {
    tls: verify ? { caCert: "given" } : { insecureSkipVerify: true },
    timeouts: { connectMs: timeoutMs },
    signal: options.signal,
  };
  try {
    return await new Promise<PresentedCertificate>((resolve, reject) => {
      const socket = tls.connect({
        host: options.host,
        port: options.port,
        ...(servername === undefined ? {} : { servername }),
        ...(verify
          ? { ca: [(options.trust as { trustOnly: string | readonly string[] }).trustOnly].flat() }
          : {}),
        rejectUnauthorized: verify,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      const timer = setTimeout(() => {
        socket.destroy(
          Object.assign(new Error(`no TLS handshake within ${timeoutMs} ms`), {
            code: "UND_ERR_CONNECT_TIMEOUT",
          }),
        );
      }, timeoutMs);
      socket.once("secureConnect", () => {
        clearTimeout(timer);
        const peer = socket.getPeerX509Certificate();
        socket.end();
        if (peer === undefined) {
          reject(new Error("the server presented no certificate"));
          return;
        }
        resolve({
          sha256Fingerprint: peer.fingerprint256.replaceAll(":", "").toLowerCase(),
          subject: peer.subject,
          issuer: peer.issuer,
          validFrom: peer.validFromDate,
          validUntil: peer.validToDate,
          verified: verify,
          pem: peer.toString(),
        });
      });
      socket.once("error", (error: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      });
    });
  } catch (error) {
    const classified = transportError(error, transport, ctx);
    const said = describeError(error);
    const reworded =
      classified.code === "TLS"
        ? ({
            "tls-hostname": `the certificate presented does not name ${servername ?? options.host} (${said}).`,
            "tls-expired": `the certificate presented, or one of its chain, has expired (${said}).`,
            "tls-not-yet-valid": `the certificate presented, or one of its chain, is not valid yet (${said}).`,
          }[classified.permanent as string] ??
          `the certificate presented is not issued by a CA of trust.trustOnly (${said}).`)
        : classified.code === "TIMEOUT"
          ? `no TLS handshake within ${timeoutMs} ms (timeoutMs).`
          : undefined;
    if (reworded === undefined) throw classified;
    throw requestError(ctx, classified.code, reworded, {
      cause: error,
      ...(classified.permanent === undefined ? {} : { permanent: classified.permanent }),
    });
  }
}

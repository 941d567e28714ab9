/**
 * What went wrong before or while an answer arrived (refused, reset, timed out, TLS, aborted),
 * told apart from undici's and Node's error codes and worded so the message says what to change.
 */
import * as net from "node:net";
import * as tls from "node:tls";
import { ArcGISRequestError, isArcGISRequestError } from "./errors";
import { effectiveTimeouts, type DEFAULT_TIMEOUTS, type TransportOptions } from "./dispatcher";
import { requestError, type AnswerContext } from "./response";

/**
 * Classifies a failure that happened before or while an answer arrived: ABORTED, TIMEOUT, TLS
 * (naming `tls.caCert` and `tls.insecureSkipVerify`) or NETWORK. An ArcGISRequestError passes
 * through unchanged.
 *
 * @param e - the thrown value.
 * @param transport - the transport options in use (for timeout values and the abort signal).
 * @param ctx - operation and URL for the message.
 * @returns the classified error.
 * @example
 * ```ts
 * catch (e) { throw transportError(e, transport, ctx); }
 * ```
 * Maps to: any REST operation (the transport step).
 *
 * @internal
 */
export function transportError(
  e: unknown,
  transport: TransportOptions,
  ctx: AnswerContext,
): ArcGISRequestError {
  if (isArcGISRequestError(e)) return e;
  const cause = e;
  if (transport.signal?.aborted || isAbort(e)) {
    return requestError(ctx, "ABORTED", "the request was aborted by the caller.", { cause });
  }
  const code = errorCodeOf(e) ?? "";
  const what = describeError(e);
  const timeout = TIMEOUT_DETAILS[code]?.(effectiveTimeouts(transport.timeouts));
  if (timeout) return requestError(ctx, "TIMEOUT", timeout, { cause });
  // A TLS handshake answered in plain text is no certificate problem: the port speaks http.
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || /wrong version number/i.test(what)) {
    const detail =
      "the port does not speak TLS (its answer to the TLS handshake was not TLS, e.g. plain " +
      "http). Use the server's https port, or an http:// URL if it serves only http.";
    return requestError(ctx, "NETWORK", detail, { cause, permanent: "no-tls" });
  }
  if (isTlsCode(code)) {
    return requestError(ctx, "TLS", tlsAdvice(code, what, transport), {
      cause,
      permanent: tlsReason(code),
    });
  }
  return requestError(
    ctx,
    "NETWORK",
    `could not reach the server (${what}).${networkHint(e, code, what, ctx.url)}`,
    { cause },
  );
}

/**
 * What to check after a network failure: the proxy the request went through, when one did
 * (HTTPS_PROXY / HTTP_PROXY without the host in NO_PROXY), or https when an http:// URL met a
 * server that closed the connection before answering anything (a TLS port answering plain http).
 */
function networkHint(e: unknown, code: string, what: string, url: string): string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return "";
  }
  const proxy = proxyFor(target);
  if (proxy !== undefined) {
    return (
      ` The request went through the proxy ${proxy.url} (${proxy.variable}): check that the ` +
      `proxy answers and may reach ${target.host}, or add ${target.hostname} to NO_PROXY.`
    );
  }
  if (
    target.protocol === "http:" &&
    (code === "ECONNRESET" || /other side closed|socket hang up/i.test(what)) &&
    !answeredBeforeClosing(e)
  ) {
    return (
      ` The server closed the connection on a plain http request: if it serves https on this ` +
      `port, use an https:// URL (https://${target.host}).`
    );
  }
  return "";
}

/**
 * Whether the server had sent something before the connection closed, by the byte count undici's
 * SocketError carries (`socket.bytesRead`): a TLS port closes a plain http request before sending
 * a byte, so a server that had started answering speaks http and was only cut off. A reset
 * (ECONNRESET) carries no count, and stays undecided (false).
 */
function answeredBeforeClosing(e: unknown, depth = 0): boolean {
  if (typeof e !== "object" || e === null || depth > 5) return false;
  const read = (e as { socket?: { bytesRead?: unknown } }).socket?.bytesRead;
  if (typeof read === "number") return read > 0;
  return answeredBeforeClosing((e as { cause?: unknown }).cause, depth + 1);
}

/**
 * The proxy the environment sends a request to `target` through, if any (undici's rules).
 *
 * @internal
 */
export function proxyFor(target: URL): { url: string; variable: string } | undefined {
  const env = process.env;
  const pick = (name: string) =>
    env[name.toLowerCase()] !== undefined
      ? { value: env[name.toLowerCase()], variable: name.toLowerCase() }
      : env[name] !== undefined
        ? { value: env[name], variable: name }
        : undefined;
  const chosen = target.protocol === "https:" ? pick("HTTPS_PROXY") : pick("HTTP_PROXY");
  if (chosen?.value === undefined || chosen.value === "") return undefined;
  const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const noProxy = (pick("NO_PROXY")?.value ?? "")
    .split(/[,\s]+/)
    .map((entry) => entry.trim().toLowerCase().replace(/:\d+$/, ""))
    .filter((entry) => entry !== "");
  const bypassed = noProxy.some(
    (entry) =>
      entry === "*" ||
      host === entry.replace(/^\*?\./, "") ||
      host.endsWith(entry.startsWith(".") ? entry : `.${entry.replace(/^\*\./, "")}`),
  );
  if (bypassed) return undefined;
  // Only the proxy's origin: credentials in the proxy URL are never shown.
  let shown: string;
  try {
    shown = new URL(chosen.value).origin;
  } catch {
    shown = "(unparsable)";
  }
  return { url: shown, variable: chosen.variable };
}

/** Names the option that set each limit, so the message says what to raise. */
const TIMEOUT_DETAILS: Record<string, (t: typeof DEFAULT_TIMEOUTS) => string> = {
  UND_ERR_CONNECT_TIMEOUT: (t) => `no connection within ${t.connectMs} ms (timeouts.connectMs).`,
  UND_ERR_HEADERS_TIMEOUT: (t) => `no answer within ${t.headersMs} ms (timeouts.headersMs).`,
  UND_ERR_BODY_TIMEOUT: (t) => `the answer stalled for ${t.bodyMs} ms (timeouts.bodyMs).`,
  ETIMEDOUT: () => "the connection timed out (ETIMEDOUT).",
};

function isAbort(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return name === "AbortError" || errorCodeOf(e) === "UND_ERR_ABORTED";
}

/** Finds the first `code` in the error, its causes, and an AggregateError's members. */
function errorCodeOf(e: unknown, depth = 0): string | undefined {
  if (typeof e !== "object" || e === null || depth > 5) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && code !== "UND_ERR" && code !== "UND_ERR_SOCKET") return code;
  const nested = [(e as { cause?: unknown }).cause, ...asArray((e as { errors?: unknown }).errors)];
  for (const inner of nested) {
    const found = errorCodeOf(inner, depth + 1);
    if (found) return found;
  }
  return typeof code === "string" ? code : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

/**
 * The error's message with its code, for messages.
 *
 * @internal
 */
export function describeError(e: unknown): string {
  const code = errorCodeOf(e);
  const message = (e instanceof Error ? e.message : String(e))
    .replace(/^Error:\s*/, "")
    .replace(NODE_ADVICE, "");
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * Advice Node.js adds to its own errors ("…; if the root CA is installed locally, try running
 * Node.js with --use-system-ca"): a Pulumi user does not start the Node.js that runs the provider,
 * so the message says what to set instead (tls.caCert).
 */
const NODE_ADVICE = /;?\s*(if [^;()]*,\s*)?try running Node\.js with --[\w-]+/gi;

const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_|^ERR_TLS_|^ERR_SSL_|HOSTNAME_MISMATCH/;

function isTlsCode(code: string): boolean {
  return TLS_CODE.test(code);
}

/** A certificate that is valid but names other hosts than the URL's. */
function isHostnameCode(code: string): boolean {
  return /ALTNAME|HOSTNAME/.test(code);
}

/**
 * Why a TLS failure cannot be waited out: another host's certificate, one not valid now (expired,
 * or not yet valid: OpenSSL's CERT_HAS_EXPIRED and CERT_NOT_YET_VALID, for the server's
 * certificate or one of its chain), or one not trusted.
 *
 * @internal
 */
export function tlsReason(
  code: string,
): "tls-hostname" | "tls-expired" | "tls-not-yet-valid" | "tls-untrusted" {
  if (isHostnameCode(code)) return "tls-hostname";
  if (code === "CERT_HAS_EXPIRED") return "tls-expired";
  if (code === "CERT_NOT_YET_VALID") return "tls-not-yet-valid";
  return "tls-untrusted";
}

function tlsAdvice(code: string, what: string, transport: TransportOptions): string {
  const lastResort = "as a last resort set tls.insecureSkipVerify: true.";
  switch (tlsReason(code)) {
    case "tls-hostname":
      return `the server's certificate does not match the host name (${what}). Use the host name the certificate was issued for; ${lastResort}`;
    case "tls-expired":
      return `the server's TLS certificate, or one of its chain, has expired (${what}). The server must present a renewed certificate (trusting another CA does not help); ${lastResort}`;
    case "tls-not-yet-valid":
      return `the server's TLS certificate, or one of its chain, is not valid yet (${what}). Check the clocks of this computer and of the server, or give the server a certificate valid now; ${lastResort}`;
    case "tls-untrusted":
      break;
  }
  const given = transport.tls?.caCert ? " (the tls.caCert given does not match it)" : "";
  return `the server's TLS certificate is not trusted${given} (${what}). Pass the PEM certificate of the CA that signed it as tls.caCert (or stack config arcgis-admin:caCert, or ARCGIS_ADMIN_CA_CERT); ${lastResort}`;
}

/**
 * Confirms the likely cause of a failed plain-http request: the connection was closed (Node's
 * own https server) or answered 400 (Tomcat: "This combination of host and port requires TLS."),
 * and a TLS handshake on the same port succeeds. Then the failure is final (`plain-http`), so it
 * is neither retried nor waited out; a server that is still starting closes connections too, and
 * that stays a NETWORK error. Not probed through a proxy (the proxy answered, not the server).
 *
 * @param error - the failure of a request.
 * @param transport - the transport in use (a dispatcher of its own is not probed around).
 * @returns the confirmed failure, or `error` unchanged.
 * @example
 * ```ts
 * catch (e) { throw await confirmPlainHttp(e, transport); }
 * ```
 * Maps to: a TLS handshake to the URL's port; nothing is sent over it.
 *
 * @internal
 */
export async function confirmPlainHttp(
  error: unknown,
  transport: TransportOptions,
): Promise<unknown> {
  if (!isArcGISRequestError(error) || error.permanent !== undefined) return error;
  let url: URL;
  try {
    url = new URL(error.url);
  } catch {
    return error;
  }
  if (url.protocol !== "http:" || transport.dispatcher !== undefined) return error;
  if (proxyFor(url) !== undefined) return error;
  const closed =
    error.code === "NETWORK" && /ECONNRESET|other side closed|socket hang up/i.test(error.message);
  if (!closed && error.httpStatus !== 400) return error;
  if (closed && answeredBeforeClosing(error.cause)) return error;
  if (!(await speaksTls(url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || 80)))) {
    return error;
  }
  return new ArcGISRequestError({
    code: error.code,
    operation: error.operation,
    url: error.url,
    detail:
      `the port ${url.host} speaks TLS (https), and a plain http request gets no answer ` +
      `there: use an https:// URL (https://${url.host}).`,
    httpStatus: error.httpStatus,
    cause: error,
    permanent: "plain-http",
  });
}

/** Opens a TLS handshake (certificate not checked: nothing is sent over it) and closes it. */
function speaksTls(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port,
      rejectUnauthorized: false,
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
    });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(5_000, () => done(false));
    socket.once("secureConnect", () => done(true));
    socket.once("error", () => done(false));
  });
}

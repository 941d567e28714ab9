import { createHash } from "node:crypto";
import { createSecureContext, getCACertificates, type SecureContext } from "node:tls";
import type { Dispatcher } from "undici";
import { Agent, envHttpProxyAgent } from "./undici";

/** How the server's certificate is checked. Verification is on unless switched off explicitly. */
export interface TlsOptions {
  /**
   * PEM certificate(s) of the CA to trust in addition to Node's default store (its bundled CAs
   * and those of `NODE_EXTRA_CA_CERTS`), e.g. the self-signed certificate of port 6443/20443.
   */
  caCert?: string | undefined;
  /** Skip certificate verification. Default false; a last resort, prefer {@link TlsOptions.caCert}. */
  insecureSkipVerify?: boolean | undefined;
}

/** Per-call time limits in milliseconds. */
export interface RequestTimeouts {
  /** Establishing the TCP/TLS connection; default 10 000. */
  connectMs?: number | undefined;
  /** Waiting for the response headers; default 300 000 (createNewSite callers pass more). */
  headersMs?: number | undefined;
  /** Longest silence while the body arrives; default 300 000. */
  bodyMs?: number | undefined;
}

/** How requests travel: TLS trust, time limits, cancellation, and an injectable dispatcher. */
export interface TransportOptions {
  /** Certificate checking; default verifies against the system store. */
  tls?: TlsOptions | undefined;
  /** Time limits. */
  timeouts?: RequestTimeouts | undefined;
  /** Cancels the call (error code `ABORTED`). */
  signal?: AbortSignal | undefined;
  /** Use this undici dispatcher (e.g. a MockAgent) instead of one built from `tls` and `timeouts`. */
  dispatcher?: Dispatcher | undefined;
  /**
   * Largest file a download accepts, in bytes; default 4 GiB (4 × 1024³). A
   * larger (or endless) body fails with `TOO_LARGE` and its partial file is removed.
   */
  maxDownloadBytes?: number | undefined;
}

/**
 * Default size limit of a download: 4 GiB. A site export holds configuration (service
 * definitions, users, log settings), not data or cache tiles (spec: "Excluded from the export"),
 * so real archives measure kilobytes to megabytes; 4 GiB leaves room for the largest sites by
 * orders of magnitude and still stops a broken or hostile server's endless body before it fills
 * the disk, which an unbounded download over a fast link does within seconds.
 *
 * @internal
 */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 4 * 1024 ** 3;

/**
 * Default time limits, in milliseconds.
 *
 * @internal
 */
export const DEFAULT_TIMEOUTS: Readonly<{ connectMs: number; headersMs: number; bodyMs: number }> =
  {
    connectMs: 10_000,
    headersMs: 300_000,
    bodyMs: 300_000,
  };

/**
 * Fills in the default for every time limit that is not given.
 *
 * @param timeouts - the caller's limits, possibly partial.
 * @returns all three limits in milliseconds.
 * @example
 * ```ts
 * effectiveTimeouts({ headersMs: 5000 }) // { connectMs: 10000, headersMs: 5000, bodyMs: 300000 }
 * ```
 * Sends no request: it fills in the default time limits.
 *
 * @internal
 */
export function effectiveTimeouts(timeouts?: RequestTimeouts): typeof DEFAULT_TIMEOUTS {
  return {
    connectMs: timeouts?.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
    headersMs: timeouts?.headersMs ?? DEFAULT_TIMEOUTS.headersMs,
    bodyMs: timeouts?.bodyMs ?? DEFAULT_TIMEOUTS.bodyMs,
  };
}

const agents = new Map<string, Dispatcher>();

/** The proxy settings of the environment (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, any case). */
function proxyEnvironment(): { httpsProxy?: string; httpProxy?: string; noProxy?: string } {
  const env = process.env;
  const pick = (name: string) => env[name.toLowerCase()] ?? env[name];
  const found: { httpsProxy?: string; httpProxy?: string; noProxy?: string } = {};
  const https = pick("HTTPS_PROXY");
  const http = pick("HTTP_PROXY");
  const no = pick("NO_PROXY");
  if (https) found.httpsProxy = https;
  if (http) found.httpProxy = http;
  if (no) found.noProxy = no;
  return found;
}

/** The native side of a SecureContext, as far as {@link trusting} uses it. */
interface NativeContext {
  addCACert?: (pem: string) => void;
}

/**
 * A secure context that trusts Node's default store (its bundled CAs and NODE_EXTRA_CA_CERTS,
 * which a bare `ca` option would drop: a public certificate, or one of the machine's extra CAs,
 * still verifies when a caCert is configured) and `caCert`. Built as Node builds its own from a
 * `ca` list, one certificate added at a time, but onto the default context: Node copies its shared
 * root store for this context before the first certificate is added (so the shared store, and
 * every other connection's trust, stays as it was: tests/client/tls.test.ts checks it), from
 * roots it has parsed once per process. That is far cheaper than
 * `createSecureContext({ ca: [...getCACertificates("default"), caCert] })`, which parses every
 * root certificate again (bench figures 2 and 4), and which is the fallback where the native
 * method is missing.
 */
function trusting(caCert: string): SecureContext {
  const context = createSecureContext();
  // Typed `any` in @types/node: what is used of it is stated here.
  const native = (context as unknown as { context?: NativeContext }).context;
  if (typeof native?.addCACert !== "function") {
    return createSecureContext({ ca: [...getCACertificates("default"), caCert] });
  }
  native.addCACert(caCert);
  return context;
}

/**
 * Returns the dispatcher for these transport options: the injected one, or an undici Agent built
 * from the TLS options and connect timeout. Agents are cached per distinct configuration so that
 * connections (and TLS sessions) are reused across calls.
 *
 * @param transport - TLS options, timeouts and an optional injected dispatcher.
 * @returns the dispatcher to send requests through.
 * @example
 * ```ts
 * const d = dispatcherFor({ tls: { caCert: pem } });
 * ```
 * Sends no request: it builds or reuses the connection pool the requests go through.
 *
 * @internal
 */
export function dispatcherFor(transport: TransportOptions = {}): Dispatcher {
  if (transport.dispatcher) return transport.dispatcher;
  const caCert = transport.tls?.caCert;
  const insecure = transport.tls?.insecureSkipVerify === true;
  const { connectMs } = effectiveTimeouts(transport.timeouts);
  const caHash = caCert ? createHash("sha256").update(caCert).digest("hex") : "";
  const proxy = proxyEnvironment();
  const key = `${caHash}|${insecure}|${connectMs}|${JSON.stringify(proxy)}`;
  let agent = agents.get(key);
  if (!agent) {
    const tls = {
      ...(caCert ? { secureContext: trusting(caCert) } : {}),
      rejectUnauthorized: !insecure,
      timeout: connectMs,
    };
    agent =
      proxy.httpsProxy === undefined && proxy.httpProxy === undefined
        ? new Agent({ connect: tls })
        : // undici's own HTTPS_PROXY / HTTP_PROXY / NO_PROXY handling. An https server is reached
          // through a CONNECT tunnel with TLS end to end (requestTls: the same trust as a direct
          // connection), so the proxy never sees a token; `connect` covers hosts in NO_PROXY.
          new (envHttpProxyAgent())({ ...proxy, connect: tls, requestTls: tls });
    agents.set(key, agent);
  }
  return agent;
}

/**
 * Closes every cached Agent (their idle keep-alive connections), e.g. at the end of a test run
 * or before a short-lived process exits.
 *
 * @example
 * ```ts
 * afterAll(() => closeDispatchers());
 * ```
 * Sends no request: it closes idle connections.
 */
export async function closeDispatchers(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close()));
}

/**
 * Copies only the transport fields of an options object, so credentials never travel into
 * request options.
 *
 * @param o - any options object that extends TransportOptions.
 * @returns a new object with tls, timeouts, signal, dispatcher and maxDownloadBytes (those set).
 * @example
 * ```ts
 * transportOf({ adminUrl, password, tls }) // { tls }
 * ```
 * Sends no request: it copies options.
 *
 * @internal
 */
export function transportOf(o: TransportOptions): TransportOptions {
  const t: TransportOptions = {};
  if (o.tls !== undefined) t.tls = o.tls;
  if (o.timeouts !== undefined) t.timeouts = o.timeouts;
  if (o.signal !== undefined) t.signal = o.signal;
  if (o.dispatcher !== undefined) t.dispatcher = o.dispatcher;
  if (o.maxDownloadBytes !== undefined) t.maxDownloadBytes = o.maxDownloadBytes;
  return t;
}

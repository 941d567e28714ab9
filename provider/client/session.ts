/**
 * Sessions: an authenticated connection to one ArcGIS REST root (admin or portal) that adds a
 * cached token and the Referer to every call and renews a rejected token once. A little over 300
 * lines: the base class and its two kinds (admin, portal) share the private token source, which
 * only this file can see; each kind is its options, a few URL helpers and a factory.
 */
import {
  credentialFingerprint,
  generateToken,
  sharedTokenCache,
  DEFAULT_REFERER,
  type TokenCache,
  type TokenInfo,
} from "./auth";
import { transportOf, type TransportOptions } from "./dispatcher";
import { ArcGISRequestError, isTokenRejectedError } from "./errors";
import { arcgisRequest } from "./request";
import type { RetryPolicy } from "./retry";
import { withoutTrailingSlash } from "../url";
import { portalAdminUrlOf } from "./portal/paths";

/** Per-call options of {@link ArcGISSession.call}. */
export interface SessionCallOptions {
  /** Default POST. */
  method?: "POST" | "GET" | undefined;
  /** True for reads that may be repeated: transient failures are then retried. Default false. */
  idempotent?: boolean | undefined;
  /** Name for error messages; default the path. */
  operation?: string | undefined;
  /** More values to redact from error messages (e.g. another account's password sent here). */
  secrets?: readonly string[] | undefined;
}

/** Supplies tokens to a session; hides the password from anything that prints the session. */
interface TokenSource {
  get(): Promise<string>;
  /** A token asked for now, in one attempt (a given token: that one). */
  fresh(): Promise<string>;
  invalidate(token: string): void;
  readonly refreshable: boolean;
  readonly secrets: readonly string[];
}

/** What every session needs apart from its token source. */
interface SessionInit extends TransportOptions {
  rootUrl: string;
  referer?: string | undefined;
  retry?: RetryPolicy | undefined;
}

/**
 * An authenticated connection to one ArcGIS REST root: adds a (cached) token and the Referer to
 * every call, and renews the token once, transparently, when the server answers 498 or 499.
 *
 * @example
 * ```ts
 * const machines = await session.call("machines", {}, { method: "GET", idempotent: true });
 * ```
 * Used by every authenticated admin or sharing operation of this client.
 */
export class ArcGISSession {
  /** Root URL without trailing slash. */
  readonly rootUrl: string;
  /** Referer header sent on every call. */
  readonly referer: string;
  /** Transport options used for every call. */
  readonly transport: TransportOptions;
  /** Retry policy for idempotent calls. */
  readonly retry: RetryPolicy;
  readonly #tokens: TokenSource;

  /**
   * Creates a session; use {@link createAdminSession} or {@link createPortalSession}.
   *
   * @param init - root URL, referer, retry policy and transport.
   * @param tokens - where tokens come from.
   * @example
   * ```ts
   * // see createAdminSession
   * ```
   */
  protected constructor(init: SessionInit, tokens: TokenSource) {
    this.rootUrl = withoutTrailingSlash(init.rootUrl);
    this.referer = init.referer ?? DEFAULT_REFERER;
    this.transport = transportOf(init);
    this.retry = init.retry ?? {};
    this.#tokens = tokens;
  }

  /**
   * Values to redact from any message about this session (password, token given).
   *
   * @returns the secrets.
   * @example
   * ```ts
   * redactSecrets(text, session.secrets())
   * ```
   */
  secrets(): readonly string[] {
    return this.#tokens.secrets;
  }

  /**
   * Returns a valid token (cached, or freshly generated), e.g. to check the credentials.
   *
   * @returns the token; a secret, never log it.
   * @example
   * ```ts
   * await session.token(); // throws AUTH when the credentials are wrong
   * ```
   * Maps to: `POST {root}/generateToken` unless a cached token is still good.
   */
  token(): Promise<string> {
    return this.#tokens.get();
  }

  /**
   * Asks for a token now, in one attempt, where {@link token} may answer a cached one; the token
   * is then cached for the calls after. It proves that the credentials work at this moment (and,
   * on an administrative root, that the machine is in a site: none issues a token before).
   * A session given a token answers that token.
   *
   * @returns the token; a secret, never log it.
   * @example
   * ```ts
   * await session.freshToken(); // throws when the server gives no token now
   * ```
   * Maps to: `POST {root}/generateToken`.
   */
  freshToken(): Promise<string> {
    return this.#tokens.fresh();
  }

  /**
   * Full URL of a path under the root.
   *
   * @param path - e.g. `exportSite` or `portals/self`.
   * @returns the URL.
   * @example
   * ```ts
   * session.url("exportSite") // "https://h:20443/arcgis/admin/exportSite"
   * ```
   */
  url(path: string): string {
    return path ? `${this.rootUrl}/${path.replace(/^\/+/, "")}` : this.rootUrl;
  }

  /**
   * Calls an operation with the session's token, Referer and transport.
   *
   * @param path - operation path relative to the root, e.g. `exportSite` or `machines`.
   * @param params - form parameters (objects are JSON-encoded).
   * @param options - method, idempotency (enables retries) and the name for messages.
   * @returns the answer's JSON object.
   * @example
   * ```ts
   * await session.call("exportSite", { location: "/backups" })
   * ```
   * Maps to: `{root}/{path}`.
   */
  async call(
    path: string,
    params: Record<string, unknown> = {},
    options: SessionCallOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.callAt(this.url(path), path, params, options);
  }

  /**
   * Like {@link call}, for a full URL on the same server (e.g. the portal's administrative root
   * beside its sharing root).
   *
   * @param url - the operation's full URL.
   * @param path - the operation's name for messages, unless `options.operation` gives one.
   * @param params - form parameters.
   * @param options - method, idempotency and the name for messages.
   * @returns the answer's JSON object.
   * @example
   * ```ts
   * await session.callAt(`${root}/federation/servers`, "federation/servers", {}, { method: "GET" })
   * ```
   * Maps to: `{url}`.
   */
  protected async callAt(
    url: string,
    path: string,
    params: Record<string, unknown>,
    options: SessionCallOptions,
  ): Promise<Record<string, unknown>> {
    return this.withToken((token) =>
      arcgisRequest({
        ...this.transport,
        url,
        operation: options.operation ?? path,
        method: options.method ?? "POST",
        params,
        token,
        referer: this.referer,
        secrets: [...this.secrets(), ...(options.secrets ?? [])],
        retry: options.idempotent ? this.retry : false,
      }),
    );
  }

  /**
   * Runs `fn` with a token. If it fails with 498/499 the token is dropped and `fn` runs once more
   * with a fresh one: safe even for non-idempotent operations, as the server did not act.
   *
   * @param fn - the work that needs a token.
   * @param renewAlsoOn - further failures that mean "token not accepted" for this call.
   * @returns what `fn` returns.
   * @example
   * ```ts
   * await session.withToken((token) => downloadToFile({ ..., token }))
   * ```
   * Maps to: `generateToken` when a token is needed.
   */
  async withToken<T>(
    fn: (token: string) => Promise<T>,
    renewAlsoOn: (e: unknown) => boolean = () => false,
  ): Promise<T> {
    const token = await this.#tokens.get();
    try {
      return await fn(token);
    } catch (e) {
      const rejected = isTokenRejectedError(e);
      if (!rejected && !renewAlsoOn(e)) throw e;
      if (!this.#tokens.refreshable) throw rejected ? givenTokenRejected(e, this.secrets()) : e;
      this.#tokens.invalidate(token);
      return await fn(await this.#tokens.get());
    }
  }
}

/** Options of {@link createAdminSession}. */
export interface AdminSessionOptions extends TransportOptions {
  /** Administrative root, e.g. `https://host:20443/arcgis/admin`. */
  adminUrl: string;
  /** Primary site administrator (or another administrator). */
  username: string;
  /** Password; a secret. */
  password: string;
  /** Referer header and token binding; default `pulumi-arcgis-admin`. */
  referer?: string | undefined;
  /** Requested token lifetime; default 60 minutes. */
  expirationMinutes?: number | undefined;
  /** Retry policy of idempotent calls; default 4 attempts, 500 ms doubling up to 8 s. */
  retry?: RetryPolicy | undefined;
  /** Token cache; default the process-wide cache that every session shares. */
  tokenCache?: TokenCache | undefined;
}

/** A session with a mission server's administrative API. */
export class AdminSession extends ArcGISSession {
  /**
   * Creates the session; no request is sent until the first call.
   *
   * @param options - admin URL, credentials, referer and transport.
   * @example
   * ```ts
   * new AdminSession({ adminUrl, username, password })
   * ```
   */
  constructor(options: AdminSessionOptions) {
    super(
      { ...options, rootUrl: options.adminUrl },
      passwordTokens(options, options.adminUrl, options.username, options.password),
    );
  }

  /** Administrative root without trailing slash. */
  get adminUrl(): string {
    return this.rootUrl;
  }
}

/**
 * Opens a session with a mission server's administrative API (tokens from
 * `{adminUrl}/generateToken`, cached and renewed).
 *
 * @param options - admin URL, credentials, referer, retry policy and transport.
 * @returns the session.
 * @example
 * ```ts
 * const session = createAdminSession({ adminUrl: "https://host:20443/arcgis/admin", username, password, tls: { caCert } });
 * ```
 * Maps to: `POST {admin_root}/generateToken` (on first use).
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/generatetoken
 */
export function createAdminSession(options: AdminSessionOptions): AdminSession {
  return new AdminSession(options);
}

/** Options of {@link createPortalSession}: a username and password, or a token. */
export interface PortalSessionOptions extends TransportOptions {
  /** Sharing root, e.g. `https://portal.example.com/portal/sharing/rest`. */
  sharingUrl: string;
  /** Account name (with `password`). */
  username?: string | undefined;
  /** Password; a secret. */
  password?: string | undefined;
  /** A ready token, used when no password is given; it cannot be renewed. */
  token?: string | undefined;
  /** Referer header and token binding; default `pulumi-arcgis-admin`. */
  referer?: string | undefined;
  /** Requested token lifetime; default 60 minutes. */
  expirationMinutes?: number | undefined;
  /** Retry policy of idempotent calls. */
  retry?: RetryPolicy | undefined;
  /** Token cache; default the process-wide cache that every session shares. */
  tokenCache?: TokenCache | undefined;
}

/** A session with a portal's sharing API. */
export class PortalSession extends ArcGISSession {
  /**
   * Creates the session; no request is sent until the first call.
   *
   * @param options - sharing URL and either username+password or a token.
   * @example
   * ```ts
   * new PortalSession({ sharingUrl, token })
   * ```
   */
  constructor(options: PortalSessionOptions) {
    const { username, password, token } = options;
    let tokens: TokenSource;
    if (username !== undefined && password !== undefined) {
      tokens = passwordTokens(options, options.sharingUrl, username, password);
    } else if (token) {
      tokens = {
        get: () => Promise.resolve(token),
        fresh: () => Promise.resolve(token),
        invalidate: () => undefined,
        refreshable: false,
        secrets: [token],
      };
    } else {
      throw new TypeError("createPortalSession needs a username and password, or a token.");
    }
    super({ ...options, rootUrl: options.sharingUrl }, tokens);
  }

  /** Sharing root without trailing slash. */
  get sharingUrl(): string {
    return this.rootUrl;
  }

  /**
   * The portal's administrative root beside its sharing root: `…/sharing/rest` becomes
   * `…/portaladmin` (as Chef's PortalAdminClient builds both from one portal URL).
   *
   * @returns e.g. `https://portal.example.com/portal/portaladmin`.
   * @example
   * ```ts
   * portal.portalAdminUrl // "https://portal.example.com/portal/portaladmin"
   * ```
   */
  get portalAdminUrl(): string {
    return portalAdminUrlOf(this.rootUrl);
  }

  /**
   * Calls an operation of the portal's administrative API (`{portaladmin}/{path}`) with the
   * session's token (a sharing API token serves there too).
   *
   * @param path - e.g. `federation/servers/federate`.
   * @param params - form parameters.
   * @param options - method, idempotency and the name for messages.
   * @returns the answer's JSON object.
   * @example
   * ```ts
   * await portal.adminCall("federation/servers/federate", { url, adminUrl, username, password })
   * ```
   * Maps to: `{portaladmin}/{path}`.
   */
  adminCall(
    path: string,
    params: Record<string, unknown> = {},
    options: SessionCallOptions = {},
  ): Promise<Record<string, unknown>> {
    return this.callAt(`${this.portalAdminUrl}/${path}`, path, params, options);
  }
}

/**
 * Opens a session with a portal's sharing API, from a username and password (tokens from
 * `{sharingUrl}/generateToken`, cached and renewed) or from a ready token (not renewable: a 498
 * is reported as AUTH saying so).
 *
 * @param options - sharing URL, credentials or token, referer and transport.
 * @returns the session.
 * @example
 * ```ts
 * const portal = createPortalSession({ sharingUrl: "https://portal/portal/sharing/rest", username, password });
 * ```
 * Maps to: `POST {sharing}/generateToken` (on first use, with a password).
 *
 * REST Documentation: https://developers.arcgis.com/rest/users-groups-and-items/generate-token
 */
export function createPortalSession(options: PortalSessionOptions): PortalSession {
  return new PortalSession(options);
}

interface PasswordTokenOptions extends TransportOptions {
  referer?: string | undefined;
  expirationMinutes?: number | undefined;
  retry?: RetryPolicy | undefined;
  tokenCache?: TokenCache | undefined;
}

function passwordTokens(
  options: PasswordTokenOptions,
  rootUrl: string,
  username: string,
  password: string,
): TokenSource {
  const cache = options.tokenCache ?? sharedTokenCache;
  const key = { rootUrl, username, credential: credentialFingerprint(password) };
  const fetchToken = (retry: RetryPolicy | false = options.retry ?? {}): Promise<TokenInfo> =>
    generateToken({
      ...transportOf(options),
      tokenUrl: `${withoutTrailingSlash(rootUrl)}/generateToken`,
      username,
      password,
      referer: options.referer ?? DEFAULT_REFERER,
      expirationMinutes: options.expirationMinutes,
      retry,
    });
  const tokens = cache.holder(key);
  return {
    get: () => tokens.get(() => fetchToken()),
    fresh: () => tokens.renew(() => fetchToken(false)),
    invalidate: (token) => tokens.invalidate(token),
    refreshable: true,
    secrets: [password],
  };
}

function givenTokenRejected(e: ArcGISRequestError, secrets: readonly string[]): ArcGISRequestError {
  const server = e.messages.join(" ") || "Invalid token.";
  return new ArcGISRequestError({
    code: "AUTH",
    operation: e.operation,
    url: e.url,
    serverCode: e.serverCode,
    messages: e.messages,
    httpStatus: e.httpStatus,
    cause: e,
    secrets,
    detail: `${server} The token given to the portal session was rejected and cannot be renewed without a username and password: give a fresh token, or a username and password.`,
  });
}

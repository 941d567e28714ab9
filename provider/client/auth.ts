import { createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import { ArcGISRequestError, cleanUrl, isArcGISRequestError } from "./errors";
import { arcgisRequest } from "./request";
import { transportOf, type TransportOptions } from "./dispatcher";
import { validateAnswer } from "./response";
import type { RetryPolicy } from "./retry";

/**
 * Referer sent on every call when none is given. Tokens are issued with `client=referer` for it,
 * and a real server then expects the same Referer header on each call.
 *
 * @internal
 */
export const DEFAULT_REFERER = "pulumi-arcgis-admin";

/** A token and when it lapses. */
export interface TokenInfo {
  /** The token; a secret. */
  token: string;
  /** Expiry as epoch milliseconds. */
  expires: number;
}

/** Options of {@link generateToken}. */
export interface GenerateTokenOptions extends TransportOptions {
  /** `{admin_root}/generateToken` or `{sharing}/generateToken`. */
  tokenUrl: string;
  /** Account name. */
  username: string;
  /** Account password; never appears in an error. */
  password: string;
  /** Referer the token is bound to (sent as `referer` and as the Referer header). */
  referer: string;
  /** Requested lifetime in minutes; default 60. */
  expirationMinutes?: number | undefined;
  /** Retry transient failures (asking for a token twice is harmless). */
  retry?: RetryPolicy | false | undefined;
}

const TokenAnswer = z.looseObject({
  token: z.string().min(1),
  expires: z.union([z.number(), z.string().regex(/^\d+$/)]).optional(),
});

/**
 * Asks the server for a token bound to a referer (`client=referer`).
 *
 * @param opts - token URL, credentials, referer, lifetime and transport.
 * @returns the token and its expiry (epoch ms).
 * @example
 * ```ts
 * const { token } = await generateToken({ tokenUrl: `${adminUrl}/generateToken`, username, password, referer: "pulumi-arcgis-admin" });
 * ```
 * Maps to: `POST {admin_root}/generateToken` and `POST {sharing}/generateToken`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/generatetoken (admin API) and
 * https://developers.arcgis.com/rest/users-groups-and-items/generate-token (sharing API).
 */
export async function generateToken(opts: GenerateTokenOptions): Promise<TokenInfo> {
  const expirationMinutes = opts.expirationMinutes ?? 60;
  const requestedAt = Date.now();
  const body = await arcgisRequest({
    ...transportOf(opts),
    url: opts.tokenUrl,
    operation: "generateToken",
    params: {
      username: opts.username,
      password: opts.password,
      client: "referer",
      referer: opts.referer,
      expiration: expirationMinutes,
    },
    referer: opts.referer,
    secrets: [opts.password],
    retry: opts.retry,
    read: true,
  }).catch((error: unknown) => {
    // A refused login is an authentication failure, whatever code the server gave it (400 on
    // the admin API, 400 or 498 on the sharing API).
    if (isArcGISRequestError(error) && error.code === "SERVER") {
      throw new ArcGISRequestError({
        code: "AUTH",
        operation: "generateToken",
        url: opts.tokenUrl,
        detail: error.messages.join(" ") || "the server refused the credentials.",
        serverCode: error.serverCode,
        messages: error.messages,
        httpStatus: error.httpStatus,
        errorFormat: error.errorFormat,
        cause: error,
        secrets: [opts.password],
      });
    }
    throw error;
  });
  const answer = validateAnswer(TokenAnswer, body, {
    operation: "generateToken",
    url: opts.tokenUrl,
    secrets: [opts.password],
  });
  const expires =
    answer.expires === undefined
      ? requestedAt + expirationMinutes * 60_000
      : Number(answer.expires);
  return { token: answer.token, expires };
}

/** Identifies a cached token: the root URL it was issued by, the account and its credentials. */
export interface TokenKey {
  /** Admin root or sharing root. */
  rootUrl: string;
  /** Account name. */
  username: string;
  /**
   * A fingerprint of the password the token was obtained with (a salted hash, never the password),
   * so that a wrong or changed password never reuses a token that another password obtained.
   */
  credential?: string;
}

/**
 * A one-way fingerprint of a password for cache keys. Salted per process, kept in memory only,
 * never logged.
 *
 * @param password - the password.
 * @returns a hex digest.
 * @example
 * ```ts
 * cache.get({ rootUrl, username, credential: credentialFingerprint(password) }, fetch)
 * ```
 *
 * @internal
 */
export function credentialFingerprint(password: string): string {
  return createHmac("sha256", FINGERPRINT_SALT).update(password).digest("hex");
}

const FINGERPRINT_SALT = randomBytes(32);

/** Options of {@link TokenCache}. */
export interface TokenCacheOptions {
  /** Clock in epoch ms; injectable for tests. */
  now?: () => number;
  /** Stop using a token this long before it expires; default 5 minutes. */
  refreshMarginMs?: number;
  /**
   * How many keys (root URL, account) the cache keeps tokens for; default 256. The least recently
   * used is dropped first; a session under way keeps its own token when the cache drops it.
   */
  maxEntries?: number;
}

/**
 * Default of {@link TokenCacheOptions.maxEntries}: the number of servers whose tokens are kept
 * for the sessions that come next. It is above the number of servers one stack usually holds:
 * a `pulumi refresh` reads a fleet's Sites first and their SiteExports and LogSettings after, in
 * the state's order, so a server dropped in between would cost its dependents a token request
 * more. A session under way keeps its own token whatever the cache drops, and the cache's memory
 * stops growing at this many servers.
 *
 * @internal
 */
export const DEFAULT_TOKEN_CACHE_ENTRIES = 256;

interface CacheEntry {
  value?: TokenInfo;
  pending?: Promise<TokenInfo>;
}

/**
 * The tokens of one key (root URL, account) for one user of the cache, a session: it keeps the
 * entry it used last, so a session under way keeps its token when the cache drops the key, and
 * gives the entry back to the cache (as the most recently used) at each use.
 *
 * @internal
 */
export interface TokenHolder {
  /** A usable token: the cached one, or one fetched (once, however many callers wait for it). */
  get(fetchToken: () => Promise<TokenInfo>): Promise<string>;
  /**
   * A token fetched now (or by a fetch already under way), never the cached one; it is then the
   * cached one.
   */
  renew(fetchToken: () => Promise<TokenInfo>): Promise<string>;
  /** Forgets the token if it is still `token` (the one the server rejected). */
  invalidate(token: string): void;
}

/**
 * Caches tokens per (root URL, username) and reuses one until 5 minutes before it expires.
 * Concurrent callers share one in-flight token request. Keeps the tokens of the
 * {@link TokenCacheOptions.maxEntries} keys used last, so that its memory does not grow with the
 * number of servers a process talks to.
 *
 * @example
 * ```ts
 * const cache = new TokenCache();
 * const token = await cache.get({ rootUrl, username }, () => generateToken(opts));
 * ```
 * Sends no request itself: it decides when the given function calls generateToken.
 */
export class TokenCache {
  /** In order of use, the least recently used first. */
  private readonly entries = new Map<string, CacheEntry>();
  private readonly now: () => number;
  private readonly refreshMarginMs: number;
  private maxEntries: number;

  /**
   * Creates an empty cache.
   *
   * @param options - clock, refresh margin and size.
   * @example
   * ```ts
   * new TokenCache({ refreshMarginMs: 5 * 60_000 })
   * ```
   */
  constructor(options: TokenCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.refreshMarginMs = options.refreshMarginMs ?? 5 * 60_000;
    this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_TOKEN_CACHE_ENTRIES);
  }

  /**
   * Returns a usable cached token, or fetches one (once, however many callers wait for it).
   *
   * @param key - root URL and username.
   * @param fetchToken - asks the server for a new token.
   * @returns the token.
   * @example
   * ```ts
   * await cache.get({ rootUrl, username }, () => generateToken(opts))
   * ```
   */
  get(key: TokenKey, fetchToken: () => Promise<TokenInfo>): Promise<string> {
    return this.holder(key).get(fetchToken);
  }

  /**
   * The tokens of `key` for one session: what {@link TokenCache.get} does, except that the
   * holder keeps the token it got when the cache drops the key.
   *
   * @param key - root URL and username.
   * @returns the holder.
   * @example
   * ```ts
   * const tokens = cache.holder({ rootUrl, username });
   * const token = await tokens.get(() => generateToken(opts));
   * ```
   *
   * @internal
   */
  holder(key: TokenKey): TokenHolder {
    const id = cacheId(key);
    let held: CacheEntry | undefined;
    return {
      get: async (fetchToken) => {
        const entry = this.use(id, held);
        held = entry;
        return this.tokenOf(entry, fetchToken);
      },
      renew: async (fetchToken) => {
        const entry = this.use(id, held);
        held = entry;
        delete entry.value;
        return this.tokenOf(entry, fetchToken);
      },
      invalidate: (token) => {
        const entry = held ?? this.entries.get(id);
        if (entry?.value?.token === token) delete entry.value;
      },
    };
  }

  /**
   * Changes how many keys the cache keeps; the least recently used beyond it are dropped now.
   *
   * @param maxEntries - the new limit (at least 1).
   * @example
   * ```ts
   * sharedTokenCache.limitTo(8)
   * ```
   *
   * @internal
   */
  limitTo(maxEntries: number): void {
    this.maxEntries = Math.max(1, maxEntries);
    this.dropBeyondLimit();
  }

  /** Drops the least recently used keys beyond the limit. */
  private dropBeyondLimit(): void {
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  /**
   * The entry of `id`, made the most recently used: the cache's own, else the one the caller
   * held (given back), else a new one; the least recently used beyond the limit are dropped.
   */
  private use(id: string, held: CacheEntry | undefined): CacheEntry {
    const entry = this.entries.get(id) ?? held ?? {};
    this.entries.delete(id);
    this.entries.set(id, entry);
    this.dropBeyondLimit();
    return entry;
  }

  private async tokenOf(entry: CacheEntry, fetchToken: () => Promise<TokenInfo>): Promise<string> {
    if (entry.value && this.now() < entry.value.expires - this.refreshMarginMs) {
      return entry.value.token;
    }
    if (!entry.pending) {
      const pending = fetchToken();
      entry.pending = pending;
      // Clear the in-flight marker however it ends, so a failure is not cached.
      pending.then(
        (value) => {
          if (entry.pending === pending) {
            entry.value = value;
            delete entry.pending;
          }
        },
        () => {
          if (entry.pending === pending) delete entry.pending;
        },
      );
    }
    return (await entry.pending).token;
  }

  /**
   * Forgets the cached token for `key`; with `token` given, only if it is still that token (so a
   * late caller cannot throw away a token another caller has just refreshed).
   *
   * @param key - root URL and username.
   * @param token - the token the server rejected.
   * @example
   * ```ts
   * cache.invalidate({ rootUrl, username }, rejectedToken)
   * ```
   */
  invalidate(key: TokenKey, token?: string): void {
    const entry = this.entries.get(cacheId(key));
    if (!entry?.value) return;
    if (token === undefined || entry.value.token === token) delete entry.value;
  }

  /**
   * Forgets every token.
   *
   * @example
   * ```ts
   * cache.clear()
   * ```
   */
  clear(): void {
    this.entries.clear();
  }
}

function cacheId(key: TokenKey): string {
  return `${cleanUrl(key.rootUrl)}\n${key.username}\n${key.credential ?? ""}`;
}

/**
 * The process-wide token cache used by sessions that are not given one.
 *
 * @internal
 */
export const sharedTokenCache = new TokenCache();

/**
 * Passwords and tokens. Passwords are stored as scrypt hashes; tokens are HMAC-signed
 * claims, so they need no storage and survive a restart, as a real server's do.
 */
import { createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number },
) => Promise<Buffer>;

/**
 * scrypt cost. Lower than a production default on purpose: the hash only keeps plain
 * passwords out of the emulator's state file; a password is proven once (see `proven`).
 */
const SCRYPT_COST = 4096;

/** Hashes a password for the state file (`scrypt$<N>$<salt>$<hash>`, base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, { N: SCRYPT_COST });
  const stored = `scrypt$${SCRYPT_COST}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
  remember(stored, password);
  return stored;
}

/**
 * Passwords already proven against a stored hash (hashed here, or matched once), held in memory
 * only: each stored hash maps to an HMAC of its password, under a key made at start and never
 * written anywhere. A generateToken with that password is then checked by the HMAC instead of a
 * scrypt run, so a client asking for many tokens (a stack refreshing a hundred resources of one
 * site) does not make the emulator spend a scrypt each time; a different password still pays
 * the full scrypt. Bounded: the oldest hash is forgotten first.
 */
const proven = new Map<string, Buffer>();
const PROVEN_LIMIT = 256;
const provenKey = randomBytes(32);

function provenMac(password: string): Buffer {
  return createHmac("sha256", provenKey).update(password, "utf8").digest();
}

/** Checks a password against a hash made by {@link hashPassword}. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, salt, hash] = stored.split("$");
  const N = Number(cost);
  if (scheme !== "scrypt" || !Number.isSafeInteger(N) || salt === undefined || hash === undefined) {
    return false;
  }
  const known = proven.get(stored);
  if (known !== undefined && timingSafeEqual(known, provenMac(password))) return true;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64url"), expected.length, {
    N,
  });
  const ok = timingSafeEqual(actual, expected);
  if (ok) remember(stored, password);
  return ok;
}

/** Keeps the proof that `password` matches `stored` (the newest last, the oldest dropped). */
function remember(stored: string, password: string): void {
  proven.delete(stored);
  proven.set(stored, provenMac(password));
  if (proven.size > PROVEN_LIMIT) proven.delete(proven.keys().next().value!);
}

/** Which API a token was issued by; a token works only on its own API. */
export type TokenAudience = "admin" | "portal";

/** What a token asserts. */
export interface TokenClaims {
  readonly aud: TokenAudience;
  /** The user the token was issued to. */
  readonly sub: string;
  /** Site id (admin tokens) or portal id (portal tokens) the token belongs to. */
  readonly scope: string;
  /** Token epoch at issue time; expireTokens() moves the epoch on. */
  readonly epoch: number;
  /** Expiry, epoch ms. */
  readonly exp: number;
  /** Set for `client=referer`: the Referer every request must carry. */
  readonly referer?: string;
  /** Set for `client=ip` / `client=requestip`: the client address it is bound to. */
  readonly ip?: string;
  /** Makes every token unique. */
  readonly nonce: string;
}

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url");
}

/** Issues a signed token for the claims. */
export function issueToken(secret: string, claims: TokenClaims): string {
  const payload = Buffer.from(JSON.stringify(claims), "utf8").toString("base64url");
  return `${payload}.${sign(secret, payload)}`;
}

/** Returns the claims of a token signed with `secret`, or null for anything else. */
export function readToken(secret: string, token: string): TokenClaims | null {
  const [payload, signature, extra] = token.split(".");
  if (payload === undefined || signature === undefined || extra !== undefined) return null;
  const expected = Buffer.from(sign(secret, payload));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as TokenClaims;
  } catch {
    return null;
  }
}

function bearer(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value === undefined ? null : /^\s*Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1] ?? null;
}

/**
 * Finds the token of a request in every form a real server accepts: the
 * `X-Esri-Authorization: Bearer` header, the `Authorization: Bearer` header, and the
 * `token` parameter (form field or query string; the caller has merged both).
 */
export function presentedToken(
  headers: IncomingHttpHeaders,
  params: ReadonlyMap<string, string>,
): string | null {
  const fromParams = params.get("token");
  return (
    bearer(headers["x-esri-authorization"]) ??
    bearer(headers.authorization) ??
    (fromParams !== undefined && fromParams !== "" ? fromParams : null)
  );
}

/** Why a presented token was refused. */
export type TokenProblem = "missing" | "invalid";

/** The outcome of checking a request's token. */
export type TokenCheck =
  | { readonly ok: true; readonly claims: TokenClaims }
  | { readonly ok: false; readonly problem: TokenProblem };

/** What a token is checked against. */
export interface TokenExpectation {
  readonly secret: string;
  readonly audience: TokenAudience;
  readonly scope: string;
  readonly epoch: number;
  readonly now: number;
  readonly referer: string | undefined;
  readonly remoteAddress: string;
}

/**
 * Whether a request's Referer satisfies a referer-bound token: the same string, or a
 * longer URL under it (the bound referer followed by `/`, `?` or `#`), so that
 * `https://app.example` does not admit `https://app.example.evil`.
 */
export function refererMatches(bound: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  if (presented === bound) return true;
  if (!presented.startsWith(bound)) return false;
  return bound.endsWith("/") || ["/", "?", "#"].includes(presented.charAt(bound.length));
}

/** Checks a presented token; every failure is "invalid" (498), as on a real server. */
export function checkToken(token: string | null, expect: TokenExpectation): TokenCheck {
  if (token === null) return { ok: false, problem: "missing" };
  const claims = readToken(expect.secret, token);
  const valid =
    claims !== null &&
    claims.aud === expect.audience &&
    claims.scope === expect.scope &&
    claims.epoch === expect.epoch &&
    claims.exp > expect.now &&
    (claims.referer === undefined || refererMatches(claims.referer, expect.referer)) &&
    (claims.ip === undefined || claims.ip === normalizeAddress(expect.remoteAddress));
  return valid ? { ok: true, claims } : { ok: false, problem: "invalid" };
}

/** Strips the IPv4-mapped IPv6 prefix so `::ffff:127.0.0.1` binds like `127.0.0.1`. */
export function normalizeAddress(address: string): string {
  return address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
}

/** Default and maximum token lifetimes of generateToken, in minutes (the reference's). */
export const DEFAULT_TOKEN_MINUTES = 60;
/** Longest lifetime generateToken grants. */
export const MAX_TOKEN_MINUTES = 525600;

/** The binding a generateToken request asks for. */
export interface TokenBinding {
  readonly referer?: string;
  readonly ip?: string;
}

/**
 * Reads `client`, `referer`, `ip` and `expiration` of a generateToken request.
 * Returns an error message naming the bad field, or the binding and lifetime.
 * Without `client`, a `referer` parameter binds the token to it; otherwise the token is
 * unbound (an emulator assumption: real servers differ by version here).
 */
export function readTokenRequest(
  params: ReadonlyMap<string, string>,
  remoteAddress: string,
  lifetimeOverrideMinutes: number | undefined,
): { binding: TokenBinding; minutes: number } | { error: string } {
  const client = (params.get("client") ?? "").trim().toLowerCase();
  const referer = params.get("referer")?.trim() ?? "";
  let binding: TokenBinding;
  if (client === "referer" || (client === "" && referer !== "")) {
    if (referer === "")
      return { error: "The parameter 'referer' is required with client=referer." };
    binding = { referer };
  } else if (client === "ip") {
    const ip = params.get("ip")?.trim() ?? "";
    if (ip === "") return { error: "The parameter 'ip' is required with client=ip." };
    binding = { ip: normalizeAddress(ip) };
  } else if (client === "requestip") {
    binding = { ip: normalizeAddress(remoteAddress) };
  } else if (client === "") {
    binding = {};
  } else {
    return {
      error: `Invalid value '${client}' for parameter 'client'. Use referer, ip or requestip.`,
    };
  }
  const rawExpiration = params.get("expiration")?.trim() ?? "";
  let minutes = DEFAULT_TOKEN_MINUTES;
  if (rawExpiration !== "") {
    minutes = Number(rawExpiration);
    if (!Number.isFinite(minutes) || minutes <= 0) {
      return { error: `Invalid value for parameter 'expiration': a number of minutes above 0.` };
    }
    minutes = Math.min(minutes, MAX_TOKEN_MINUTES);
  }
  if (lifetimeOverrideMinutes !== undefined) minutes = lifetimeOverrideMinutes;
  return { binding, minutes };
}

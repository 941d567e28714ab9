/**
 * The portal's built-in OAuth2 sign-in for its own users: `sharing/rest/oauth2/authorize` (the
 * sign-in page), `sharing/oauth2/signin` (the page's form post), `sharing/rest/oauth2/token`
 * (code and refresh token exchange). What `GIS(url, user, password)` of the ArcGIS API for
 * Python uses by default.
 *
 * Evidence:
 * - Parameters and answers of the documented operations:
 *   https://developers.arcgis.com/rest/users-groups-and-items/authorize.htm (client_id,
 *   response_type `token` = implicit grant with the token in the redirect URI's fragment, `code` =
 *   authorization grant; redirect_uri; expiration in minutes) and
 *   https://developers.arcgis.com/rest/users-groups-and-items/token.htm (grant_type
 *   authorization_code: client_id, code, redirect_uri; refresh_token: client_id, refresh_token).
 * - The fields of the answers, as Esri's own client reads them: Esri/arcgis-rest-js at
 *   7e3424af2fe57024af3bfa97c0f36bafecf91520, `packages/arcgis-rest-request/src/fetch-token.ts`
 *   (oauth2/token: access_token, expires_in in seconds, username, ssl, refresh_token,
 *   refresh_token_expires_in) and `src/ArcGISIdentityManager.ts` (`completeOAuth2`: the implicit
 *   grant's fragment carries access_token, expires_in, ssl, username and state).
 * - What the ArcGIS API for Python 2.4.4 sends and parses (`arcgis/auth/_auth/_token.py`,
 *   `EsriBuiltInAuth`): client_id `pythonapi`; authorize with response_type `token` and the
 *   redirect URIs `https://<portal host>`, then `urn:ietf:wg:oauth:2.0:oob`, skipping one whose page
 *   says "Invalid redirect_uri"; it reads `oauth_state` from the page's `var oAuthInfo = {...};`
 *   script (a one-line JSON object), POSTs `oauth_state`, `username`, `password`, `expiration` to
 *   `{portal}/sharing/oauth2/signin` and takes the token from the `Location` fragment. Its fallback,
 *   the code grant with the oob redirect URI, reads the code from `<title>SUCCESS code=...</title>`
 *   and, on that page too, an object `var <name> = {...}` whose `messages` tell a failed sign-in
 *   ("Invalid username or password").
 * Assumptions (docs/emulator.md, "OAuth2 sign-in"): the page's exact HTML, the redirect URIs
 * `pythonapi` accepts, the lifetimes of codes and tokens, and the texts of the refusals.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  escapeHtml,
  json,
  requirePost,
  SharingError,
  type ApiRequest,
  type Reply,
} from "../core/http";
import type { Runtime } from "../core/runtime";
import { BUILT_IN_CLIENT_IDS, handleApps } from "./apps";
import { issueToken, MAX_TOKEN_MINUTES, verifyPassword } from "../core/tokens";

/** Path of the sign-in pages outside the REST API (`{portal}/sharing/oauth2`). */
export const OAUTH_PAGES_PREFIX = "/portal/sharing/oauth2";

/** The out-of-band redirect URI (RFC 8252's predecessor; the Python API's fallback). */
const OOB_REDIRECT_URI = "urn:ietf:wg:oauth:2.0:oob";

/** Lifetime of an access token when authorize sends no `expiration` (minutes; assumption). */
const DEFAULT_ACCESS_MINUTES = 120;
/** Lifetime of a sign-in page's state and of an authorization code (assumption). */
const STATE_MS = 30 * 60_000;
const CODE_MS = 5 * 60_000;
/** Lifetime of a refresh token (minutes; assumption: two weeks, rest-js's default expiration). */
const REFRESH_MINUTES = 20160;

/** What a sign-in page's `oauth_state` carries between authorize and signin. */
interface SignInState {
  readonly kind: "state";
  readonly clientId: string;
  readonly responseType: "token" | "code";
  readonly redirectUri: string;
  readonly state: string;
  readonly minutes: number;
  readonly exp: number;
}

/** An authorization code, or a refresh token: what it may be exchanged for. */
interface Grant {
  readonly kind: "code" | "refresh";
  readonly clientId: string;
  readonly redirectUri: string;
  readonly sub: string;
  readonly scope: string;
  readonly epoch: number;
  readonly minutes: number;
  readonly exp: number;
  readonly nonce: string;
}

/** Codes already exchanged, per emulator (a code is good once). */
const usedCodes = new WeakMap<Runtime, Map<string, number>>();

function sealKey(rt: Runtime): string {
  return `${rt.store.current.tokenSecret}:oauth2`;
}

function seal(rt: Runtime, value: SignInState | Grant): string {
  const payload = Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
  const mac = createHmac("sha256", sealKey(rt)).update(payload).digest("base64url");
  return `${payload}.${mac}`;
}

function unseal(rt: Runtime, text: string): Record<string, unknown> | null {
  const [payload, mac, extra] = text.split(".");
  if (payload === undefined || mac === undefined || extra !== undefined) return null;
  const expected = Buffer.from(
    createHmac("sha256", sealKey(rt)).update(payload).digest("base64url"),
  );
  const actual = Buffer.from(mac);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function readState(rt: Runtime, text: string): SignInState | null {
  const value = unseal(rt, text);
  if (value?.kind !== "state" || typeof value.exp !== "number" || value.exp <= Date.now()) {
    return null;
  }
  return value as unknown as SignInState;
}

function readGrant(rt: Runtime, text: string, kind: Grant["kind"]): Grant | null {
  const value = unseal(rt, text);
  const state = rt.store.current;
  if (
    value?.kind !== kind ||
    typeof value.exp !== "number" ||
    value.exp <= Date.now() ||
    value.scope !== state.portal.id ||
    value.epoch !== state.tokenEpoch
  ) {
    return null;
  }
  return value as unknown as Grant;
}

/** A JSON text safe inside a `<script>` element and free of `;` (JSON has none outside strings). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&;\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** An error page of the sign-in flow: the text is what the Python API looks for. */
function errorPage(text: string): Reply {
  return {
    kind: "page",
    html:
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Error</title></head>\n` +
      `<body><p>Error: ${escapeHtml(text)}</p></body></html>\n`,
  };
}

/**
 * The sign-in page: the state of the flow in one line `var oAuthInfo = {...};` (what the Python
 * API parses) and a form posting to `{portal}/sharing/oauth2/signin`.
 */
function signInPage(rt: Runtime, info: SignInState, messages: readonly string[]): Reply {
  const oAuthInfo = {
    oauth_state: seal(rt, { ...info, exp: Date.now() + STATE_MS }),
    client_id: info.clientId,
    response_type: info.responseType,
    redirect_uri: info.redirectUri,
    portalName: rt.store.current.portal.name,
    ...(messages.length > 0 ? { messages } : {}),
  };
  return {
    kind: "page",
    html:
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Sign In</title></head>\n<body>\n` +
      `<script>\nvar oAuthInfo = ${scriptJson(oAuthInfo)};\n</script>\n` +
      `<form method="post" action="${OAUTH_PAGES_PREFIX}/signin">\n` +
      `<input type="hidden" name="oauth_state" value="${escapeHtml(oAuthInfo.oauth_state)}">\n` +
      `<input type="text" name="username"> <input type="password" name="password">\n` +
      `<button type="submit">Sign In</button>\n</form>\n</body></html>\n`,
  };
}

/** Whether `pythonapi` may be sent to this redirect URI: oob, or this portal's own origin. */
function redirectAllowed(rt: Runtime, redirectUri: string): boolean {
  if (redirectUri === OOB_REDIRECT_URI) return true;
  try {
    const url = new URL(redirectUri);
    return url.protocol === "https:" && url.origin === new URL(rt.publicOrigin).origin;
  } catch {
    return false;
  }
}

function minutesParam(value: string | undefined): number {
  const minutes = Number(value ?? "");
  if (value === undefined || value.trim() === "" || !Number.isFinite(minutes) || minutes <= 0) {
    return DEFAULT_ACCESS_MINUTES;
  }
  return Math.min(minutes, MAX_TOKEN_MINUTES);
}

/** `GET sharing/rest/oauth2/authorize`: the sign-in page, or an error page. */
export function authorize(rt: Runtime, req: ApiRequest): Reply {
  const clientId = req.params.get("client_id") ?? "";
  if (!(BUILT_IN_CLIENT_IDS as readonly string[]).includes(clientId)) {
    return errorPage("Invalid client_id");
  }
  const responseType = req.params.get("response_type") ?? "";
  if (responseType !== "token" && responseType !== "code") {
    return errorPage("Invalid response_type");
  }
  const redirectUri = req.params.get("redirect_uri") ?? "";
  if (!redirectAllowed(rt, redirectUri)) return errorPage("Invalid redirect_uri");
  if (responseType === "token" && redirectUri === OOB_REDIRECT_URI) {
    return errorPage("Invalid redirect_uri");
  }
  const info: SignInState = {
    kind: "state",
    clientId,
    responseType,
    redirectUri,
    state: req.params.get("state") ?? "",
    minutes: minutesParam(req.params.get("expiration")),
    exp: 0,
  };
  return signInPage(rt, info, []);
}

function accessToken(
  rt: Runtime,
  username: string,
  minutes: number,
): { token: string; expiresIn: number } {
  const state = rt.store.current;
  const lifetime = rt.options.tokenLifetimeMinutes ?? minutes;
  const token = issueToken(state.tokenSecret, {
    aud: "portal",
    sub: username,
    scope: state.portal.id,
    epoch: state.tokenEpoch,
    exp: Date.now() + Math.round(lifetime * 60_000),
    nonce: randomBytes(8).toString("hex"),
  });
  rt.stats.tokensIssued++;
  return { token, expiresIn: Math.max(1, Math.round(lifetime * 60)) };
}

/** `POST {portal}/sharing/oauth2/signin`: checks the user, then answers the grant. */
export async function signIn(rt: Runtime, req: ApiRequest): Promise<Reply> {
  requirePost(req, "signin");
  const info = readState(rt, req.params.get("oauth_state") ?? "");
  if (info === null) return errorPage("Invalid or expired oauth_state");
  const username = req.params.get("username") ?? "";
  const password = req.params.get("password") ?? "";
  const state = rt.store.current;
  const user = state.portal.users.find((u) => u.username === username);
  const valid = user !== undefined && (await verifyPassword(password, user.passwordHash));
  if (!valid) return signInPage(rt, info, ["Invalid username or password."]);
  const stateParam = info.state === "" ? {} : { state: info.state };
  if (info.responseType === "token") {
    const { token, expiresIn } = accessToken(rt, username, info.minutes);
    const fragment = new URLSearchParams({
      access_token: token,
      expires_in: String(expiresIn),
      username,
      ssl: String(rt.tlsEnabled),
      ...stateParam,
    });
    return { kind: "redirect", location: `${info.redirectUri}#${fragment.toString()}` };
  }
  const code = seal(rt, {
    kind: "code",
    clientId: info.clientId,
    redirectUri: info.redirectUri,
    sub: username,
    scope: state.portal.id,
    epoch: state.tokenEpoch,
    minutes: info.minutes,
    exp: Date.now() + CODE_MS,
    nonce: randomBytes(8).toString("hex"),
  });
  if (info.redirectUri === OOB_REDIRECT_URI) {
    return {
      kind: "page",
      html:
        `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>SUCCESS code=${escapeHtml(code)}</title></head>\n` +
        // The Python API reads this page's `var ... = {...}` too (a failed sign-in's messages).
        `<body>\n<script>\nvar oAuthInfo = ${scriptJson({ client_id: info.clientId, code })};\n</script>\n` +
        `<p>Copy this code into the application: ${escapeHtml(code)}</p></body></html>\n`,
    };
  }
  const query = new URLSearchParams({ code, ...stateParam });
  const separator = info.redirectUri.includes("?") ? "&" : "?";
  return { kind: "redirect", location: `${info.redirectUri}${separator}${query.toString()}` };
}

function tokenError(message: string): SharingError {
  return new SharingError(400, message, undefined, []);
}

/** `POST sharing/rest/oauth2/token`: an authorization code or a refresh token for a token. */
export function exchangeToken(rt: Runtime, req: ApiRequest): Reply {
  requirePost(req, "token");
  const grantType = req.params.get("grant_type") ?? "";
  const clientId = req.params.get("client_id") ?? "";
  if (!(BUILT_IN_CLIENT_IDS as readonly string[]).includes(clientId)) {
    throw tokenError("Invalid client_id.");
  }
  if (grantType === "authorization_code") {
    const text = req.params.get("code") ?? "";
    const grant = readGrant(rt, text, "code");
    const used = usedCodes.get(rt) ?? new Map<string, number>();
    usedCodes.set(rt, used);
    for (const [nonce, exp] of used) if (exp <= Date.now()) used.delete(nonce);
    if (
      grant === null ||
      grant.clientId !== clientId ||
      grant.redirectUri !== (req.params.get("redirect_uri") ?? "") ||
      used.has(grant.nonce)
    ) {
      throw tokenError("Invalid authorization code.");
    }
    used.set(grant.nonce, grant.exp);
    const { token, expiresIn } = accessToken(rt, grant.sub, grant.minutes);
    const refresh = seal(rt, {
      ...grant,
      kind: "refresh",
      exp: Date.now() + REFRESH_MINUTES * 60_000,
      nonce: randomBytes(8).toString("hex"),
    });
    return json({
      access_token: token,
      expires_in: expiresIn,
      username: grant.sub,
      ssl: rt.tlsEnabled,
      refresh_token: refresh,
      refresh_token_expires_in: REFRESH_MINUTES * 60,
    });
  }
  if (grantType === "refresh_token") {
    const grant = readGrant(rt, req.params.get("refresh_token") ?? "", "refresh");
    if (grant === null || grant.clientId !== clientId) throw tokenError("Invalid refresh_token.");
    const { token, expiresIn } = accessToken(rt, grant.sub, grant.minutes);
    return json({
      access_token: token,
      expires_in: expiresIn,
      username: grant.sub,
      ssl: rt.tlsEnabled,
    });
  }
  throw tokenError("Invalid grant_type. Use authorization_code or refresh_token.");
}

/**
 * Handles `{portal}/sharing/oauth2/<page>`: the sign-in form's `signin`, and the registered apps
 * DSC's ArcGIS_Federation reads and updates there (portal/apps.ts).
 */
export async function handleSignInPages(rt: Runtime, req: ApiRequest): Promise<Reply> {
  if (req.segments.length === 1 && req.segments[0] === "signin") return signIn(rt, req);
  if (req.segments[0] === "apps") return handleApps(rt, req, req.segments.slice(1));
  throw new SharingError(
    404,
    `Could not find resource or operation '${req.segments.at(-1) ?? "oauth2"}' on the system.`,
  );
}

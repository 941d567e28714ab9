/**
 * The HTTP(S) front of the emulator: records each request line, reads parameters within
 * the size limit, dispatches to the admin API, the sharing API, the health check or the
 * emulator's own control endpoints, and renders every answer or error in the format of
 * the API that was called. No stack trace ever reaches a client.
 */
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { ADMIN_PREFIX, authenticate, handleAdmin, notFoundError, versionInfo } from "./admin/api";
import {
  AdminError,
  BodyTooLargeError,
  decodeForm,
  formatOf,
  MalformedBodyError,
  readBody,
  decodeFiles,
  send,
  sendDocument,
  SharingError,
  type ApiRequest,
  type Format,
  type Reply,
} from "./core/http";
import { atLeast, type Dialect, type Product } from "./core/products";
import { loggedUrl } from "./core/request-log";
import type { Runtime } from "./core/runtime";
import { handleSharing, PORTAL_ROOT_PATH, SHARING_PREFIX } from "./portal/sharing-api";
import { handlePortalAdmin, PORTALADMIN_PREFIX } from "./portal/portaladmin";
import { notInitialized, portalSiteReady } from "./portal/site";
import { handleSignInPages, OAUTH_PAGES_PREFIX } from "./portal/oauth";
import { withoutTrailingSlash } from "./core/url";

/** Prefix of the REST services directory (rest/info, the health checks). */
export const REST_PREFIX = "/arcgis/rest";

/** Path of a product's documented health check (the first of its paths). */
export function healthPath(product: Product): string {
  return `${REST_PREFIX}/${product.healthCheck.paths[0] ?? "info/healthcheck"}`;
}
/** Prefix of the emulator's own control endpoints (not part of any ArcGIS API). */
export const CONTROL_PREFIX = "/__emulator";
/** Name of the request log inside the data dir (one JSON line per request line). */
export const REQUEST_LOG_FILE = "requests.log";

/** Which API a path belongs to; decides the error format. */
type Api = "admin" | "sharing" | "oauth" | "portaladmin" | "rest" | "control";

/** The portal's two APIs answer errors in the sharing API's form. */
function portalApi(api: Api): boolean {
  return api === "sharing" || api === "oauth" || api === "portaladmin";
}

interface Target {
  readonly api: Api;
  readonly segments: string[];
  readonly title: string;
  /** The path is under this API but is not valid percent-encoding. */
  readonly malformed?: boolean;
}

function splitPath(rest: string): string[] | null {
  try {
    return rest
      .split("/")
      .filter((s) => s !== "")
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

function targetOf(pathname: string): Target | null {
  const under = (prefix: string): string | null =>
    pathname === prefix || pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : null;
  const candidates: Array<[string, Api, string]> = [
    [ADMIN_PREFIX, "admin", "ArcGIS Administrator Directory"],
    [SHARING_PREFIX, "sharing", "ArcGIS Portal Directory"],
    [OAUTH_PAGES_PREFIX, "oauth", "ArcGIS Sign In"],
    [PORTALADMIN_PREFIX, "portaladmin", "Portal Administrator Directory"],
    [REST_PREFIX, "rest", "ArcGIS REST Services Directory"],
    [CONTROL_PREFIX, "control", "arcgis-admin-emulator control"],
  ];
  for (const [prefix, api, title] of candidates) {
    const rest = under(prefix);
    if (rest === null) continue;
    const segments = splitPath(rest);
    // Answered in the API's own error format, like any other bad request to it.
    return segments === null
      ? { api, segments: [], title, malformed: true }
      : { api, segments, title };
  }
  // The token service of ArcGIS Server lives outside the admin root; same operation.
  if (pathname === "/arcgis/tokens/generateToken") {
    return { api: "admin", segments: ["generateToken"], title: "ArcGIS Token Service" };
  }
  // The portal's token service also answers without `/rest`: Chef's server `federate` action
  // asks `{portal}/sharing/generateToken` (Esri/arcgis-cookbook at 6b80724,
  // cookbooks/arcgis-enterprise/providers/server.rb); same operation.
  if (pathname === `${PORTAL_ROOT_PATH}/sharing/generateToken`) {
    return { api: "sharing", segments: ["generateToken"], title: "ArcGIS Portal Directory" };
  }
  return null;
}

/** `sharing/rest/oauth2/token`, which answers JSON without `f`. */
function isOAuthTokenEndpoint(target: Target): boolean {
  return target.api === "sharing" && target.segments.join("/") === "oauth2/token";
}

/** The error format of an API: the sharing API's, the product's, or (control) ArcGIS Server's. */
function dialectOf(api: Api, product: Product): Dialect {
  return api === "admin" || api === "rest" ? product.dialect : "classic";
}

/** Builds the request listener of a running emulator. */
export class RequestHandler {
  private readonly logStream: WriteStream;
  private readonly inFlight = new Set<Promise<void>>();
  /** Sockets whose request the emulator is working on (an emulated delay may be running). */
  private readonly busy = new WeakSet<Socket>();

  constructor(private readonly rt: Runtime) {
    this.logStream = createWriteStream(path.join(rt.options.dataDir, REQUEST_LOG_FILE), {
      flags: "a",
    });
    // A failing log file must not take the emulator down.
    this.logStream.on("error", (error) =>
      rt.log(`cannot write ${REQUEST_LOG_FILE}: ${error.message}`),
    );
  }

  /** The node:http(s) `request` listener. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    const done = this.handle(req, res)
      .catch((error: unknown) => {
        this.rt.log(
          `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        if (!res.headersSent)
          send(res, 500, "text/plain; charset=utf-8", "Internal error in the emulator.\n");
        else res.destroy();
      })
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  };

  /**
   * Closes connections without traffic for `idleMs` (a client that connects and sends
   * nothing, or stops halfway), except while the emulator itself is working on the
   * connection's request: a synchronous createNewSite may take longer than that.
   */
  applyIdleTimeout(server: Server, idleMs: number): void {
    server.setTimeout(idleMs, (socket: Socket) => {
      if (this.busy.has(socket)) socket.setTimeout(idleMs);
      else socket.destroy();
    });
  }

  /** Resolves once no request is being handled. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Waits for requests being handled, then closes the request log. */
  async close(): Promise<void> {
    await this.settled();
    await new Promise<void>((resolve) => this.logStream.end(resolve));
  }

  private record(req: IncomingMessage): void {
    // The line as kept in memory, a long URL cut (core/request-log.ts), is also what goes to
    // requests.log, so that a client sending huge URLs cannot fill the disk either.
    const entry = this.rt.requests.push(req.method ?? "", req.url ?? "", new Date().toISOString());
    this.logStream.write(`${JSON.stringify(entry)}\n`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? "/";
    let url: URL;
    try {
      // Appended, not resolved: "//x/y" must stay a path, not become a host.
      if (!rawUrl.startsWith("/")) throw new Error("not a path");
      url = new URL(`http://emulator.invalid${rawUrl}`);
    } catch {
      send(res, 400, "text/plain; charset=utf-8", "Bad request URL.\n");
      return;
    }
    const pathname = withoutTrailingSlash(url.pathname) || "/";
    const found = targetOf(pathname);
    const target =
      found?.api === "admin" && found.segments[0] !== "generateToken"
        ? { ...found, title: this.rt.product.adminTitle }
        : found;
    if (target?.api !== "control") this.record(req);
    // One line per request once it is answered, with its result: the HTTP status and, since
    // ArcGIS answers errors with HTTP 200, the error code of the document. Logged without the
    // query string, which may carry a token.
    const started = Date.now();
    let result = "";
    res.once("close", () => {
      const outcome = res.writableFinished ? `HTTP ${res.statusCode}` : "aborted";
      this.rt.log(
        `${req.method ?? ""} ${loggedUrl(pathname)} -> ${outcome}${result} (${Date.now() - started} ms)`,
      );
    });
    if (target === null) {
      result = ", error code 404";
      send(
        res,
        404,
        "application/json; charset=utf-8",
        JSON.stringify({ error: { code: 404, message: "Not found." } }),
      );
      return;
    }

    let format: Format = "json";
    try {
      if (target.malformed === true) {
        format = formatOf(new Map(url.searchParams)) ?? "json";
        throw portalApi(target.api)
          ? new SharingError(400, "The request path is not valid percent-encoding.")
          : new AdminError(400, ["The request path is not valid percent-encoding."]);
      }
      const params = new Map(url.searchParams);
      const body = await readBody(req);
      for (const [key, value] of await decodeForm(body, req.headers["content-type"]))
        params.set(key, value);
      const requested = formatOf(params);
      if (target.api === "control") format = "pjson";
      else if (requested === null) {
        throw portalApi(target.api)
          ? new SharingError(400, "Invalid format. Use f=json, f=pjson or f=html.")
          : new AdminError(400, ["Invalid format. Use f=json, f=pjson or f=html."]);
      } else if (requested === "html" && isOAuthTokenEndpoint(target)) {
        // An OAuth2 token endpoint answers JSON (RFC 6749, 5.1): the ArcGIS API for Python
        // 2.4.4's code exchange (requests-oauthlib) sends no `f` and parses the body as JSON.
        format = "json";
      } else format = requested;
      const apiRequest: ApiRequest = {
        method: (req.method ?? "GET").toUpperCase(),
        segments: target.segments,
        params,
        headers: req.headers,
        remoteAddress: req.socket.remoteAddress ?? "",
        files: await decodeFiles(body, req.headers["content-type"]),
      };
      this.busy.add(req.socket);
      let reply: Reply;
      try {
        reply = await this.dispatch(target, apiRequest);
      } finally {
        this.busy.delete(req.socket);
      }
      if (reply.kind === "json") result = resultOf(reply.body);
      await this.reply(res, reply, format, target.title);
    } catch (error) {
      const body = this.errorAnswer(target.api, error);
      result = resultOf(body);
      // A download that broke off midway cannot switch to an error document.
      if (res.headersSent) res.destroy();
      else sendDocument(res, body, format, target.title);
    }
  }

  /** Turns any error into the called API's error document; internal details stay in the log. */
  private errorAnswer(api: Api, error: unknown): unknown {
    const dialect = dialectOf(api, this.rt.product);
    const body = (code: number, message: string): unknown =>
      portalApi(api)
        ? new SharingError(code, message).toBody()
        : new AdminError(code, [message]).toBody(dialect);
    if (error instanceof AdminError) {
      return portalApi(api)
        ? new SharingError(error.code, error.message).toBody()
        : error.toBody(dialect);
    }
    if (error instanceof SharingError) {
      return portalApi(api) ? error.toBody() : body(error.code, error.message);
    }
    if (error instanceof BodyTooLargeError) return body(413, error.message);
    if (error instanceof MalformedBodyError) return body(400, error.message);
    if (error instanceof Error && error.name === "AbortError") {
      return body(503, "The emulator is shutting down; the operation did not complete.");
    }
    this.rt.log(
      `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return body(500, "Internal error in the emulator; see its log for details.");
  }

  private async dispatch(target: Target, req: ApiRequest): Promise<Reply> {
    // A portal in no site serves nothing but the operation that creates its site and its health
    // check (portal/site.ts).
    if (
      portalApi(target.api) &&
      !portalSiteReady(this.rt) &&
      !(
        target.api === "portaladmin" &&
        ["createNewSite", "healthCheck"].includes(target.segments.join("/"))
      )
    ) {
      return notInitialized();
    }
    // ArcGIS Server's web server restarting after a security change (admin/security.ts).
    if ((target.api === "admin" || target.api === "rest") && Date.now() < this.rt.restartingUntil) {
      return {
        kind: "json",
        body: new AdminError(503, [
          "The web server is restarting after a change of the security configuration. Try again shortly.",
        ]).toBody(this.rt.product.dialect),
        status: 503,
      };
    }
    switch (target.api) {
      case "admin":
        return handleAdmin(this.rt, req);
      case "sharing":
        return handleSharing(this.rt, req);
      case "oauth":
        return handleSignInPages(this.rt, req);
      case "portaladmin":
        return handlePortalAdmin(this.rt, req);
      case "rest":
        return this.rest(req);
      case "control":
        return this.control(req);
    }
  }

  /**
   * `/arcgis/rest/info` (no token, except on Video Server once a site exists: its docs
   * require one) and the product's health check.
   */
  private rest(req: ApiRequest): Reply {
    const { rt } = this;
    const op = req.segments.join("/");
    const site = rt.store.current.site;
    if (op === "info") {
      // No token can be had while an upgrade is due, so none is asked for then (an assumption).
      if (rt.product.infoTokenRequired && site?.status === "ready" && site.upgrade === null) {
        authenticate(rt, req, site);
      }
      const tokenService =
        rt.product.dialect === "classic"
          ? "/arcgis/tokens/generateToken"
          : `${ADMIN_PREFIX}/generateToken`;
      return {
        kind: "json",
        body: {
          ...versionInfo(rt),
          authInfo: {
            isTokenBasedSecurity: true,
            tokenServicesUrl: `${rt.publicOrigin}${tokenService}`,
          },
        },
      };
    }
    const rule = rt.product.healthCheck;
    if (rule.paths.includes(op) && atLeast(rt.options.serverVersion, rule.since)) {
      // A site waiting for (or running) its upgrade serves nothing yet: unhealthy (an assumption).
      const ready = site?.status === "ready" && site.upgrade === null;
      // Video Server's docs require a token; before a site exists none can be had, so the
      // unhealthy answer needs none (an assumption, docs/emulator.md).
      if (ready && rule.tokenRequired) authenticate(rt, req, site);
      const success = rule.successAsString ? String(ready) : ready;
      return ready
        ? { kind: "json", body: { success } }
        : { kind: "json", body: { success }, status: rule.unhealthyStatus };
    }
    throw notFoundError(req.segments.at(-1) ?? "");
  }

  /** The emulator's own endpoints, for CI assertions and fault injection. */
  private async control(req: ApiRequest): Promise<Reply> {
    const op = req.segments.join("/");
    const post = (): void => {
      if (req.method !== "POST")
        throw new AdminError(405, [`'${op}' must be invoked with HTTP POST.`]);
    };
    switch (op) {
      case "":
        return {
          kind: "json",
          body: {
            endpoints: [
              "GET stats",
              "GET requests",
              "POST expire-tokens",
              "POST fail-next-create (message)",
            ].map((e) => e.replace(/^(\S+) /, `$1 ${CONTROL_PREFIX}/`)),
          },
        };
      case "stats":
        return { kind: "json", body: { ...this.rt.stats } };
      case "requests":
        return { kind: "json", body: this.rt.requests.list() };
      case "expire-tokens":
        post();
        await expireTokens(this.rt);
        return { kind: "json", body: { success: true } };
      case "fail-next-create": {
        post();
        const message = req.params.get("message")?.trim() ?? "";
        if (message === "") throw new AdminError(400, ["The parameter 'message' is required."]);
        this.rt.failNextCreate = message;
        return { kind: "json", body: { success: true } };
      }
      default:
        throw new AdminError(404, [`Could not find resource or operation '${op}' on the system.`]);
    }
  }

  private async reply(
    res: ServerResponse,
    reply: Reply,
    format: Format,
    title: string,
  ): Promise<void> {
    if (reply.kind === "json") {
      sendDocument(res, reply.body, format, title, reply.status);
      return;
    }
    if (reply.kind === "page") {
      send(res, 200, "text/html; charset=utf-8", reply.html);
      return;
    }
    if (reply.kind === "redirect") {
      res.writeHead(302, {
        location: reply.location,
        "content-length": 0,
        "cache-control": "no-store",
      });
      res.end();
      return;
    }
    res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": reply.size,
      "content-disposition": `attachment; filename="${reply.name}"`,
      "cache-control": "no-store",
    });
    await pipeline(createReadStream(reply.file), res);
  }
}

/**
 * The result of an answer for the log: `, error code N` for an error document of either format
 * (ArcGIS answers errors with HTTP 200), nothing otherwise.
 */
export function resultOf(body: unknown): string {
  if (body === null || typeof body !== "object") return "";
  const document = body as { status?: unknown; code?: unknown; error?: { code?: unknown } };
  if (document.status === "error" && typeof document.code === "number") {
    return `, error code ${document.code}`;
  }
  if (typeof document.error === "object" && document.error !== null) {
    return `, error code ${String(document.error.code)}`;
  }
  return "";
}

/** Makes every token issued so far expired (498), on both APIs. */
export async function expireTokens(rt: Runtime): Promise<void> {
  await rt.store.update((draft) => {
    draft.tokenEpoch++;
  });
  rt.log("all tokens expired");
}

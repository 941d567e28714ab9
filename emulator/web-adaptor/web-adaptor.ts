/**
 * A Web Adaptor, a product of its own: a listener of its own at `{scheme}://{host}:{port}/{context}`
 * in front of this emulator's server or portal. Its configuration page `{context}/webadaptor`
 * registers it with the server's or the portal's `system/webadaptors` (as Esri's configure tool
 * does); from then on it forwards every request under its URL to what it fronts, and it refuses
 * them while no registration names it (before configuration, and after an unregister).
 *
 * Evidence:
 * - The configuration page and what calls it: Esri/arcgis-cookbook at
 *   6b807249eec03146b913a2ad8661425472d53780, `cookbooks/arcgis-enterprise/providers/webadaptor.rb`
 *   `:configure_with_server` (line 197: waits for `{wa}/webadaptor` and the server's
 *   `scheme://host:port`, then runs the configure tool with `-m <mode> -w {wa}/webadaptor -g
 *   {server} -u -p -a <admin access>`) and `:configure_with_portal` (line 229: `-m portal`, `-r
 *   false` unless reindexing; then waits for `{wa}/portaladmin/healthCheck`); Esri/arcgis-gitops at
 *   1254036ab438965776b0792e3876e098a183d9ff, `ansible_collections/arcgis/webadaptor/playbooks/configure.yml`
 *   (the same flags); Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb,
 *   `Modules/ArcGIS/DSCResources/ArcGIS_WebAdaptor/ArcGIS_WebAdaptor.psm1`
 *   (`Start-ConfigureWebAdaptorCMDLineTool`: `-w https://{host}/{context}/webadaptor`, `-g
 *   https://{server}:6443` or `:7443`; `Wait-ForUrl` on `{wa}/webadaptor` before it, which must
 *   answer a GET with a success status).
 * - What it forwards: DSC's `Test-TargetResource` (a configured server Web Adaptor with admin
 *   access answers `GET {wa}/admin?f=json`; without it that request fails) and `Test-URL` on
 *   `{wa}/portaladmin`; Chef's `Utils.url_available?` (`libraries/utils.rb`: a status below 400
 *   is available) on `{wa}/portaladmin/healthCheck`.
 * - Registration is the server's or portal's list: https://developers.arcgis.com/rest/enterprise-administration/server/webadaptors.htm
 *   ("The server will trust all these Web Adaptors"), `…/server/registerWebAdaptor` (parameters
 *   `webAdaptorURL`, `isAdminEnabled`, `description`, `httpPort`, `httpsPort`), the ArcGIS API
 *   for Python 2.4.4 `arcgis/gis/server/admin/_system.py` (`unregister_webadaptor`: "The Web
 *   Adaptor can no longer submit requests to the server").
 * Assumptions (docs/emulator.md, "Web Adaptor"): the configure tool's wire form (the page's form
 * fields named after the tool's flags), its answers, the refusals' statuses and texts, and that
 * the page registers through the emulator's own handlers rather than over the network.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { handleAdmin } from "../admin/api";
import {
  AdminError,
  decodeForm,
  readBody,
  send,
  SharingError,
  type ApiRequest,
  type Reply,
} from "../core/http";
import { machineAt } from "../core/registry";
import type { Runtime } from "../core/runtime";
import type { WebAdaptorRecord } from "../core/state";
import { withoutTrailingSlash } from "../core/url";
import { handlePortalAdmin } from "../portal/portaladmin";
import { handleSharing } from "../portal/sharing-api";
import { portalSiteReady } from "../portal/site";

/** The configuration page's segment under the context (`-w {wa}/webadaptor`). */
export const CONFIG_PAGE = "webadaptor";

/** What a Web Adaptor fronts, as the configure tool's `-m` names it. */
export type WebAdaptorMode = "server" | "portal";

/** Where the emulator serves what each mode fronts: its server's and its portal's root. */
const BACKEND_ROOT: Readonly<Record<WebAdaptorMode, string>> = {
  server: "/arcgis",
  portal: "/portal",
};

/** The answer of a configuration that failed: what the configure tool would print. */
class ConfigureError extends Error {}

function jsonAnswer(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(body));
}

/** The message of an error a handler threw (either API's form), for the configure answer. */
function messageOf(error: unknown): string {
  if (error instanceof SharingError) return [error.message, ...error.details].join(" ");
  if (error instanceof AdminError || error instanceof ConfigureError) return error.message;
  throw error;
}

/** An in-process request to one of the emulator's APIs, as the configure tool's would arrive. */
function call(segments: string[], params: Record<string, string>): ApiRequest {
  return {
    method: "POST",
    segments,
    params: new Map(Object.entries({ ...params, f: "json" })),
    headers: {},
    remoteAddress: "127.0.0.1",
  };
}

function bodyOf(reply: Reply): Record<string, unknown> {
  return reply.kind === "json" ? (reply.body as Record<string, unknown>) : {};
}

/** The configuration page: what a GET shows (DSC and Chef wait for it to answer). */
function configPage(url: string): string {
  return [
    "<!DOCTYPE html>",
    "<html><head><title>ArcGIS Web Adaptor</title></head><body>",
    `<h1>ArcGIS Web Adaptor: ${url}</h1>`,
    `<form method="post" action="${url}/${CONFIG_PAGE}">`,
    '<select name="mode"><option>server</option><option>portal</option></select>',
    '<input name="serverUrl"> <input name="username"> <input name="password" type="password">',
    '<input name="adminAccess" value="true"> <button type="submit">Configure</button>',
    "</form></body></html>",
    "",
  ].join("\n");
}

/** A Web Adaptor in front of one emulator (the one started with it). */
export class WebAdaptor {
  /** `{scheme}://{host}:{port}/{context}`; set once listening. */
  url = "";
  private port = 0;

  constructor(
    private readonly rt: Runtime,
    readonly context: string,
    /** The emulator's own request listener, which serves what the Web Adaptor forwards. */
    private readonly forwardTo: (req: IncomingMessage, res: ServerResponse) => void,
  ) {}

  /** Records where it listens (its URL is what it registers). */
  listening(origin: string, port: number): void {
    this.url = `${origin}/${this.context}`;
    this.port = port;
  }

  /** The node:http(s) `request` listener of the Web Adaptor's own server. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    this.handle(req, res).catch((error: unknown) => {
      this.rt.log(`web adaptor: internal error: ${String(error)}`);
      if (!res.headersSent)
        jsonAnswer(res, 500, { status: "error", messages: ["Internal error."] });
      else res.destroy();
    });
  };

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? "/";
    const query = raw.includes("?") ? raw.slice(raw.indexOf("?")) : "";
    const pathname = raw.slice(0, raw.length - query.length);
    const prefix = `/${this.context}`;
    if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) {
      jsonAnswer(res, 404, { error: { code: 404, message: "Not found." } });
      return;
    }
    const rest = pathname.slice(prefix.length);
    if (withoutTrailingSlash(rest) === `/${CONFIG_PAGE}`) {
      await this.configurationPage(req, res);
      return;
    }
    const registration = this.registration();
    if (registration === null) {
      // Assumption: the status (Chef and DSC only need one of 400 or above) and the text.
      jsonAnswer(res, 503, {
        error: {
          code: 503,
          message: `This Web Adaptor is not registered with a server or portal. Configure it at ${this.url}/${CONFIG_PAGE}.`,
        },
      });
      return;
    }
    const first = rest.split("/")[1]?.toLowerCase();
    if (registration.mode === "server" && !registration.entry.isAdminEnabled && first === "admin") {
      // DSC's Test-TargetResource: without admin access, `{wa}/admin` fails.
      jsonAnswer(res, 403, {
        error: {
          code: 403,
          message: "Administrative access is disabled through this Web Adaptor.",
        },
      });
      return;
    }
    req.url = `${BACKEND_ROOT[registration.mode]}${rest}${query}`;
    this.forwardTo(req, res);
  }

  /** Whether a registered URL is this Web Adaptor's: its port and its context. */
  private names(entry: WebAdaptorRecord): boolean {
    let url: URL;
    try {
      url = new URL(entry.webAdaptorURL);
    } catch {
      return false;
    }
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    return port === this.port && withoutTrailingSlash(url.pathname) === `/${this.context}`;
  }

  /**
   * Its registration, read from the lists themselves (one source of truth: an unregister there
   * ends the forwarding at once): the server's first, then the portal's.
   */
  private registration(): { mode: WebAdaptorMode; entry: WebAdaptorRecord } | null {
    const state = this.rt.store.current;
    const site = state.site?.status === "ready" ? state.site : null;
    const server = site?.webAdaptors.find((w) => this.names(w));
    if (server !== undefined) return { mode: "server", entry: server };
    const portal = state.portal.webAdaptors.find((w) => this.names(w));
    return portal === undefined ? null : { mode: "portal", entry: portal };
  }

  private async configurationPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST") {
      send(res, 200, "text/html; charset=utf-8", configPage(this.url));
      return;
    }
    const params = await decodeForm(await readBody(req), req.headers["content-type"]);
    try {
      await this.configure(params);
    } catch (error) {
      jsonAnswer(res, 400, { status: "error", messages: [messageOf(error)] });
      return;
    }
    jsonAnswer(res, 200, { status: "success" });
  }

  /** Registers this Web Adaptor as the configure tool does: a token, then `register`. */
  private async configure(params: ReadonlyMap<string, string>): Promise<void> {
    const field = (name: string): string => {
      const value = params.get(name)?.trim() ?? "";
      if (value === "") throw new ConfigureError(`The parameter '${name}' is required.`);
      return value;
    };
    const mode = field("mode");
    if (mode !== "server" && mode !== "portal") {
      throw new ConfigureError(`The parameter 'mode' must be server or portal, not '${mode}'.`);
    }
    const serverUrl = field("serverUrl");
    const username = field("username");
    const password = field("password");
    const adminAccess = (params.get("adminAccess")?.trim().toLowerCase() ?? "true") !== "false";
    if (machineAt(serverUrl)?.rt !== this.rt) {
      throw new ConfigureError(
        `Could not reach '${serverUrl}': this Web Adaptor fronts only the server and portal of its own emulator (${this.rt.publicOrigin}).`,
      );
    }
    const registration = {
      webAdaptorURL: this.url,
      machineName: this.rt.options.machineName,
      machineIP: "127.0.0.1",
      httpPort: "-1",
      httpsPort: String(this.port),
      isAdminEnabled: String(mode === "server" && adminAccess),
      description: "",
    };
    const credentials = { username, password };
    if (mode === "server") {
      const token = bodyOf(await handleAdmin(this.rt, call(["generateToken"], credentials))).token;
      await handleAdmin(
        this.rt,
        call(["system", "webadaptors", "register"], { ...registration, token: String(token) }),
      );
    } else {
      if (!portalSiteReady(this.rt)) {
        throw new ConfigureError("The portal site has not been initialized.");
      }
      const token = bodyOf(
        await handleSharing(this.rt, call(["generateToken"], credentials)),
      ).token;
      await handlePortalAdmin(
        this.rt,
        call(["system", "webadaptors", "register"], { ...registration, token: String(token) }),
      );
    }
    this.rt.log(`web adaptor ${this.url} registered with the ${mode}`);
  }
}

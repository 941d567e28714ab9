/**
 * What a `Site` asks its server around the lifecycle's requests: the transport and session, the
 * product and version checks before createNewSite, whether "no site" is conclusive, and whether
 * new credentials work.
 */
import { alreadyThereMessage } from "../common/messages/one-shot";
import {
  type AdminSession,
  DEFAULT_REFERER,
  generateToken,
  hasServerCode,
  healthCheck,
  isArcGISRequestError,
  isAuthError,
  MISSION_WORKSPACE_VERSION,
  serverInfo,
  serverProduct,
  type ServerInfo,
  type ServerType,
  type SiteStatus,
  TokenCache,
  type TransportOptions,
} from "../../client";
import { messageOf } from "../common/messages/failures";
import { logWarn } from "../common/messages/log";
import { adminSessionFor, adminTransport } from "../common/connection/admin";
import { withoutTrailingSlash } from "../../url";
import type { SiteInputs } from "./generated";

/** The transport options of the site's server: its TLS settings, and `extra`. */
export function transportOf(inputs: SiteInputs, extra: Omit<TransportOptions, "tls"> = {}) {
  return adminTransport(inputs, extra);
}

/**
 * The server one step of a Site works on (create, read, update or delete), worked out once when
 * the step starts and handed to every helper below it: the transport (TLS), one administrator
 * session (so one token serves the whole step), and the version once it has been read. No helper
 * derives them again from the inputs.
 */
export interface SiteServer {
  readonly inputs: SiteInputs;
  readonly transport: TransportOptions;
  readonly session: AdminSession;
  /** rest/info as read before createNewSite (requireVersion); undefined until then. */
  info?: ServerInfo | undefined;
  /**
   * The session's token cache when the step has one of its own (a create: see siteServer);
   * the wait for a new site keeps its token there, so that the reads after it reuse it.
   */
  readonly tokenCache?: TokenCache | undefined;
}

/**
 * The server of a step, from its inputs: the only place a Site builds a session. A create
 * (`ownTokens`) keeps its tokens in a cache of its own: a token cached in the process before the
 * site was created (of a site deleted since, at the same URL) must not stand for the new one,
 * and the wait for the new site and the reads after it then share one token.
 */
export function siteServer(inputs: SiteInputs, options: { ownTokens?: boolean } = {}): SiteServer {
  const transport = transportOf(inputs);
  const tokenCache = options.ownTokens === true ? new TokenCache() : undefined;
  const session = adminSessionFor(inputs, { transport, tokenCache });
  return { inputs, transport, session, tokenCache };
}

/** What to do when the machine is in a site already and adoptExisting is not set. */
export function alreadyInSiteMessage(adminUrl: string): string {
  return alreadyThereMessage({
    found: `The machine at ${adminUrl} already participates in a site`,
    operation: "createNewSite",
    thing: "site",
    credentials: "the site's administrator credentials",
  });
}

/** The server's "token required" answer to createNewSite: the machine is in a site already. */
export function isAlreadyInSite(error: unknown): boolean {
  return hasServerCode(error, 499) || hasServerCode(error, 498);
}

/** The error format each dialect answers in: `status` (ArcGIS Server) or `error` (the others). */
function expectedErrorFormat(serverType: ServerType): "status" | "error" {
  return serverProduct(serverType).dialect === "classic" ? "status" : "error";
}

/**
 * Reads the version (kept in `server.info`) from rest/info without a token, after the status
 * check and on its connection, and refuses an operation the server is too old for.
 */
export async function requireVersion(
  server: SiteServer,
  operation: "createNewSite",
): Promise<void> {
  const { inputs } = server;
  let info: ServerInfo;
  try {
    info = await serverInfo(
      inputs.adminUrl,
      transportOf(inputs, { timeouts: { headersMs: 30_000 } }),
    );
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code === "TLS") throw error;
    logWarn(
      `Could not read the version of ${inputs.adminUrl} from rest/info (${error.message}); ` +
        `going on without checking that it has ${operation}.`,
    );
    return;
  }
  const product = serverProduct(inputs.serverType);
  const version = info.fullVersion ?? String(info.currentVersion);
  if (info.currentVersion < product.createNewSiteSince) {
    throw new Error(
      `The ${product.label} at ${inputs.adminUrl} is version ${version}; ${operation} exists ` +
        `from ${product.createNewSiteSince}. Nothing was sent. Upgrade the server, or check ` +
        "serverType.",
    );
  }
  const workspace = (inputs.directories ?? []).findIndex((d) => d.directoryType === "WORKSPACE");
  if (
    inputs.serverType === "mission-server" &&
    workspace >= 0 &&
    info.currentVersion !== MISSION_WORKSPACE_VERSION
  ) {
    throw new Error(
      `directories[${workspace}]: Mission Server takes a WORKSPACE directory only on ` +
        `${MISSION_WORKSPACE_VERSION}; the server at ${inputs.adminUrl} is version ${version}. ` +
        "Nothing was sent. Remove the WORKSPACE directory.",
    );
  }
  server.info = info;
}

/**
 * Decides whether "no site" at the admin root is conclusive, so that state may be dropped or a
 * delete skipped. Esri's tools create a site on any answer but 499, but that answer alone is not
 * proof: a web adaptor that reaches no machine answers an error too. Conclusive is:
 * - Mission and Notebook Server: the health check's documented `success: false` ("the site has
 *   not been created");
 * - Mission, Notebook and Video Server: the admin root's error and a refused generateToken with
 *   the site's credentials (DSC's own "site exists" signal), both in these products' `error`
 *   format, which a web adaptor does not answer in.
 * ArcGIS Server has no such second signal (its format is the web adaptor's), so there it is
 * never conclusive. Returns true, or why not.
 */
export async function noSiteIsConclusive(
  server: SiteServer,
  status: Extract<SiteStatus, { state: "no-site" }>,
): Promise<true | string> {
  const { inputs, transport } = server;
  const product = serverProduct(inputs.serverType);
  if (status.errorFormat !== expectedErrorFormat(inputs.serverType)) {
    return `its admin root answers errors in another format than ${product.label}'s (${status.message})`;
  }
  if (product.dialect === "classic") {
    return (
      `its admin root answers "${status.message}", which a web adaptor or proxy that reaches no ` +
      "ArcGIS Server machine answers too"
    );
  }
  const health = await healthCheck(inputs.adminUrl, {
    ...transport,
    serverType: inputs.serverType,
  }).catch(() => undefined);
  if (health?.reportsNoSite === true) return true;
  try {
    await generateToken({
      ...transport,
      tokenUrl: `${withoutTrailingSlash(inputs.adminUrl)}/generateToken`,
      username: inputs.username,
      password: inputs.password,
      referer: DEFAULT_REFERER,
    });
    return "an administrator token can still be obtained with the site's credentials";
  } catch (error) {
    if (isAuthError(error) && error.httpStatus === 200 && error.errorFormat === "error")
      return true;
    return `generateToken did not answer conclusively (${messageOf(error)})`;
  }
}

/**
 * The site's status as its administrator token tells it, for a refresh: only a site issues one
 * (DSC's own "site exists" signal, read the same way by {@link noSiteIsConclusive}), so a token
 * makes the status request needless. One attempt, never a cached token (a site deleted since
 * would keep its token in the cache until it expires); the session keeps it for the reads after,
 * and the shared cache for the site's other resources. A server that does not answer (no
 * connection, TLS refused, no answer in time) is unreachable at once, as the status request would
 * find it; any other failure answers undefined, and the status request decides.
 */
export async function statusByToken(server: SiteServer): Promise<SiteStatus | undefined> {
  try {
    await server.session.freshToken();
    return { state: "in-site" };
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    if (["NETWORK", "TLS", "TIMEOUT"].includes(error.code)) return { state: "unreachable", error };
    return undefined;
  }
}

/**
 * Before new credentials replace the old ones in state (destroy will use them), proves that they
 * obtain an administrator token. This resource never changes the password on the server.
 */
export async function proveCredentials(server: SiteServer): Promise<void> {
  const { inputs } = server;
  try {
    await server.session.freshToken();
  } catch (error) {
    const why = isAuthError(error)
      ? "the server does not accept them"
      : `they could not be checked (${messageOf(error)})`;
    throw new Error(
      `The new credentials of ${inputs.username} for the site at ${inputs.adminUrl} were not ` +
        `recorded: ${why}. This resource does not change the password on the server: change it ` +
        "there first (in ArcGIS Server Administrator or Manager), then run `pulumi up` with the " +
        "new password. State still holds the previous credentials.",
      { cause: error },
    );
  }
}

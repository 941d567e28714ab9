import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { arcgisRequest } from "../request";
import { CARBON_STORE_CLASS_NAMES, serverProduct, type ServerType } from "../products";
import { withoutTrailingSlash } from "../../url";

/** Where the site configuration is kept, in the user's vocabulary (one for every product). */
export interface ConfigStoreConnection {
  /** FILESYSTEM, AZURE or AMAZON. */
  type: string;
  /** Location of the store, e.g. a path, or a cloud store's connection string. */
  connectionString: string;
  /** Path of a local repository on the machine (ArcGIS Server only). */
  localRepositoryPath?: string | undefined;
  /** Account of a cloud store (Mission, Notebook and Video Server: sent as `username`). */
  username?: string | undefined;
  /**
   * Credentials of a cloud store; a secret. ArcGIS Server takes it as `connectionSecret`; Mission,
   * Notebook and Video Server as `password` (DSC `ArcGIS_MissionServer` Invoke-CreateSite).
   */
  connectionSecret?: string | undefined;
}

/** One server directory, in the user's vocabulary. */
export interface DirectorySpec {
  /** Directory name. */
  name: string;
  /** Path on disk (`physicalPath` on ArcGIS Server, `path` on the other products). */
  physicalPath: string;
  /** Type (`directoryType` on ArcGIS Server, `type` on the other products). */
  directoryType: string;
  /** TIME_ELAPSED_SINCE_LAST_MODIFIED or NONE (ArcGIS Server only). */
  cleanupMode?: string | undefined;
  /** Maximum file age for the cleanup mode, unit undocumented (ArcGIS Server only). */
  maxFileAge?: number | undefined;
  /** Free text (ArcGIS Server only). */
  description?: string | undefined;
}

/** Log settings. */
export interface LogSettings {
  /** e.g. INFO. */
  logLevel?: string | undefined;
  /** Directory of the logs. */
  logDir?: string | undefined;
  /** Maximum number of error reports. */
  maxErrorReportsCount?: number | undefined;
  /** Maximum age of log files (unit undocumented). */
  maxLogFileAge?: number | undefined;
  /** Usage metering (Mission, Notebook and Video Server; DSC sends false). */
  usageMeteringEnabled?: boolean | undefined;
}

/** Parameters of {@link createNewSite}, in the user's vocabulary. */
export interface CreateNewSiteParams {
  /** The product; decides the wire form. Default `mission-server`. */
  serverType?: ServerType | undefined;
  /** Primary site administrator to create. */
  username: string;
  /** Its password; a secret. */
  password: string;
  /** Configuration store; default: in the installation directory. */
  configStoreConnection?: ConfigStoreConnection | undefined;
  /** Server directories; default: created locally. */
  directories?: DirectorySpec[] | undefined;
  /** Log settings (`settings` on ArcGIS Server, `logsSettings` on the other products). */
  logSettings?: LogSettings | undefined;
  /** Ask the server to work asynchronously (`runAsync` / `async`); default false. */
  runAsync?: boolean | undefined;
}

/**
 * An input that the product's createNewSite has no place for.
 *
 * @internal
 */
export interface UnsupportedField {
  /** Path in the user's vocabulary, e.g. `directories[0].cleanupMode`. */
  path: string;
  /** Why, naming the product. */
  reason: string;
}

/**
 * Lists the inputs that a product's createNewSite request cannot carry, so that they are refused
 * instead of silently dropped: the directory fields `cleanupMode`, `maxFileAge`, `description`
 * and the store's `localRepositoryPath` exist only in ArcGIS Server's form; the store's
 * `username` and the log setting `usageMeteringEnabled` only in the form of the other products.
 *
 * @param serverType - the product.
 * @param params - what the user asked for.
 * @returns one entry per refused field; empty when everything fits.
 * @example
 * ```ts
 * unsupportedFields("mission-server", { directories: [{ ..., cleanupMode: "NONE" }] })
 * // [{ path: "directories[0].cleanupMode", reason: "Mission Server's createNewSite has no cleanupMode ..." }]
 * ```
 * Maps to: `POST {admin_root}/createNewSite` (what its form can carry).
 *
 * @internal
 */
export function unsupportedFields(
  serverType: ServerType,
  params: Pick<CreateNewSiteParams, "configStoreConnection" | "directories" | "logSettings">,
): UnsupportedField[] {
  const product = serverProduct(serverType);
  const others =
    product.dialect === "classic"
      ? "only Mission, Notebook and Video Server take it"
      : "only ArcGIS Server takes it";
  const refused: UnsupportedField[] = [];
  const refuse = (path: string, field: string): void => {
    refused.push({
      path,
      reason: `${product.label}'s createNewSite has no ${field} (${others}); remove it`,
    });
  };
  const store = params.configStoreConnection;
  if (product.dialect === "carbon") {
    if (store?.localRepositoryPath !== undefined) {
      refuse("configStoreConnection.localRepositoryPath", "localRepositoryPath");
    }
    (params.directories ?? []).forEach((d, i) => {
      for (const field of ["cleanupMode", "maxFileAge", "description"] as const) {
        if (d[field] !== undefined) refuse(`directories[${i}].${field}`, field);
      }
    });
  } else {
    if (store?.username !== undefined) refuse("configStoreConnection.username", "store username");
    if (params.logSettings?.usageMeteringEnabled !== undefined) {
      refuse("logSettings.usageMeteringEnabled", "usageMeteringEnabled");
    }
  }
  return refused;
}

/**
 * Builds the form parameters of createNewSite in the product's dialect, exactly as Esri's tools
 * send them: ArcGIS Server as its documentation and Ansible/Chef `arcgis-enterprise` do
 * (`configStoreConnection` with `type`, `{"directories":[...]}`, `settings`, `runAsync`); Mission,
 * Notebook and Video Server as Chef and DSC do (`configStoreConnection` with
 * `configPersistenceType` and `className`, a bare array of `{name, path, type}`, `logsSettings`,
 * `async`). The password and store secret are among the values: never log the result.
 *
 * @param params - the request in the user's vocabulary.
 * @returns the form parameters (objects are JSON-encoded when sent).
 * @example
 * ```ts
 * createNewSiteForm({ serverType: "mission-server", username, password, runAsync: false }).async // false
 * ```
 * Maps to: `POST {admin_root}/createNewSite`.
 *
 * @internal
 */
export function createNewSiteForm(params: CreateNewSiteParams): Record<string, unknown> {
  const serverType = params.serverType ?? "mission-server";
  const refused = unsupportedFields(serverType, params);
  if (refused.length > 0) {
    throw new TypeError(refused.map((r) => `${r.path}: ${r.reason}`).join("; "));
  }
  const runAsync = params.runAsync ?? false;
  const store = params.configStoreConnection;
  const log = params.logSettings;
  if (serverProduct(serverType).dialect === "classic") {
    return {
      username: params.username,
      password: params.password,
      configStoreConnection: store && {
        type: store.type,
        connectionString: store.connectionString,
        localRepositoryPath: store.localRepositoryPath,
        connectionSecret: store.connectionSecret,
      },
      directories: params.directories && {
        directories: params.directories.map((d) => ({
          name: d.name,
          physicalPath: d.physicalPath,
          directoryType: d.directoryType,
          cleanupMode: d.cleanupMode,
          maxFileAge: d.maxFileAge,
          description: d.description,
        })),
      },
      settings: log && {
        logLevel: log.logLevel,
        logDir: log.logDir,
        maxErrorReportsCount: log.maxErrorReportsCount,
        maxLogFileAge: log.maxLogFileAge,
      },
      runAsync,
    };
  }
  return {
    username: params.username,
    password: params.password,
    configStoreConnection: store && {
      configPersistenceType: store.type,
      connectionString: store.connectionString,
      username: store.username,
      password: store.connectionSecret,
      className: CARBON_STORE_CLASS_NAMES[store.type],
    },
    directories: params.directories?.map((d) => ({
      name: d.name,
      path: d.physicalPath,
      type: d.directoryType,
    })),
    logsSettings: log && {
      logLevel: log.logLevel,
      logDir: log.logDir,
      maxErrorReportsCount: log.maxErrorReportsCount,
      maxLogFileAge: log.maxLogFileAge,
      usageMeteringEnabled: log.usageMeteringEnabled,
    },
    async: runAsync,
  };
}

/**
 * Creates a site on a machine that is in no site, in the product's dialect (the form Esri's tools
 * send for that product). No token: on such a machine the call itself defines the primary
 * administrator. Never retried: a lost answer (e.g. a load balancer's 502 while creation goes on)
 * must be followed by watching the machine, not by a second createNewSite.
 *
 * @param adminUrl - administrative root, e.g. `https://host:20443/arcgis/admin`.
 * @param params - product, administrator, config store, directories, log settings, runAsync.
 * @param transport - TLS options, timeouts (a synchronous creation holds the request until the
 *   site exists: give headersMs the creation's whole bound, as Chef (3600 s) and DSC (1000 s) do),
 *   signal.
 * @returns the server's answer, e.g. `{ status: "success" }`.
 * @example
 * ```ts
 * await createNewSite(adminUrl, { serverType: "mission-server", username: "siteadmin", password }, { timeouts: { headersMs: 3_600_000 } });
 * ```
 * Maps to: `POST {admin_root}/createNewSite`.
 *
 * REST Documentation: https://developers.arcgis.com/rest/enterprise-administration/server/createsite
 */
export async function createNewSite(
  adminUrl: string,
  params: CreateNewSiteParams,
  transport: TransportOptions = {},
): Promise<Record<string, unknown>> {
  const secret = params.configStoreConnection?.connectionSecret;
  return arcgisRequest({
    ...transport,
    url: `${withoutTrailingSlash(adminUrl)}/createNewSite`,
    operation: "createNewSite",
    params: createNewSiteForm(params),
    referer: DEFAULT_REFERER,
    secrets: [params.password, ...(secret ? [secret] : [])],
    retry: false,
  });
}

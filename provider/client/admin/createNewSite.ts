import { DEFAULT_REFERER } from "../auth";
import type { TransportOptions } from "../dispatcher";
import { arcgisRequest } from "../request";

/** Where the site configuration is kept (parameter `configStoreConnection`). */
export interface ConfigStoreConnection {
  /** FILESYSTEM, AZURE or AMAZON. */
  type: string;
  /** Location of the store, e.g. a path. */
  connectionString: string;
  /** Path of a local repository on the machine. */
  localRepositoryPath?: string | undefined;
  /** Credentials of a cloud store; a secret. */
  connectionSecret?: string | undefined;
}

/** One server directory (an element of parameter `directories`). */
export interface DirectorySpec {
  /** Directory name. */
  name: string;
  /** Path on disk. */
  physicalPath: string;
  /** JOBS, OUTPUT, SYSTEM (or CACHE on ArcGIS Server). */
  directoryType: string;
  /** TIME_ELAPSED_SINCE_LAST_MODIFIED or NONE. */
  cleanupMode?: string | undefined;
  /** Maximum file age for the cleanup mode (unit undocumented). */
  maxFileAge?: number | undefined;
  /** Free text. */
  description?: string | undefined;
}

/** Log settings (parameter `settings`). */
export interface LogSettings {
  /** e.g. INFO. */
  logLevel?: string | undefined;
  /** Directory of the logs. */
  logDir?: string | undefined;
  /** Maximum number of error reports. */
  maxErrorReportsCount?: number | undefined;
  /** Maximum age of log files (unit undocumented). */
  maxLogFileAge?: number | undefined;
}

/** Parameters of {@link createNewSite}. */
export interface CreateNewSiteParams {
  /** Primary site administrator to create. */
  username: string;
  /** Its password; a secret. */
  password: string;
  /** Configuration store; default: in the installation directory. */
  configStoreConnection?: ConfigStoreConnection | undefined;
  /** Server directories, sent as `{"directories":[...]}`; default: created locally. */
  directories?: DirectorySpec[] | undefined;
  /** Log settings, sent as parameter `settings`. */
  logSettings?: LogSettings | undefined;
  /** Ask the server to work asynchronously; its answer format is undocumented, so poll after. */
  runAsync?: boolean | undefined;
}

/**
 * Creates a site on a machine that is in no site. No token: on such a machine the call itself
 * defines the primary administrator. Never retried: a lost answer (e.g. a load balancer's 502
 * while creation goes on) must be followed by {@link siteStatus}, not by a second createNewSite.
 *
 * @param adminUrl - administrative root, e.g. `https://host:20443/arcgis/admin`.
 * @param params - administrator, config store, directories, log settings, runAsync.
 * @param transport - TLS options, timeouts (give headersMs generously: creation takes minutes), signal.
 * @returns the server's answer, e.g. `{ status: "success" }`.
 * @example
 * ```ts
 * await createNewSite(adminUrl, { username: "siteadmin", password, directories: [...] }, { timeouts: { headersMs: 3_600_000 } });
 * ```
 * Maps to: `POST {admin_root}/createNewSite`.
 */
export async function createNewSite(
  adminUrl: string,
  params: CreateNewSiteParams,
  transport: TransportOptions = {},
): Promise<Record<string, unknown>> {
  const secret = params.configStoreConnection?.connectionSecret;
  return arcgisRequest({
    ...transport,
    url: `${adminUrl.replace(/\/+$/, "")}/createNewSite`,
    operation: "createNewSite",
    params: {
      username: params.username,
      password: params.password,
      configStoreConnection: params.configStoreConnection,
      directories: params.directories && { directories: params.directories },
      settings: params.logSettings,
      runAsync: params.runAsync,
    },
    referer: DEFAULT_REFERER,
    secrets: [params.password, ...(secret ? [secret] : [])],
    retry: false,
  });
}

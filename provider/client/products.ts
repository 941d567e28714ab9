import { withoutTrailingSlash } from "../url";
/**
 * The server products the client speaks to, and what differs between them. ArcGIS Server keeps
 * the classic administrative dialect; Mission, Notebook and Video Server are built on Esri's newer
 * admin framework and take a different createNewSite request and answer errors in another format
 * (Esri's Chef cookbooks and PowerShell DSC modules, named per fact below).
 */

/** The server products, as the `serverType` input names them. */
export const SERVER_TYPES = [
  "mission-server",
  "arcgis-server",
  "notebook-server",
  "video-server",
] as const;

/** One of {@link SERVER_TYPES}. */
export type ServerType = (typeof SERVER_TYPES)[number];

/**
 * What the client needs to know about one product.
 *
 * @internal
 */
export interface ServerProduct {
  /** Name for messages, e.g. "Mission Server". */
  label: string;
  /**
   * `classic`: ArcGIS Server's form (`type`/`connectionString`, `{"directories":[...]}`,
   * `settings`, `runAsync`) and errors as `{"status":"error","code","messages"}`.
   * `carbon`: Mission/Notebook/Video (`configPersistenceType`/`className`, a bare directory array
   * of `{name, path, type}`, `logsSettings`, `async`) and errors as `{"error":{"code","message"}}`.
   */
  dialect: "classic" | "carbon";
  /** Directory types its createNewSite takes. */
  directoryTypes: readonly string[];
  /** Health check path below the server root (the admin URL without `/admin`). */
  healthCheckPath: string;
  /** Whether the health check wants an admin token. */
  healthCheckNeedsToken: boolean;
  /** Oldest version with createNewSite. */
  createNewSiteSince: number;
  /** Oldest version with exportSite. */
  exportSiteSince: number;
}

/**
 * Facts per product, each from Esri's own sources:
 * - directory types: ArcGIS Server docs (createsite) and Chef `arcgis-enterprise`; Mission: DSC
 *   `ArcGIS_MissionServer` Invoke-CreateSite (WORKSPACE only on 10.8, see
 *   {@link MISSION_WORKSPACE_VERSION}); Notebook: Chef `arcgis-notebooks` create_site; Video:
 *   Chef `arcgis-video` create_site and DSC `ArcGIS_VideoServer`.
 * - health checks: ArcGIS Server docs `rest/info/healthCheck`; Mission docs `rest/healthcheck`;
 *   Notebook: DSC `ArcGIS_NotebookServerSettings` and arcgis-gitops ingress probes
 *   `rest/info/healthcheck`; Video 12.0 docs `rest/info/healthcheck` with a token.
 * - versions: ArcGIS Server docs (createNewSite 10.1, exportSite 10.2); Mission: the spec (10.8);
 *   Notebook docs (admin root and createNewSite introduced 10.7, the root lists exportSite);
 *   Video: Chef `arcgis-video` supports 11.3 and 11.4 (the first releases), docs from 12.0 list
 *   exportSite at the root; no older Video Server exists.
 */
const PRODUCTS: Record<ServerType, ServerProduct> = {
  "arcgis-server": {
    label: "ArcGIS Server",
    dialect: "classic",
    directoryTypes: ["JOBS", "OUTPUT", "CACHE", "SYSTEM"],
    healthCheckPath: "rest/info/healthCheck",
    healthCheckNeedsToken: false,
    createNewSiteSince: 10.1,
    exportSiteSince: 10.2,
  },
  "mission-server": {
    label: "Mission Server",
    dialect: "carbon",
    directoryTypes: ["JOBS", "OUTPUT", "SYSTEM", "WORKSPACE"],
    healthCheckPath: "rest/healthcheck",
    healthCheckNeedsToken: false,
    createNewSiteSince: 10.8,
    exportSiteSince: 10.8,
  },
  "notebook-server": {
    label: "Notebook Server",
    dialect: "carbon",
    directoryTypes: ["JOBS", "OUTPUT", "SYSTEM", "WORKSPACE"],
    healthCheckPath: "rest/info/healthcheck",
    healthCheckNeedsToken: false,
    createNewSiteSince: 10.7,
    exportSiteSince: 10.7,
  },
  "video-server": {
    label: "Video Server",
    dialect: "carbon",
    directoryTypes: ["UPLOADS", "DATA"],
    healthCheckPath: "rest/info/healthcheck",
    healthCheckNeedsToken: true,
    createNewSiteSince: 11.3,
    exportSiteSince: 11.3,
  },
};

/**
 * The only Mission Server version whose createNewSite takes a WORKSPACE directory (DSC).
 *
 * @internal
 */
export const MISSION_WORKSPACE_VERSION = 10.8;

/**
 * Class names of the config stores of Mission, Notebook and Video Server (Chef
 * `cookbooks/arcgis-mission/attributes/default.rb`, DSC `ArcGIS_MissionServer` Invoke-CreateSite).
 *
 * @internal
 */
export const CARBON_STORE_CLASS_NAMES: Readonly<Record<string, string>> = {
  FILESYSTEM: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
  AZURE: "com.esri.arcgis.carbon.persistence.impl.azure.AzureConfigPersistence",
  AMAZON: "com.esri.arcgis.carbon.persistence.impl.amazon.AmazonConfigPersistence",
};

/**
 * Looks up what the client knows about a product.
 *
 * @param serverType - one of {@link SERVER_TYPES}.
 * @returns the product's facts.
 * @example
 * ```ts
 * serverProduct("mission-server").healthCheckPath // "rest/healthcheck"
 * ```
 * A lookup in a table; sends no request.
 *
 * @internal
 */
export function serverProduct(serverType: ServerType): ServerProduct {
  return PRODUCTS[serverType];
}

/**
 * The server root (where `rest/` lives) of an administrative root: the admin URL without its
 * trailing `/admin`.
 *
 * @param adminUrl - e.g. `https://h:20443/arcgis/admin`.
 * @returns e.g. `https://h:20443/arcgis`.
 * @example
 * ```ts
 * serverRootOf("https://h:20443/arcgis/admin/") // "https://h:20443/arcgis"
 * ```
 * String manipulation of a URL; sends no request.
 *
 * @internal
 */
export function serverRootOf(adminUrl: string): string {
  return withoutTrailingSlash(adminUrl).replace(/\/admin$/i, "");
}

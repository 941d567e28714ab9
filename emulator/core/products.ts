/**
 * The server products the emulator can stand in for, and what differs between them: the
 * dialect of the administrative API (request forms of createNewSite, error format, shape of
 * logs/settings), directory types, health check, version and export download URL.
 *
 * Evidence (docs/emulator.md lists it with every assumption):
 * - ArcGIS Server, the classic dialect: Chef `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb`
 *   and Ansible `ansible_collections/arcgis/server/plugins/module_utils/server_admin_client.py`
 *   (Esri/arcgis-gitops), PowerShell DSC `ArcGIS_Server.psm1`, and the ArcGIS Server docs.
 * - Mission, Notebook and Video Server, the dialect of Esri's newer ("carbon") admin framework:
 *   Chef `cookbooks/arcgis-{mission,notebooks,video}/libraries/server_admin_client.rb` and
 *   PowerShell DSC `ArcGIS_{MissionServer,NotebookServer,VideoServer}.psm1`.
 */

/** Products the emulator can be. */
export const SERVER_TYPES = [
  "mission-server",
  "arcgis-server",
  "notebook-server",
  "video-server",
] as const;
/** A product the emulator can be. */
export type ServerType = (typeof SERVER_TYPES)[number];

/** The product of the spec (Esri's Mission Server documentation), and the default. */
export const DEFAULT_SERVER_TYPE: ServerType = "mission-server";

/**
 * The two dialects of the administrative API: `classic` is ArcGIS Server's; `carbon` is the
 * one of Mission, Notebook and Video Server (their config store classes live in
 * `com.esri.arcgis.carbon.persistence`).
 */
export type Dialect = "classic" | "carbon";

/** Forms of exportSite's download URL (without `location`). */
export const EXPORT_URL_FORMS = ["file", "item"] as const;
/**
 * `file`: `{admin_root}/uploads/<id>` serves the archive itself; `item`: it describes an
 * uploaded item, and the archive is served at `{admin_root}/uploads/<id>/download`.
 */
export type ExportUrlForm = (typeof EXPORT_URL_FORMS)[number];

/** How a health check answers. */
export interface HealthCheckRule {
  /** Paths under `/arcgis/rest`, as segments joined with '/'. */
  readonly paths: readonly string[];
  /** Version it was introduced in (earlier versions answer 404 there). */
  readonly since: string;
  /** `{"success": "true"}` (a string, as the Notebook and Video docs show) instead of a boolean. */
  readonly successAsString: boolean;
  /** HTTP status of an unhealthy answer (ArcGIS Server: "other than HTTP 200"). */
  readonly unhealthyStatus: number;
  /** The docs say a token is required (Video Server 12.0). */
  readonly tokenRequired: boolean;
}

/** What the emulator does differently per product. */
export interface Product {
  readonly type: ServerType;
  /** Display name, e.g. "ArcGIS Mission Server". */
  readonly name: string;
  readonly dialect: Dialect;
  /** Default of `serverVersion` (chosen by the project, see docs/emulator.md). */
  readonly defaultVersion: string;
  /** Directory types createNewSite accepts at a version. */
  readonly directoryTypes: (version: ServerVersion) => readonly string[];
  /** Directories of a site created without `directories`: name and type. */
  readonly defaultDirectories: (version: ServerVersion) => ReadonlyArray<readonly [string, string]>;
  /** Where the emulated installation keeps its files (recorded, never created). */
  readonly installRoot: string;
  readonly healthCheck: HealthCheckRule;
  /** Default form of exportSite's download URL. */
  readonly exportUrlForm: ExportUrlForm;
  /** `rest/info` needs a token once a site exists (Video Server's docs). */
  readonly infoTokenRequired: boolean;
  /** Title of the HTML view of the admin API. */
  readonly adminTitle: string;
  /** The product's HTTPS port, shown in the machines' admin URLs (6443, 20443, 11443, 21443). */
  readonly adminPort: number;
}

/** A product version: `11.3`, `10.8.1`... */
export interface ServerVersion {
  /** As given, normalized to three parts: `11.3.0`. */
  readonly full: string;
  /** What `rest/info` reports as `currentVersion`: 11.3, or 10.81 for 10.8.1 (ArcGIS's convention). */
  readonly current: number;
  readonly parts: readonly [number, number, number];
}

/** Parses `X.Y` or `X.Y.Z`; throws naming the option otherwise. */
export function parseServerVersion(text: string): ServerVersion {
  const match = /^(\d{1,3})\.(\d{1,2})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (match === null) {
    throw new Error(`Option serverVersion must look like 11.3 or 10.8.1, got '${text}'.`);
  }
  const parts = [Number(match[1]), Number(match[2]), Number(match[3] ?? "0")] as const;
  const current = Number(`${parts[0]}.${parts[1]}${parts[2] === 0 ? "" : String(parts[2])}`);
  return { full: parts.join("."), current, parts };
}

/** Whether `version` is `since` or later. */
export function atLeast(version: ServerVersion, since: string): boolean {
  const other = parseServerVersion(since).parts;
  for (let i = 0; i < 3; i++) {
    const a = version.parts[i] ?? 0;
    const b = other[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

const CARBON_HEALTH_STRINGS = { successAsString: true, unhealthyStatus: 200 } as const;

const PRODUCTS: Readonly<Record<ServerType, Product>> = {
  "arcgis-server": {
    type: "arcgis-server",
    name: "ArcGIS Server",
    dialect: "classic",
    defaultVersion: "11.3",
    // ArcGIS Server docs (createNewSite, server directories): JOBS, OUTPUT, CACHE, SYSTEM.
    directoryTypes: () => ["JOBS", "OUTPUT", "CACHE", "SYSTEM"],
    defaultDirectories: () => [
      ["arcgiscache", "CACHE"],
      ["arcgisjobs", "JOBS"],
      ["arcgisoutput", "OUTPUT"],
      ["arcgissystem", "SYSTEM"],
    ],
    installRoot: "/arcgis/server/usr",
    // Docs health-check.htm: `rest/info/healthCheck` (the newer page spells it `healthcheck`);
    // an unhealthy site answers "other than HTTP 200" (503 is the emulator's choice).
    healthCheck: {
      paths: ["info/healthCheck", "info/healthcheck"],
      since: "10.1",
      successAsString: false,
      unhealthyStatus: 503,
      tokenRequired: false,
    },
    // Docs (exportSite, uploads): `uploads/<itemID>` describes an item; `.../download` serves it.
    exportUrlForm: "item",
    infoTokenRequired: false,
    adminTitle: "ArcGIS Server Administrator Directory",
    adminPort: 6443,
  },
  "mission-server": {
    type: "mission-server",
    name: "ArcGIS Mission Server",
    dialect: "carbon",
    defaultVersion: "11.3",
    // Chef arcgis-mission create_site and DSC ArcGIS_MissionServer Invoke-CreateSite: OUTPUT,
    // SYSTEM, JOBS; DSC adds WORKSPACE only when $Version -eq "10.8".
    directoryTypes: (version) =>
      version.full === "10.8.0"
        ? ["WORKSPACE", "OUTPUT", "SYSTEM", "JOBS"]
        : ["OUTPUT", "SYSTEM", "JOBS"],
    defaultDirectories: (version) => [
      ...(version.full === "10.8.0" ? ([["arcgisworkspace", "WORKSPACE"]] as const) : []),
      ["arcgisoutput", "OUTPUT"],
      ["arcgissystem", "SYSTEM"],
      ["arcgisjobs", "JOBS"],
    ],
    installRoot: "/arcgis/missionserver/usr",
    // Docs mission/site-health-check: `rest/healthcheck`, {"success": true}, from 10.8. DSC
    // ArcGIS_MissionServerSettings waits for `rest/info/healthcheck/?f=json` to answer.
    healthCheck: {
      paths: ["healthcheck", "info/healthcheck"],
      since: "10.8",
      successAsString: false,
      unhealthyStatus: 200,
      tokenRequired: false,
    },
    exportUrlForm: "file",
    infoTokenRequired: false,
    adminTitle: "ArcGIS Mission Server Administrator Directory",
    adminPort: 20443,
  },
  "notebook-server": {
    type: "notebook-server",
    name: "ArcGIS Notebook Server",
    dialect: "carbon",
    defaultVersion: "11.3",
    // Chef arcgis-notebooks create_site and DSC ArcGIS_NotebookServer Invoke-CreateSite.
    directoryTypes: () => ["OUTPUT", "WORKSPACE", "SYSTEM", "JOBS"],
    defaultDirectories: () => [
      ["arcgisoutput", "OUTPUT"],
      ["arcgisworkspace", "WORKSPACE"],
      ["arcgissystem", "SYSTEM"],
      ["arcgisjobs", "JOBS"],
    ],
    installRoot: "/arcgis/notebookserver/usr",
    // Docs notebook/health-check: `rest/info/healthcheck`, {"success": "true"}, from 10.9.
    healthCheck: {
      paths: ["info/healthcheck"],
      since: "10.9",
      ...CARBON_HEALTH_STRINGS,
      tokenRequired: false,
    },
    exportUrlForm: "file",
    infoTokenRequired: false,
    adminTitle: "ArcGIS Notebook Server Administrator Directory",
    adminPort: 11443,
  },
  "video-server": {
    type: "video-server",
    name: "ArcGIS Video Server",
    dialect: "carbon",
    defaultVersion: "12.0",
    // Chef arcgis-video create_site and DSC ArcGIS_VideoServer Invoke-CreateSite.
    directoryTypes: () => ["UPLOADS", "DATA"],
    defaultDirectories: () => [
      ["arcgisvideouploads", "UPLOADS"],
      ["arcgisvideoservices", "DATA"],
    ],
    installRoot: "/arcgis/videoserver/usr",
    // Docs video-server/healthcheck: `rest/info/healthcheck`, token required,
    // {"success": "true"}, from 12.0.
    healthCheck: {
      paths: ["info/healthcheck"],
      since: "12.0",
      ...CARBON_HEALTH_STRINGS,
      tokenRequired: true,
    },
    exportUrlForm: "file",
    // Docs video-server/info: "must generate a token that must be included".
    infoTokenRequired: true,
    adminTitle: "ArcGIS Video Server Administrator Directory",
    adminPort: 21443,
  },
};

/** What a parser needs to know about the emulated server. */
export interface ServerProfile {
  readonly product: Product;
  readonly version: ServerVersion;
}

/** Version the emulated portal reports. */
export const PORTAL_VERSION = "11.3";

/** The profile of a product. */
export function productOf(type: ServerType): Product {
  return PRODUCTS[type];
}

/**
 * Class names of the carbon config store per store type (Chef
 * `cookbooks/arcgis-mission/attributes/default.rb` config_store_class_name, and DSC
 * ArcGIS_MissionServer Invoke-CreateSite).
 */
export const CARBON_CONFIG_STORE_CLASSES = {
  FILESYSTEM: "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
  AZURE: "com.esri.arcgis.carbon.persistence.impl.azure.AzureConfigPersistence",
  AMAZON: "com.esri.arcgis.carbon.persistence.impl.amazon.AmazonConfigPersistence",
} as const;

/**
 * The inputs of a `Site`: their public shapes, the zod schema those shapes mirror, and the groups
 * of inputs that the lifecycle treats alike. The rules across fields are in rules.ts. The public
 * types are written out by hand (zod must not appear in the public declarations) beside the schema
 * they mirror, with a compile-time check that they agree.
 */
import { z } from "zod";
import { type ServerType } from "../../client";
import { adminInputsSchema } from "../common/admin-inputs";
import { inputReader, type InputRules } from "../common/implementation";
import { nonEmpty } from "../common/input-schemas";
import type { TlsSettings } from "../common/tls";
import { SITE } from "./resource";
import { allCrossChecks } from "./rules";

/** Directory types of every product; each product takes a subset (see serverProduct()). */
export const DIRECTORY_TYPES = [
  "JOBS",
  "OUTPUT",
  "CACHE",
  "SYSTEM",
  "WORKSPACE",
  "UPLOADS",
  "DATA",
] as const;
/** Cleanup modes of a server directory. */
export const CLEANUP_MODES = ["NONE", "TIME_ELAPSED_SINCE_LAST_MODIFIED"] as const;
/** Configuration store types. */
export const CONFIG_STORE_TYPES = ["FILESYSTEM", "AZURE", "AMAZON"] as const;
/** ArcGIS log levels. */
export const LOG_LEVELS = ["OFF", "SEVERE", "WARNING", "INFO", "FINE", "VERBOSE", "DEBUG"] as const;

/**
 * Default wait for a freshly installed server to answer: Esri's tools wait about 15 minutes.
 *
 * @internal
 */
export const DEFAULT_SERVER_READY_MS = 15 * 60_000;
/**
 * Default bound on site creation: creation can take many minutes on real installs.
 *
 * @internal
 */
export const DEFAULT_CREATE_MS = 60 * 60_000;

/** The site's configuration store (the `configStoreConnection` argument and output). */
export interface SiteConfigStoreConnection {
  /** `FILESYSTEM` (a shared folder), `AZURE` (Azure storage) or `AMAZON` (S3 and DynamoDB). */
  type: (typeof CONFIG_STORE_TYPES)[number];
  /**
   * Where the store is: a UNC or local path for `FILESYSTEM` (e.g. `\\fileserver\config-store`),
   * the cloud store's connection string otherwise.
   */
  connectionString: string;
  /** ArcGIS Server only: the local folder that mirrors the store. */
  localRepositoryPath?: string;
  /** Mission, Notebook and Video Server only: the account of a cloud store. */
  username?: string;
  /** The cloud store's secret (key or password). Stored only as a secret. */
  connectionSecret?: string;
}

/** One server directory (an item of the `directories` argument and output). */
export interface SiteDirectory {
  /** The directory's name, e.g. `arcgissystem`. */
  name: string;
  /** Its path as the server sees it, e.g. `\\fileserver\arcgis\system` or `D:\arcgis\system`. */
  physicalPath: string;
  /**
   * What it holds; the types the product takes: ArcGIS Server JOBS, OUTPUT, CACHE, SYSTEM;
   * Mission JOBS, OUTPUT, SYSTEM (+ WORKSPACE on 10.8); Notebook JOBS, OUTPUT, SYSTEM, WORKSPACE;
   * Video UPLOADS, DATA.
   */
  directoryType: (typeof DIRECTORY_TYPES)[number];
  /** ArcGIS Server only: `NONE` (default) or `TIME_ELAPSED_SINCE_LAST_MODIFIED`. */
  cleanupMode?: (typeof CLEANUP_MODES)[number];
  /**
   * ArcGIS Server only: how old a file may get before the cleanup removes it; 0 with `NONE`. Its
   * unit is not documented by Esri (the value is passed to the server as given).
   */
  maxFileAge?: number;
  /** ArcGIS Server only: a description. */
  description?: string;
}

/** The site's log settings (the `logSettings` argument and output). */
export interface SiteLogSettings {
  /** `OFF`, `SEVERE`, `WARNING`, `INFO`, `FINE`, `VERBOSE` or `DEBUG`. */
  logLevel: (typeof LOG_LEVELS)[number];
  /** The folder the server writes its logs to, as the server sees it. */
  logDir: string;
  /** How many error reports the server keeps (a count). */
  maxErrorReportsCount: number;
  /**
   * How long the server keeps log files. Its unit is not documented by Esri (ArcGIS Server
   * Manager presents the setting in days; the value is passed to the server as given).
   */
  maxLogFileAge: number;
  /** Mission, Notebook and Video Server only: whether usage metering is on. */
  usageMeteringEnabled?: boolean;
}

/** Time limits of a `Site` (the `timeouts` argument and output), in milliseconds. */
export interface SiteTimeouts {
  /** How long to wait for a fresh install to answer, in ms (default 900 000: 15 minutes). */
  serverReadyMs: number;
  /** How long the creation may take until the site is ready, in ms (default 3 600 000: 60 minutes). */
  createMs: number;
}

/** Inputs of a `Site` whose values are known (what the provider works with). */
export interface SiteInputs {
  /** The product: `mission-server`, `arcgis-server`, `notebook-server` or `video-server`. */
  serverType: ServerType;
  /** The administrative root, e.g. `https://gis.example.com:20443/arcgis/admin`. */
  adminUrl: string;
  /** The primary site administrator's name. */
  username: string;
  /** The primary site administrator's password (a secret). */
  password: string;
  /** The configuration store; absent: the server's default (its installation directory). */
  configStoreConnection?: SiteConfigStoreConnection;
  /** The server directories; absent: the server's defaults. */
  directories?: SiteDirectory[];
  /** The log settings; absent: the server's defaults. */
  logSettings?: SiteLogSettings;
  /** Whether createNewSite was asked to work asynchronously. */
  runAsync: boolean;
  /** Whether an existing site may be adopted. */
  adoptExisting: boolean;
  /** Whether destroy deletes the site (deleteSite). */
  deleteSiteOnDestroy: boolean;
  /** How the server's certificate is checked. */
  tls?: TlsSettings;
  /** Time limits, in milliseconds. */
  timeouts: SiteTimeouts;
}

/**
 * The zod schema of the Site inputs. Built on demand: schemas must never be serialized.
 *
 * @internal
 */
export function siteInputsSchema() {
  const count = z.number().int().min(0, { message: "must not be negative" });
  const directory = z
    .strictObject({
      name: nonEmpty(),
      physicalPath: nonEmpty(),
      // Which types a product takes is checked in productChecks(), naming the product.
      directoryType: nonEmpty(),
      cleanupMode: z
        .enum(CLEANUP_MODES, { message: `must be one of ${CLEANUP_MODES.join(", ")}` })
        .optional(),
      maxFileAge: count.optional(),
      description: z.string().optional(),
    })
    .superRefine((d, ctx) => {
      if (d.cleanupMode === "NONE" && d.maxFileAge !== undefined && d.maxFileAge !== 0) {
        ctx.addIssue({
          code: "custom",
          path: ["maxFileAge"],
          message: "must be 0 when cleanupMode is NONE (nothing is cleaned up)",
        });
      }
    });
  return adminInputsSchema(
    {
      configStoreConnection: z
        .strictObject({
          type: z.enum(CONFIG_STORE_TYPES, {
            message: `must be one of ${CONFIG_STORE_TYPES.join(", ")}`,
          }),
          connectionString: nonEmpty(),
          localRepositoryPath: nonEmpty().optional(),
          username: nonEmpty().optional(),
          connectionSecret: nonEmpty().optional(),
        })
        .optional(),
      directories: z.array(directory).optional(),
      logSettings: z
        .strictObject({
          logLevel: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(", ")}` }),
          logDir: nonEmpty(),
          maxErrorReportsCount: count,
          maxLogFileAge: count,
          usageMeteringEnabled: z.boolean().optional(),
        })
        .optional(),
      runAsync: z.boolean().default(false),
      adoptExisting: z.boolean().default(false),
      deleteSiteOnDestroy: z.boolean().default(false),
    },
    {
      serverReadyMs: DEFAULT_SERVER_READY_MS,
      createMs: DEFAULT_CREATE_MS,
    },
  );
}

/**
 * Inputs that define the site itself: createNewSite cannot run again to change them.
 *
 * @internal
 */
export const SITE_DEFINING_INPUTS = [
  "serverType",
  "adminUrl",
  "configStoreConnection",
  "directories",
] as const;

/**
 * Inputs that an update applies to the existing site: log settings are written with
 * `logs/settings/edit` (as DSC's Update-LogSettings does), so a change, or drift that a refresh
 * found, is corrected in place.
 *
 * @internal
 */
export const APPLIED_INPUTS = ["logSettings"] as const;

/**
 * The administrator's credentials. They do not define the site: a change means the password was
 * changed (or another administrator is used) on the server, so it only updates state, once the
 * new credentials have proved that they obtain a token. Never a replacement.
 *
 * @internal
 */
export const CREDENTIAL_INPUTS = ["username", "password"] as const;

/**
 * Inputs that only change how the provider behaves; changing them touches nothing.
 *
 * @internal
 */
export const STATE_ONLY_INPUTS = [
  "runAsync",
  "adoptExisting",
  "deleteSiteOnDestroy",
  "tls",
  "timeouts",
] as const;

/**
 * What a Site's inputs are, for `check()` and for reading them back from state.
 *
 * @internal
 */
export const SITE_INPUTS: InputRules = {
  frame: SITE,
  schema: siteInputsSchema,
  crossChecks: allCrossChecks,
};

/**
 * Reads inputs, or outputs read back as inputs, that must be valid; throws what is not.
 *
 * @internal
 */
export const parseInputs = inputReader<SiteInputs>(SITE_INPUTS);

type SiteSchemaOutput = z.output<ReturnType<typeof siteInputsSchema>>;
type SameKeys<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? true
    : false
  : false;
type Assert<T extends true> = T;

/**
 * Fails to compile when the hand-written input types and the schema drift apart: the same keys
 * at every level, and every {@link SiteInputs} accepted by the schema.
 *
 * @internal
 */
export type SiteInputsMatchSchema = [
  Assert<SameKeys<SiteInputs, SiteSchemaOutput>>,
  Assert<
    SameKeys<SiteConfigStoreConnection, NonNullable<SiteSchemaOutput["configStoreConnection"]>>
  >,
  Assert<SameKeys<SiteDirectory, NonNullable<SiteSchemaOutput["directories"]>[number]>>,
  Assert<SameKeys<SiteLogSettings, NonNullable<SiteSchemaOutput["logSettings"]>>>,
  Assert<SameKeys<SiteTimeouts, SiteSchemaOutput["timeouts"]>>,
  Assert<SiteInputs extends z.input<ReturnType<typeof siteInputsSchema>> ? true : false>,
];

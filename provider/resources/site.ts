/**
 * `Site`: creates a site on an ArcGIS Mission, ArcGIS, Notebook or Video Server with
 * `createNewSite`, in that product's dialect, as a Pulumi dynamic resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  answerMayBeLost,
  type ArcGISRequestError,
  createAdminSession,
  createNewSite,
  deleteSite,
  editLogSettings,
  generateToken,
  getConfigStore,
  getLogSettings,
  hasServerCode,
  healthCheck,
  isArcGISRequestError,
  isAuthError,
  listDirectories,
  listMachines,
  MISSION_WORKSPACE_VERSION,
  retryWhile,
  SERVER_TYPES,
  serverInfo,
  serverProduct,
  serverRootOf,
  siteStatus,
  type ServerInfo,
  type ServerType,
  type SiteStatus,
  type TransportOptions,
  unsupportedFields,
  waitForServer,
  waitForSite,
  DEFAULT_REFERER,
} from "../client";
import { lazyProvider, type ResourceImplementation, withoutProvider } from "./lazy-provider";
import { type CheckFailure, checkInputs, containsUnknown, parseValidInputs } from "./input-check";
import { httpUrlSchema, nonEmpty, timeoutMsSchema, tlsSchema } from "./input-schemas";
import { sameValue, withStateOnlyChanges } from "./state-diff";
import { type InputsOf, type TlsArgs, type TlsSettings, transportFor } from "./tls";
import { failureMessage, logInfo, logWarn, messageOf } from "./log";
import { ProgressReporter } from "./progress";
import { resourceOptions, TYPE_MODULE } from "./resource-options";
import { resolveServerConnection, type ServerConnection } from "./connection";

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

/** Default wait for a freshly installed server to answer: Esri's tools wait about 15 minutes. */
export const DEFAULT_SERVER_READY_MS = 15 * 60_000;
/** Default bound on site creation: creation can take many minutes on real installs. */
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

/** Outputs of a `Site` as stored in state: the inputs, plus what the server reported. */
export interface SiteOutputs extends SiteInputs {
  /** `created` when this resource created the site, `adopted` when it adopted an existing one. */
  state: "created" | "adopted";
  /** When the site was created or adopted (ISO 8601). */
  createdAt: string;
  /** Names of the site's machines, as the server reports them (refreshed by `pulumi refresh`). */
  machines: string[];
  /** The server's version as `rest/info` reports it (fullVersion, else currentVersion). */
  serverVersion?: string;
  /** The log settings as the server reports them (after applying ours; refreshed). */
  serverLogSettings?: Record<string, string | number | boolean>;
  /** The server directories as the server reports them (refreshed by `pulumi refresh`). */
  serverDirectories?: SiteReportedDirectory[];
  /** Where the server reports its configuration store (refreshed by `pulumi refresh`). */
  serverConfigStore?: SiteReportedConfigStore;
}

/** A server directory as the server reports it (`system/directories`). */
export interface SiteReportedDirectory {
  /** The directory's name. */
  name: string;
  /** Its path as the server reports it (`physicalPath`, or `path` on Mission/Notebook/Video). */
  path: string;
}

/** The configuration store as the server reports it (`system/configstore`); never a secret. */
export interface SiteReportedConfigStore {
  /** Its type, e.g. `FILESYSTEM`, when reported. */
  type?: string;
  /** Its location, when reported. */
  connectionString?: string;
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
  return z.strictObject({
    serverType: z
      .enum(SERVER_TYPES, { message: `must be one of ${SERVER_TYPES.join(", ")}` })
      .default("mission-server"),
    adminUrl: httpUrlSchema(),
    username: nonEmpty(),
    password: nonEmpty(),
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
    tls: tlsSchema(),
    timeouts: z
      .strictObject({
        serverReadyMs: timeoutMsSchema(DEFAULT_SERVER_READY_MS),
        createMs: timeoutMsSchema(DEFAULT_CREATE_MS),
      })
      .default({ serverReadyMs: DEFAULT_SERVER_READY_MS, createMs: DEFAULT_CREATE_MS }),
  });
}

/**
 * Rules across directories, checked on the raw inputs so that they are reported together with
 * the per-field problems (zod skips refinements of an array whose items are invalid).
 */
export function siteCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const dirs = Array.isArray(values.directories) ? (values.directories as unknown[]) : [];
  let systemSeen = false;
  // Names that differ only in letter case count as one: the emulator refuses them (an assumption
  // of ours, README), and on Windows, where most sites run, they name the same folder.
  const names = new Map<string, string>();
  dirs.forEach((d, i) => {
    if (d === null || typeof d !== "object") return;
    const dir = d as Record<string, unknown>;
    if (dir.directoryType === "SYSTEM") {
      if (systemSeen) {
        failures.push({
          property: `directories[${i}].directoryType`,
          reason: "a site has exactly one SYSTEM directory; this is a second one",
        });
      }
      systemSeen = true;
    }
    if (typeof dir.name === "string" && dir.name !== "") {
      const key = dir.name.toLowerCase();
      const earlier = names.get(key);
      if (earlier !== undefined) {
        failures.push({
          property: `directories[${i}].name`,
          reason:
            earlier === dir.name
              ? `duplicate directory name "${dir.name}"`
              : `duplicate directory name "${dir.name}": it differs from "${earlier}" only in ` +
                "letter case, and the server does not tell them apart",
        });
      } else {
        names.set(key, dir.name);
      }
    }
  });
  return failures;
}

/**
 * Rules of the chosen product (`serverType`): which directory types it takes, and which inputs
 * its createNewSite request has no place for (refused rather than dropped, naming the product).
 */
export function productChecks(values: Record<string, unknown>): CheckFailure[] {
  const serverType = values.serverType ?? "mission-server";
  if (!SERVER_TYPES.includes(serverType as ServerType)) return [];
  const product = serverProduct(serverType as ServerType);
  const failures: CheckFailure[] = [];
  const dirs = Array.isArray(values.directories) ? (values.directories as unknown[]) : [];
  dirs.forEach((d, i) => {
    if (d === null || typeof d !== "object") return;
    const type = (d as Record<string, unknown>).directoryType;
    if (typeof type === "string" && type !== "" && !product.directoryTypes.includes(type)) {
      const workspace =
        serverType === "mission-server" ? ` (WORKSPACE only on ${MISSION_WORKSPACE_VERSION})` : "";
      failures.push({
        property: `directories[${i}].directoryType`,
        reason: `must be one of ${product.directoryTypes.join(", ")} for ${product.label}${workspace}`,
      });
    }
  });
  const fields = unsupportedFields(serverType as ServerType, {
    configStoreConnection: plainObject(values.configStoreConnection) as never,
    directories: dirs.map((d) => plainObject(d) ?? {}) as never,
    logSettings: plainObject(values.logSettings),
  });
  for (const field of fields) failures.push({ property: field.path, reason: field.reason });
  return failures;
}

function plainObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Every rule across fields: the directory rules and the product's rules. */
function allCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  return [...siteCrossChecks(values), ...productChecks(values)];
}

/** Inputs that define the site itself: createNewSite cannot run again to change them. */
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
 */
const APPLIED_INPUTS = ["logSettings"] as const;

/**
 * The administrator's credentials. They do not define the site: a change means the password was
 * changed (or another administrator is used) on the server, so it only updates state, once the
 * new credentials have proved that they obtain a token. Never a replacement.
 */
const CREDENTIAL_INPUTS = ["username", "password"] as const;

/** Inputs that only change how the provider behaves; changing them touches nothing. */
const STATE_ONLY_INPUTS = [
  "runAsync",
  "adoptExisting",
  "deleteSiteOnDestroy",
  "tls",
  "timeouts",
] as const;

/**
 * How often the provider looks at a server. Tests shorten it with {@link withTiming};
 * a stack always runs with {@link DEFAULT_SITE_TIMING}.
 *
 * @internal
 */
export interface SiteTiming {
  /**
   * Between two looks at a machine while a site is being created. 700 ms notices a completion
   * within about 0.7 s (plus the readiness round trips) and sends about 1.4 status requests per
   * second (bench/ figure 3; Esri's own tools poll every 5 to 10 s).
   */
  pollIntervalMs: number;
  /** Between two looks at a machine that does not answer yet (a fresh install). */
  serverPollIntervalMs: number;
  /**
   * How often a wait for createNewSite's answer checks whether a progress line is due; the
   * reporter itself writes at most one line every 15 s.
   */
  progressIntervalMs: number;
  /** First delay before deleteSite is sent again while an export holds the site; doubled. */
  deleteRetryBaseMs: number;
  /** Largest such delay. */
  deleteRetryMaxMs: number;
}

/**
 * The timing every stack runs with.
 *
 * @internal
 */
export const DEFAULT_SITE_TIMING: Readonly<SiteTiming> = {
  pollIntervalMs: 700,
  serverPollIntervalMs: 1_000,
  progressIntervalMs: 1_000,
  deleteRetryBaseMs: 1_000,
  deleteRetryMaxMs: 15_000,
};

/** Keys that exist only in outputs: left out when outputs are read back as inputs. */
const OUTPUT_ONLY_KEYS = [
  "state",
  "createdAt",
  "machines",
  "serverVersion",
  "serverLogSettings",
  "serverDirectories",
  "serverConfigStore",
] as const;

function parseInputs(raw: unknown): SiteInputs {
  return parseValidInputs<SiteInputs>(
    "Site",
    siteInputsSchema(),
    raw,
    OUTPUT_ONLY_KEYS,
    allCrossChecks,
  );
}

function transportOf(inputs: SiteInputs, extra: Omit<TransportOptions, "tls"> = {}) {
  return transportFor(inputs.adminUrl, inputs.tls, extra);
}

function sessionOf(inputs: SiteInputs, transport: TransportOptions = transportOf(inputs)) {
  return createAdminSession({
    adminUrl: inputs.adminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transport,
  });
}

function alreadyInSiteMessage(adminUrl: string): string {
  return (
    `The machine at ${adminUrl} already participates in a site, and createNewSite cannot run on ` +
    "it again. To manage that site with this resource, set adoptExisting: true and give the " +
    "site's administrator credentials. If you renamed this resource in your program, add an " +
    'alias instead (opts: { aliases: [{ name: "<old name>" }] }) so that Pulumi keeps the site ' +
    "it already manages."
  );
}

/** The server's "token required" answer to createNewSite: the machine is in a site already. */
function isAlreadyInSite(error: unknown): boolean {
  return hasServerCode(error, 499) || hasServerCode(error, 498);
}

/** The error format each dialect answers in: `status` (ArcGIS Server) or `error` (the others). */
function expectedErrorFormat(serverType: ServerType): "status" | "error" {
  return serverProduct(serverType).dialect === "classic" ? "status" : "error";
}

/**
 * Refuses to go on when the admin root answers in another product's error format: the server is
 * not the product `serverType` declares, and a createNewSite in the wrong dialect would be
 * refused or misread.
 */
function requireDeclaredProduct(inputs: SiteInputs, status: SiteStatus): void {
  if (status.state === "unreachable" || status.errorFormat === undefined) return;
  if (status.errorFormat === expectedErrorFormat(inputs.serverType)) return;
  const declared = serverProduct(inputs.serverType).label;
  const seen =
    status.errorFormat === "status"
      ? 'ArcGIS Server\'s format ({"status":"error",...})'
      : 'the format of Mission, Notebook and Video Server ({"error":{...}})';
  const hint =
    status.errorFormat === "status"
      ? 'set serverType: "arcgis-server"'
      : 'set serverType to "mission-server", "notebook-server" or "video-server"';
  throw new Error(
    `The server at ${inputs.adminUrl} answers its admin root in ${seen}, but serverType is ` +
      `"${inputs.serverType}" (${declared}). Nothing was sent. If this is the right server, ` +
      `${hint}; if a web adaptor or proxy answers for it, check that it reaches the server.`,
  );
}

/** Reads the version and refuses an operation the server is too old for. */
async function requireVersion(
  inputs: SiteInputs,
  operation: "createNewSite",
): Promise<ServerInfo | undefined> {
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
    return undefined;
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
  return info;
}

function versionText(info: ServerInfo | undefined): string | undefined {
  if (info === undefined) return undefined;
  return info.fullVersion ?? String(info.currentVersion);
}

/** Where a user can look to see whether a site exists, for messages. */
function whereToCheck(inputs: SiteInputs): string {
  const product = serverProduct(inputs.serverType);
  return (
    `the health check ${serverRootOf(inputs.adminUrl)}/${product.healthCheckPath}?f=json ` +
    `answers success true once the site is ready, and ${inputs.adminUrl}/?f=json answers ` +
    "code 499 (token required) once a site exists"
  );
}

async function create(raw: unknown, timing: SiteTiming): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseInputs(raw);
  const status = await serverAnswering(inputs, timing);
  requireDeclaredProduct(inputs, status);
  if (status.state === "in-site") return adopt(inputs, undefined);
  const info = await requireVersion(inputs, "createNewSite");

  const createDeadline = Date.now() + inputs.timeouts.createMs;
  let lost: string | undefined;
  try {
    // Synchronous by default, as Esri's tools do: one request held until the site exists
    // (Chef: up to 3600 s; DSC: 1000 s, doubled for cloud stores), bounded by createMs.
    const transport = transportOf(inputs, {
      timeouts: inputs.runAsync
        ? { connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 }
        : { connectMs: 10_000, headersMs: inputs.timeouts.createMs, bodyMs: 120_000 },
    });
    const params: Parameters<typeof createNewSite>[1] = {
      serverType: inputs.serverType,
      username: inputs.username,
      password: inputs.password,
      runAsync: inputs.runAsync,
    };
    if (inputs.configStoreConnection) params.configStoreConnection = inputs.configStoreConnection;
    if (inputs.directories) params.directories = inputs.directories;
    if (inputs.logSettings) params.logSettings = inputs.logSettings;
    const progress = new ProgressReporter(
      `site creation on ${inputs.adminUrl}`,
      inputs.timeouts.createMs,
    );
    // A synchronous createNewSite holds its one request open for the whole creation (minutes on
    // real servers): without progress lines `pulumi up` would show nothing until it ends.
    await progress.whileAwaiting(
      inputs.runAsync
        ? "createNewSite sent, waiting for its answer"
        : "createNewSite sent; the server answers once the site exists",
      () => createNewSite(inputs.adminUrl, params, transport),
      timing.progressIntervalMs,
    );
  } catch (error) {
    if (isAlreadyInSite(error)) {
      // Another client created a site (or is creating one) since our status check: wait until
      // it is ready before reading it.
      if (inputs.adoptExisting) {
        await siteReady(inputs, createDeadline, undefined, timing);
        return adopt(inputs, info);
      }
      throw new Error(alreadyInSiteMessage(inputs.adminUrl), { cause: error });
    }
    if (!answerMayBeLost(error)) {
      throw new Error(failureMessage("createNewSite", inputs.adminUrl, error), { cause: error });
    }
    // Never send createNewSite twice: the first may still run. Watch the machine instead.
    lost = messageOf(error);
    logWarn(
      `The answer to createNewSite on ${inputs.adminUrl} was lost (${lost}); watching the ` +
        "machine until timeouts.createMs to learn whether the site is being created. " +
        "createNewSite is not sent again.",
    );
  }
  await siteReady(inputs, createDeadline, lost, timing);
  if (lost !== undefined) {
    const ours = await isOurSite(inputs);
    if (ours !== true) {
      if (!inputs.adoptExisting) {
        throw new Error(
          `A site appeared on ${inputs.adminUrl} after the answer to this stack's createNewSite ` +
            `was lost (${lost}), but it cannot be shown to be the one this stack asked for ` +
            `(${ours}). It is not recorded as created by this stack: another client may have ` +
            "created it. If it is the site you want, set adoptExisting: true and run `pulumi up`.",
        );
      }
      logWarn(`Adopting the site at ${inputs.adminUrl}: ${ours}.`);
      return adopt(inputs, info);
    }
  }
  return { id: inputs.adminUrl, outs: await outputsOf(inputs, "created", info) };
}

/** Waits until the admin root answers (a fresh install can take minutes), bounded by serverReadyMs. */
async function serverAnswering(inputs: SiteInputs, timing: SiteTiming) {
  const progress = new ProgressReporter(
    `${inputs.adminUrl} to answer`,
    inputs.timeouts.serverReadyMs,
  );
  try {
    return await waitForServer(inputs.adminUrl, transportOf(inputs), {
      deadline: Date.now() + inputs.timeouts.serverReadyMs,
      pollIntervalMs: timing.serverPollIntervalMs,
      onStatus: (s) => progress.tick(s.detail),
    });
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    throw new Error(
      `${inputs.adminUrl} was not ready within timeouts.serverReadyMs ` +
        `(${inputs.timeouts.serverReadyMs} ms): ${error.messages.join(" ") || error.message}. ` +
        "Check that the server is " +
        "installed and running and that the URL is right, or raise timeouts.serverReadyMs.",
      { cause: error },
    );
  }
}

/**
 * Waits until the site is ready (documented signals only, see waitForSite), bounded by
 * createMs. After a lost answer the message says what the user can check and when a retry is
 * safe, never to simply run again: the first createNewSite may still be running.
 */
async function siteReady(
  inputs: SiteInputs,
  deadline: number,
  lost: string | undefined,
  timing: SiteTiming,
) {
  const progress = new ProgressReporter(
    `site creation on ${inputs.adminUrl}`,
    inputs.timeouts.createMs,
  );
  try {
    await waitForSite(
      {
        adminUrl: inputs.adminUrl,
        serverType: inputs.serverType,
        username: inputs.username,
        password: inputs.password,
        ...transportOf(inputs),
      },
      {
        deadline,
        pollIntervalMs: timing.pollIntervalMs,
        onStatus: (s) => progress.tick(s.detail),
      },
    );
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    const what =
      lost === undefined
        ? "The site did not become ready"
        : `The answer to createNewSite was lost (${lost}), and no ready site appeared`;
    throw new Error(
      `${what} on ${inputs.adminUrl} within timeouts.createMs (${inputs.timeouts.createMs} ms); ` +
        `${error.messages.join(" ") || error.message}. The server may still be creating the ` +
        "site: do not run `pulumi up` " +
        `again before checking: ${whereToCheck(inputs)}. Once a site exists, set ` +
        "adoptExisting: true to take it over. Run again without it only when the machine is " +
        "still in no site after the server's own creation could have ended (raise " +
        "timeouts.createMs for slow creations).",
      { cause: error },
    );
  }
}

/**
 * After a lost answer, tells whether the site that appeared is the one this stack asked for:
 * the config store, directories and log settings the server reports must match what was sent
 * (at least one of them compared, none different). Returns true, or why not.
 */
async function isOurSite(inputs: SiteInputs): Promise<true | string> {
  const session = sessionOf(inputs);
  const compared: string[] = [];
  const differences: string[] = [];
  const unreadable = (what: string, e: unknown) => `${what} could not be read (${messageOf(e)})`;
  if (inputs.configStoreConnection) {
    try {
      const store = await getConfigStore(session);
      if (store.connectionString !== undefined) {
        compared.push("config store");
        if (store.connectionString !== inputs.configStoreConnection.connectionString) {
          differences.push("its config store is elsewhere");
        }
      }
    } catch (e) {
      differences.push(unreadable("its config store", e));
    }
  }
  if (inputs.directories) {
    try {
      const reported = await listDirectories(session);
      if (reported.length > 0) {
        compared.push("directories");
        const byName = new Map(reported.map((d) => [d.name.toLowerCase(), d.path]));
        for (const d of inputs.directories) {
          if (byName.get(d.name.toLowerCase()) !== d.physicalPath) {
            differences.push(`its directory ${d.name} is not at ${d.physicalPath}`);
          }
        }
      }
    } catch (e) {
      differences.push(unreadable("its directories", e));
    }
  }
  if (inputs.logSettings) {
    try {
      const reported = await getLogSettings(session);
      if (reported.logDir !== undefined) {
        compared.push("log settings");
        if (reported.logDir !== inputs.logSettings.logDir) {
          differences.push("its logs are in another directory");
        }
      }
    } catch (e) {
      differences.push(unreadable("its log settings", e));
    }
  }
  if (differences.length > 0) return differences.join("; ");
  if (compared.length === 0) {
    return (
      "nothing this stack sent can be compared with what the server reports (give " +
      "configStoreConnection or directories to make a site recognisable)"
    );
  }
  return true;
}

async function adopt(
  inputs: SiteInputs,
  info: ServerInfo | undefined,
): Promise<pulumi.dynamic.CreateResult> {
  if (!inputs.adoptExisting) throw new Error(alreadyInSiteMessage(inputs.adminUrl));
  let outs: SiteOutputs;
  try {
    outs = await outputsOf(inputs, "adopted", info);
  } catch (error) {
    if (isArcGISRequestError(error) && isAuthError(error)) {
      throw new Error(
        `adoptExisting is set, but the given credentials could not obtain an administrator ` +
          `token from ${inputs.adminUrl} (${(error as ArcGISRequestError).message}). Give the ` +
          "existing site's primary administrator (or another administrator) credentials.",
        { cause: error },
      );
    }
    throw error;
  }
  logInfo(`Adopted the existing site at ${inputs.adminUrl}; no createNewSite was sent.`);
  for (const line of siteDrift(inputs, outs)) {
    logWarn(`The adopted site at ${inputs.adminUrl} differs from the program: ${line}.`);
  }
  // State holds what the server has: the next `pulumi up` applies the declared log settings.
  if (inputs.logSettings !== undefined && outs.serverLogSettings !== undefined) {
    outs.logSettings = logSettingsAsReported(inputs.logSettings, outs.serverLogSettings);
  }
  return { id: inputs.adminUrl, outs };
}

/**
 * The outputs: the inputs, the machines, the version, and the log settings as the server reports
 * them. Declared log settings the server does not report are written with logs/settings/edit
 * (as DSC does after creating a site); only a created site is changed.
 */
async function outputsOf(
  inputs: SiteInputs,
  state: SiteOutputs["state"],
  info: ServerInfo | undefined,
): Promise<SiteOutputs> {
  const session = sessionOf(inputs);
  const machines = await listMachines(session);
  const outs: SiteOutputs = { ...inputs, state, createdAt: new Date().toISOString(), machines };
  Object.assign(outs, await storageReport(inputs, session));
  // Once a site exists, Video Server's rest/info wants a token (its documentation).
  const version = versionText(
    info ??
      (await serverInfo(inputs.adminUrl, {
        ...transportOf(inputs),
        token: await session.token(),
      }).catch(() => undefined)),
  );
  if (version !== undefined) outs.serverVersion = version;
  try {
    let reported = await getLogSettings(session);
    const wanted = inputs.logSettings;
    if (state === "created" && wanted !== undefined && logSettingsDiffer(reported, wanted)) {
      await editLogSettings(session, wanted);
      reported = await getLogSettings(session);
    }
    outs.serverLogSettings = reportedLogSettings(reported);
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(
      `Could not read or apply the log settings of the site at ${inputs.adminUrl}: ` +
        `${error.message}. Check them in the server's administrator directory.`,
    );
  }
  return outs;
}

function logSettingsDiffer(
  reported: Record<string, unknown>,
  wanted: NonNullable<SiteInputs["logSettings"]>,
): boolean {
  return (Object.keys(wanted) as Array<keyof typeof wanted>).some(
    (key) => wanted[key] !== undefined && reported[key] !== wanted[key],
  );
}

/**
 * The directories and configuration store as the server reports them, each best effort (a server
 * that does not answer one of them is logged and the output left out).
 */
async function storageReport(
  inputs: SiteInputs,
  session: ReturnType<typeof sessionOf>,
): Promise<Pick<SiteOutputs, "serverDirectories" | "serverConfigStore">> {
  const report: Pick<SiteOutputs, "serverDirectories" | "serverConfigStore"> = {};
  try {
    report.serverDirectories = (await listDirectories(session)).map((d) => ({
      name: d.name,
      path: d.path,
    }));
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(`Could not read the directories of the site at ${inputs.adminUrl}: ${error.message}`);
  }
  try {
    const store = await getConfigStore(session);
    report.serverConfigStore = {
      ...(store.type === undefined ? {} : { type: store.type }),
      ...(store.connectionString === undefined ? {} : { connectionString: store.connectionString }),
    };
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(
      `Could not read the configuration store of the site at ${inputs.adminUrl}: ${error.message}`,
    );
  }
  return report;
}

/**
 * Each difference between the declared inputs and what the server reports, by name:
 * `logSettings.logLevel: DEBUG declared, WARNING on the server`. Only what the server reports is
 * compared; directory names in any letter case (the server does not tell them apart).
 */
export function siteDrift(inputs: SiteInputs, reported: SiteOutputs): string[] {
  const lines: string[] = [];
  const show = (v: unknown) => JSON.stringify(v);
  if (inputs.logSettings !== undefined && reported.serverLogSettings !== undefined) {
    for (const [key, declared] of Object.entries(inputs.logSettings)) {
      const now = reported.serverLogSettings[key];
      if (declared !== undefined && now !== undefined && now !== declared) {
        lines.push(`logSettings.${key}: ${show(declared)} declared, ${show(now)} on the server`);
      }
    }
  }
  if (inputs.directories !== undefined && reported.serverDirectories !== undefined) {
    for (const dir of inputs.directories) {
      const now = reported.serverDirectories.find(
        (d) => d.name.toLowerCase() === dir.name.toLowerCase(),
      );
      if (now === undefined) lines.push(`directories[${show(dir.name)}]: not on the server`);
      else if (now.path !== dir.physicalPath) {
        lines.push(
          `directories[${show(dir.name)}].physicalPath: ${show(dir.physicalPath)} declared, ` +
            `${show(now.path)} on the server`,
        );
      }
    }
  }
  const store = inputs.configStoreConnection;
  const storeNow = reported.serverConfigStore;
  if (store !== undefined && storeNow !== undefined) {
    if (storeNow.type !== undefined && storeNow.type !== store.type) {
      lines.push(
        `configStoreConnection.type: ${show(store.type)} declared, ${show(storeNow.type)} on the server`,
      );
    }
    if (
      storeNow.connectionString !== undefined &&
      storeNow.connectionString !== store.connectionString
    ) {
      lines.push(
        `configStoreConnection.connectionString: ${show(store.connectionString)} declared, ` +
          `${show(storeNow.connectionString)} on the server`,
      );
    }
  }
  return lines;
}

/** The declared log settings with the values the server reports for the same fields. */
function logSettingsAsReported(
  declared: SiteLogSettings,
  reported: Record<string, string | number | boolean>,
): SiteLogSettings {
  const out: Record<string, unknown> = { ...declared };
  for (const key of Object.keys(declared)) {
    if (reported[key] !== undefined) out[key] = reported[key];
  }
  return out as unknown as SiteLogSettings;
}

/** Plain scalar fields only: outputs must be plain JSON. */
function reportedLogSettings(reported: Record<string, unknown>) {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(reported)) {
    if (["string", "number", "boolean"].includes(typeof value)) {
      out[key] = value as string | number | boolean;
    }
  }
  return out;
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
async function noSiteIsConclusive(
  inputs: SiteInputs,
  status: Extract<SiteStatus, { state: "no-site" }>,
): Promise<true | string> {
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
  const transport = transportOf(inputs);
  const health = await healthCheck(inputs.adminUrl, {
    ...transport,
    serverType: inputs.serverType,
  }).catch(() => undefined);
  if (health?.reportsNoSite === true) return true;
  try {
    await generateToken({
      ...transport,
      tokenUrl: `${inputs.adminUrl.replace(/\/+$/, "")}/generateToken`,
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

function diff(_id: string, olds: SiteOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  // State written before serverType existed is taken to be of the declared product.
  olds = { ...olds, serverType: olds.serverType ?? (news.serverType as ServerType) };
  const changedDefining = SITE_DEFINING_INPUTS.filter((key) => !sameValue(olds[key], news[key]));
  const changedStateOnly = [...CREDENTIAL_INPUTS, ...STATE_ONLY_INPUTS, ...APPLIED_INPUTS].filter(
    (key) => !sameValue(olds[key], news[key]),
  );
  if (changedDefining.length === 0) {
    return { changes: changedStateOnly.length > 0 };
  }
  // Unknown values (preview) are compared again at `pulumi up`, when they are known.
  if (changedDefining.some((key) => containsUnknown(news[key]))) {
    return { changes: true };
  }
  if (olds.deleteSiteOnDestroy === true) {
    return { changes: true, replaces: [...changedDefining], deleteBeforeReplace: true };
  }
  const names = changedDefining.join(", ");
  throw new Error(
    `Cannot change ${names} of the site at ${olds.adminUrl}: the machine is already in a site, ` +
      "and createNewSite cannot run on it again, so the site cannot be updated in place. Revert " +
      "the change; or, to delete the site and create it anew, first set deleteSiteOnDestroy: true " +
      "and run `pulumi up`, then make the change.",
  );
}

async function update(
  _id: string,
  olds: SiteOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  const news = parseInputs(rawNews);
  if (CREDENTIAL_INPUTS.some((key) => !sameValue(olds[key], news[key]))) {
    await proveCredentials(news);
  }
  const outs = withStateOnlyChanges(olds, news, [
    ...CREDENTIAL_INPUTS,
    ...STATE_ONLY_INPUTS,
    ...APPLIED_INPUTS,
  ]);
  if (news.logSettings !== undefined && !sameValue(olds.logSettings, news.logSettings)) {
    const session = sessionOf(news);
    try {
      await editLogSettings(session, news.logSettings);
      outs.serverLogSettings = reportedLogSettings(await getLogSettings(session));
    } catch (error) {
      throw new Error(failureMessage("logs/settings/edit", news.adminUrl, error), {
        cause: error,
      });
    }
    logInfo(`Applied logSettings to the site at ${news.adminUrl} (logs/settings/edit).`);
  }
  return { outs };
}

/**
 * Before new credentials replace the old ones in state (destroy will use them), proves that they
 * obtain an administrator token. This resource never changes the password on the server.
 */
async function proveCredentials(inputs: SiteInputs): Promise<void> {
  const session = createAdminSession({
    adminUrl: inputs.adminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transportOf(inputs),
  });
  try {
    await session.token();
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

async function read(id: string, props: SiteOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = parseInputs(props);
  const status = await siteStatus(inputs.adminUrl, transportOf(inputs));
  if (status.state === "unreachable") {
    throw new Error(
      `Cannot refresh the site at ${inputs.adminUrl}: ${status.error.message}. Nothing was ` +
        "changed in state.",
    );
  }
  if (status.state === "no-site") {
    const conclusive = await noSiteIsConclusive(inputs, status);
    if (conclusive !== true) {
      throw new Error(
        `Cannot refresh the site at ${inputs.adminUrl}: the server does not confirm that the ` +
          `site is gone (${conclusive}). Nothing was changed in state. If the site was deleted, ` +
          "remove it from the stack with `pulumi state delete <urn>`.",
      );
    }
    logInfo(`The machine at ${inputs.adminUrl} is no longer in a site.`);
    return {};
  }
  // What the server has now: state follows it, so that `pulumi refresh` shows drift and the next
  // `pulumi up` corrects what it can (log settings) and refuses what it cannot (the rest).
  const session = sessionOf(inputs);
  const now: SiteOutputs = { ...props };
  try {
    now.machines = await listMachines(session);
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(`Could not list the machines of the site at ${inputs.adminUrl}: ${error.message}`);
  }
  const version = versionText(
    await serverInfo(inputs.adminUrl, {
      ...transportOf(inputs),
      token: await session.token().catch(() => undefined),
    }).catch(() => undefined),
  );
  if (version !== undefined) now.serverVersion = version;
  try {
    now.serverLogSettings = reportedLogSettings(await getLogSettings(session));
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(`Could not read the log settings of the site at ${inputs.adminUrl}: ${error.message}`);
  }
  Object.assign(now, await storageReport(inputs, session));
  const drift = siteDrift(inputs, now);
  for (const line of drift) {
    logWarn(`The site at ${inputs.adminUrl} differs from state: ${line}.`);
  }
  if (inputs.logSettings !== undefined && now.serverLogSettings !== undefined) {
    now.logSettings = logSettingsAsReported(inputs.logSettings, now.serverLogSettings);
  }
  return { id, props: now };
}

async function remove(_id: string, props: SiteOutputs, timing: SiteTiming): Promise<void> {
  const inputs = parseInputs(props);
  if (!inputs.deleteSiteOnDestroy) {
    logInfo(
      `The site at ${inputs.adminUrl} was left running and is no longer managed by this stack ` +
        "(deleteSiteOnDestroy is false).",
    );
    return;
  }
  const transport = transportOf(inputs);
  const status = await siteStatus(inputs.adminUrl, transport);
  if (status.state === "unreachable") {
    throw new Error(
      `Cannot delete the site at ${inputs.adminUrl}: ${status.error.message}. deleteSite was ` +
        "not sent and the site stays in the stack; run `pulumi destroy` again once the server " +
        "answers.",
    );
  }
  if (status.state === "no-site") {
    const conclusive = await noSiteIsConclusive(inputs, status);
    if (conclusive === true) {
      logInfo(`The machine at ${inputs.adminUrl} is in no site already; nothing to delete.`);
      return;
    }
    throw new Error(
      `Cannot delete the site at ${inputs.adminUrl}: the server does not confirm that the site ` +
        `is gone (${conclusive}). deleteSite was not sent and the site stays in the stack. If ` +
        "it was deleted, remove it with `pulumi state delete <urn>`.",
    );
  }
  const session = sessionOf(inputs, transport);
  const progress = new ProgressReporter(
    `deleteSite on ${inputs.adminUrl}`,
    inputs.timeouts.createMs,
  );
  try {
    // An export holds the site: wait for it rather than fail the destroy.
    await retryWhile(
      (error) => hasServerCode(error, 409),
      {
        deadline: Date.now() + inputs.timeouts.createMs,
        baseDelay: timing.deleteRetryBaseMs,
        maxDelay: timing.deleteRetryMaxMs,
        onRetry: () => progress.tick("an export holds the site configuration"),
      },
      () => deleteSite(session),
    );
  } catch (error) {
    throw new Error(failureMessage("deleteSite", inputs.adminUrl, error), { cause: error });
  }
  logInfo(`Deleted the site at ${inputs.adminUrl}.`);
}

function implementationWith(timing: SiteTiming): ResourceImplementation {
  return {
    check: async (_olds: unknown, news: unknown) =>
      checkInputs(siteInputsSchema(), news, allCrossChecks),
    diff: async (id: string, olds: SiteOutputs, news: unknown) => diff(id, olds, news),
    create: (raw: unknown) => create(raw, timing),
    read,
    update,
    delete: (id: string, props: SiteOutputs) => remove(id, props, timing),
  };
}

/**
 * The Site implementation the host runs. Loaded by package name at run time through
 * {@link siteProvider}; tests call it directly.
 *
 * @internal
 */
export const implementation: ResourceImplementation = implementationWith(DEFAULT_SITE_TIMING);

/**
 * The Site implementation polling with other intervals, so that tests need not wait 700 ms
 * between two looks in real time. A stack never uses it.
 *
 * @internal
 */
export function withTiming(timing: Partial<SiteTiming>): ResourceImplementation {
  return implementationWith({ ...DEFAULT_SITE_TIMING, ...timing });
}

/** The serialized provider of `Site`: about 3 KB that load {@link implementation}. */
export const siteProvider = lazyProvider("site");

/** Arguments of a {@link Site}. Every field accepts a `pulumi.Input`. */
export interface SiteArgs {
  /**
   * The product: `mission-server` (default), `arcgis-server`, `notebook-server` or
   * `video-server`. It decides the form of createNewSite, the directory types and the health
   * check; a server whose answers show another product is refused before createNewSite.
   */
  serverType?: pulumi.Input<ServerType>;
  /**
   * Administrative root of the server, e.g. `https://gis.example.com:20443/arcgis/admin`.
   * Default: `connection.adminUrl`, stack config `arcgis-admin:adminUrl`, `ARCGIS_ADMIN_URL`.
   */
  adminUrl?: pulumi.Input<string>;
  /**
   * Name of the site's primary administrator, set by createNewSite. Default:
   * `connection.username`, `arcgis-admin:username`, `ARCGIS_ADMIN_USERNAME`.
   */
  username?: pulumi.Input<string>;
  /**
   * Password of the primary administrator. Stored only as a secret. Default:
   * `connection.password`, `arcgis-admin:password` (secret), `ARCGIS_ADMIN_PASSWORD`.
   */
  password?: pulumi.Input<string>;
  /** A server connection declared once (see {@link ServerConnection}); the arguments above win. */
  connection?: ServerConnection;
  /** Configuration store; omitted, the server keeps it in its installation directory. */
  configStoreConnection?: pulumi.Input<InputsOf<SiteConfigStoreConnection>>;
  /** Server directories; omitted, the server creates them locally. */
  directories?: pulumi.Input<pulumi.Input<InputsOf<SiteDirectory>>[]>;
  /** Log settings; omitted, the server's defaults apply. */
  logSettings?: pulumi.Input<InputsOf<SiteLogSettings>>;
  /**
   * Ask the server to create the site asynchronously and follow it by polling (default false:
   * one synchronous request, as Esri's tools send, bounded by timeouts.createMs).
   */
  runAsync?: pulumi.Input<boolean>;
  /** Adopt a site that already exists on the machine instead of failing (default false). */
  adoptExisting?: pulumi.Input<boolean>;
  /** Delete the site (deleteSite) when the resource is destroyed (default false: leave it). */
  deleteSiteOnDestroy?: pulumi.Input<boolean>;
  /**
   * TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. Default:
   * `connection.tls`, `arcgis-admin:caCert` / `arcgis-admin:insecureSkipVerify`,
   * `ARCGIS_ADMIN_CA_CERT` / `ARCGIS_ADMIN_INSECURE_SKIP_VERIFY`.
   */
  tls?: TlsArgs;
  /** How long to wait for the server to answer, and for creation to complete (milliseconds). */
  timeouts?: pulumi.Input<InputsOf<Partial<SiteTimeouts>>>;
}

/**
 * A site of a Mission, ArcGIS, Notebook or Video Server, created with
 * `POST {admin_root}/createNewSite` on a machine that is in no site yet.
 *
 * @example
 * ```ts
 * const site = new Site("site", {
 *   adminUrl: "https://gis.example.com:20443/arcgis/admin",
 *   username: "siteadmin",
 *   password: config.requireSecret("sitePassword"),
 *   tls: { caCert: config.require("caCert") },
 * });
 * ```
 */
export class Site extends pulumi.dynamic.Resource {
  /** The product the site was created on (`mission-server`, `arcgis-server`, ...). */
  declare public readonly serverType: pulumi.Output<ServerType>;
  /** The administrative root the site was created on. */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The primary administrator's name. */
  declare public readonly username: pulumi.Output<string>;
  /** The primary administrator's password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** The configuration store as declared (a secret when it has a connectionSecret). */
  declare public readonly configStoreConnection: pulumi.Output<
    SiteConfigStoreConnection | undefined
  >;
  /** The server directories as declared. */
  declare public readonly directories: pulumi.Output<SiteDirectory[] | undefined>;
  /** The log settings as declared. */
  declare public readonly logSettings: pulumi.Output<SiteLogSettings | undefined>;
  /** Whether createNewSite was asked to work asynchronously. */
  declare public readonly runAsync: pulumi.Output<boolean>;
  /** Whether an existing site may be adopted. */
  declare public readonly adoptExisting: pulumi.Output<boolean>;
  /** Whether destroy deletes the site. */
  declare public readonly deleteSiteOnDestroy: pulumi.Output<boolean>;
  /** The TLS settings used to reach the server. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The time limits, defaults filled in (milliseconds). */
  declare public readonly timeouts: pulumi.Output<SiteTimeouts>;
  /** "created" when this resource created the site, "adopted" when it adopted an existing one. */
  declare public readonly state: pulumi.Output<"created" | "adopted">;
  /** When the site was created or adopted (ISO 8601). */
  declare public readonly createdAt: pulumi.Output<string>;
  /** Names of the site's machines, as the server reports them. */
  declare public readonly machines: pulumi.Output<string[]>;
  /** The server's version as rest/info reports it (`fullVersion`, else `currentVersion`). */
  declare public readonly serverVersion: pulumi.Output<string | undefined>;
  /** The log settings as the server reports them (its own field names and values). */
  declare public readonly serverLogSettings: pulumi.Output<
    Record<string, string | number | boolean> | undefined
  >;
  /** The server directories as the server reports them (refreshed). */
  declare public readonly serverDirectories: pulumi.Output<SiteReportedDirectory[] | undefined>;
  /** Where the server reports its configuration store (refreshed). */
  declare public readonly serverConfigStore: pulumi.Output<SiteReportedConfigStore | undefined>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the site to create; see {@link SiteArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteArgs, opts?: pulumi.CustomResourceOptions) {
    const { connection: _connection, ...own } = args;
    const connection = resolveServerConnection("Site", name, args);
    super(
      siteProvider,
      name,
      {
        // Every output is listed, so that each is a property of the resource even when its
        // input is not given (Pulumi makes an output of each key).
        serverType: args.serverType,
        directories: args.directories,
        logSettings: args.logSettings,
        runAsync: args.runAsync,
        adoptExisting: args.adoptExisting,
        deleteSiteOnDestroy: args.deleteSiteOnDestroy,
        timeouts: args.timeouts,
        ...own,
        ...connection,
        // A cloud store's credentials make the whole connection a secret; a file share path
        // alone stays readable in previews and outputs.
        configStoreConnection:
          args.configStoreConnection === undefined
            ? undefined
            : pulumi
                .output(args.configStoreConnection)
                .apply((c) => (c.connectionSecret === undefined ? c : pulumi.secret(c))),
        state: undefined,
        createdAt: undefined,
        machines: undefined,
        serverVersion: undefined,
        serverLogSettings: undefined,
        serverDirectories: undefined,
        serverConfigStore: undefined,
      },
      resourceOptions("Site", name, opts, ["password"]),
      TYPE_MODULE,
      "Site",
    );
  }
}

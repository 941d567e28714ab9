/**
 * `SiteExport`: a one-shot export of a site's configuration with `exportSite`, as a Pulumi dynamic
 * resource.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  cleanUrl,
  createAdminSession,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  downloadExport,
  exportSite,
  hasServerCode,
  isArcGISRequestError,
  retryWhile,
  SERVER_TYPES,
  serverInfo,
  serverProduct,
  type ServerType,
  verifyArchive,
} from "../client";
import { lazyProvider, type ResourceImplementation, withoutProvider } from "./lazy-provider";
import { type CheckFailure, checkInputs, parseValidInputs } from "./input-check";
import { httpUrlSchema, nonEmpty, timeoutMsSchema, tlsSchema } from "./input-schemas";
import { sameValue, withStateOnlyChanges } from "./state-diff";
import { type InputsOf, type TlsArgs, type TlsSettings, transportFor } from "./tls";
import { failureMessage, logInfo, logWarn, messageOf } from "./log";
import { ProgressReporter } from "./progress";
import { resourceOptions, TYPE_MODULE } from "./resource-options";
import { resolveServerConnection, type ServerConnection } from "./connection";

/** Default bound on an export, including the time spent waiting for a lock held by another. */
export const DEFAULT_EXPORT_MS = 30 * 60_000;

/** Inputs of a `SiteExport` whose values are known. */
export interface SiteExportInputs {
  /** The product: `mission-server`, `arcgis-server`, `notebook-server` or `video-server`. */
  serverType: ServerType;
  /** The administrative root of the server. */
  adminUrl: string;
  /** An administrator of the site. */
  username: string;
  /** That administrator's password (a secret). */
  password: string;
  /** A folder on the server the archive is written to. */
  location?: string;
  /** A local folder the archive is downloaded to. */
  downloadTo?: string;
  /** Any values: a change exports again. */
  triggers?: unknown[];
  /** With downloadTo: whether a missing local copy is accepted on refresh (ephemeral runners). */
  allowMissingDownload?: boolean;
  /**
   * The largest archive `downloadTo` accepts, in bytes (default 4 GiB). Filled in by check();
   * absent in state written before it existed.
   */
  maxDownloadBytes?: number;
  /** How the server's certificate is checked. */
  tls?: TlsSettings;
  /** Time limits, in milliseconds. */
  timeouts: SiteExportTimeouts;
}

/** Time limits of a `SiteExport` (the `timeouts` argument and output). */
export interface SiteExportTimeouts {
  /**
   * How long the whole export may take, in ms: waiting for another export to release the site,
   * the export and the download (default 1 800 000: 30 minutes).
   */
  exportMs: number;
}

/** Outputs of a `SiteExport` as stored in state. */
export interface SiteExportOutputs extends SiteExportInputs {
  /** The server path of the archive, or the URL it can be downloaded from. */
  location: string;
  /** The `location` input (a server folder), when one was given. */
  requestedLocation?: string;
  /** The archive's file name, e.g. `20250101-120000-UTC.agssite`. */
  fileName: string;
  /** When the export was made (ISO 8601). */
  exportedAt: string;
  /** With downloadTo: the downloaded archive's local path. */
  localPath?: string;
  /** With downloadTo: the archive's size in bytes. */
  sizeBytes?: number;
  /** With downloadTo: the archive's SHA-256 (hex). */
  sha256?: string;
  /** The server's version as `rest/info` reports it, when it could be read. */
  serverVersion?: string;
}

/**
 * The zod schema of the SiteExport inputs.
 *
 * @internal
 */
export function siteExportInputsSchema() {
  return z.strictObject({
    serverType: z
      .enum(SERVER_TYPES, { message: `must be one of ${SERVER_TYPES.join(", ")}` })
      .default("mission-server"),
    adminUrl: httpUrlSchema(),
    username: nonEmpty(),
    password: nonEmpty(),
    location: nonEmpty().optional(),
    downloadTo: nonEmpty().optional(),
    triggers: z.array(z.unknown()).optional(),
    allowMissingDownload: z.boolean().optional(),
    maxDownloadBytes: z
      .number()
      .int()
      .positive({ message: "must be a positive number of bytes" })
      .default(DEFAULT_MAX_DOWNLOAD_BYTES),
    tls: tlsSchema(),
    timeouts: z
      .strictObject({ exportMs: timeoutMsSchema(DEFAULT_EXPORT_MS) })
      .default({ exportMs: DEFAULT_EXPORT_MS }),
  });
}

/** Rules across fields, reported together with the per-field problems. */
export function siteExportCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  if (values.location !== undefined && values.downloadTo !== undefined) {
    return [
      {
        property: "downloadTo",
        reason:
          "cannot be combined with location: the server answers a download URL only when " +
          "location is omitted",
      },
    ];
  }
  return [];
}

/** Inputs whose change means a new export (a replacement). */
const REPLACING_INPUTS = ["adminUrl", "location", "downloadTo", "triggers"] as const;
/** Inputs whose change only updates state. */
const STATE_ONLY_INPUTS = [
  "serverType",
  "username",
  "password",
  "maxDownloadBytes",
  "allowMissingDownload",
  "tls",
  "timeouts",
] as const;

/** Keys that exist only in outputs: left out when outputs are read back as inputs. */
const OUTPUT_ONLY_KEYS = [
  "fileName",
  "exportedAt",
  "localPath",
  "sizeBytes",
  "sha256",
  "serverVersion",
] as const;

function parseInputs(raw: unknown): SiteExportInputs {
  const values = withoutProvider(raw);
  // In outputs, `location` is the server's answer and the input is `requestedLocation`.
  if (values.requestedLocation !== undefined) values.location = values.requestedLocation;
  else if (values.fileName !== undefined) delete values.location;
  delete values.requestedLocation;
  return parseValidInputs<SiteExportInputs>(
    "SiteExport",
    siteExportInputsSchema(),
    values,
    OUTPUT_ONLY_KEYS,
    siteExportCrossChecks,
  );
}

/** True when the site is held by another export or administrative change (try again later). */
function isSiteBusy(error: unknown): boolean {
  if (!isArcGISRequestError(error)) return false;
  if (hasServerCode(error, 409)) return true;
  return error.messages.some((m) =>
    /being exported|another administrative operation|try again later/i.test(m),
  );
}

function sessionFor(inputs: SiteExportInputs) {
  return createAdminSession({
    adminUrl: inputs.adminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transportFor(inputs.adminUrl, inputs.tls),
  });
}

async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseInputs(raw);
  const session = sessionFor(inputs);
  const progress = new ProgressReporter(
    `exportSite on ${inputs.adminUrl}`,
    inputs.timeouts.exportMs,
  );
  const version = await requireExportVersion(inputs, session);
  let answer: { location: string };
  try {
    answer = await retryWhile(
      isSiteBusy,
      {
        deadline: Date.now() + inputs.timeouts.exportMs,
        baseDelay: 500,
        maxDelay: 10_000,
        onRetry: () =>
          progress.tick("the site is busy with another export or administrative change"),
      },
      () => exportSite(session, inputs.location === undefined ? {} : { location: inputs.location }),
    );
  } catch (error) {
    if (!isSiteBusy(error)) {
      throw new Error(failureMessage("exportSite", inputs.adminUrl, error), { cause: error });
    }
    throw new Error(
      `exportSite on ${inputs.adminUrl} could not start within timeouts.exportMs ` +
        `(${inputs.timeouts.exportMs} ms): the site stayed busy with another export or ` +
        `administrative change (${messageOf(error)}). Raise timeouts.exportMs or run again.`,
      { cause: error },
    );
  }

  const isUrl = /^https?:\/\//i.test(answer.location);
  const { location: requested, ...rest } = inputs;
  const outs: SiteExportOutputs = {
    ...rest,
    location: answer.location,
    fileName: path.posix.basename(answer.location.replace(/\\/g, "/")),
    exportedAt: new Date().toISOString(),
  };
  if (version !== undefined) outs.serverVersion = version;
  // `location` in state is the server's answer; what the user asked for is kept for diff.
  if (requested !== undefined) outs.requestedLocation = requested;

  if (inputs.downloadTo !== undefined) {
    if (!isUrl) {
      throw new Error(
        `exportSite on ${inputs.adminUrl} wrote ${answer.location} on the server instead of ` +
          "answering a download URL, so there is nothing to download to downloadTo.",
      );
    }
    const local = await download(
      inputs,
      // Relative to the project folder (the provider's working directory), so that the input
      // stays the same string on every machine and a runner's own path never replaces the export.
      path.resolve(inputs.downloadTo),
      session,
      answer.location,
      progress.elapsed(),
    );
    Object.assign(outs, {
      fileName: local.fileName,
      localPath: local.path,
      sizeBytes: local.sizeBytes,
      sha256: local.sha256,
    });
  }
  return { id: answer.location, outs };
}

/**
 * Reads the server's version and refuses an export on a server older than exportSite (ArcGIS
 * Server 10.2, Mission Server 10.8, Notebook Server 10.7, Video Server 11.3). An unreadable
 * version is reported and the export goes on.
 */
async function requireExportVersion(
  inputs: SiteExportInputs,
  session: ReturnType<typeof sessionFor>,
): Promise<string | undefined> {
  const product = serverProduct(inputs.serverType);
  try {
    // A site exists: Video Server's rest/info then wants a token (its documentation).
    const info = await serverInfo(inputs.adminUrl, {
      ...transportFor(inputs.adminUrl, inputs.tls, { timeouts: { headersMs: 30_000 } }),
      // Best effort: without a token (no site yet, wrong credentials) rest/info still answers
      // on every product but a Video Server site, and exportSite then reports the real problem.
      token: await session.token().catch(() => undefined),
    });
    const version = info.fullVersion ?? String(info.currentVersion);
    if (info.currentVersion < product.exportSiteSince) {
      throw new Error(
        `The ${product.label} at ${inputs.adminUrl} is version ${version}; exportSite exists ` +
          `from ${product.exportSiteSince}. Nothing was sent. Upgrade the server, or check ` +
          "serverType.",
      );
    }
    return version;
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code === "TLS") throw error;
    logWarn(
      `Could not read the version of ${inputs.adminUrl} from rest/info (${error.message}); ` +
        "going on without checking that it has exportSite.",
    );
    return undefined;
  }
}

/**
 * Streams the archive to downloadTo, within what is left of timeouts.exportMs (it bounds the whole
 * export, download included: a server trickling a byte every few seconds never trips the idle
 * limit) and within maxDownloadBytes (an endless body must not fill the disk).
 */
async function download(
  inputs: SiteExportInputs,
  downloadTo: string,
  session: ReturnType<typeof sessionFor>,
  url: string,
  elapsedMs: number,
) {
  const remainingMs = Math.max(1, inputs.timeouts.exportMs - elapsedMs);
  const deadline = AbortSignal.timeout(remainingMs);
  try {
    return await downloadExport(
      session,
      url,
      downloadTo,
      transportFor(inputs.adminUrl, inputs.tls, {
        timeouts: { connectMs: 10_000, headersMs: 120_000, bodyMs: 300_000 },
        signal: deadline,
        maxDownloadBytes: inputs.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
      }),
    );
  } catch (error) {
    if (deadline.aborted) {
      throw new Error(
        `Downloading the export ${cleanUrl(url)} to ${downloadTo} did not complete within ` +
          `timeouts.exportMs (${inputs.timeouts.exportMs} ms), which bounds the whole export, ` +
          "download included. The partial file was removed. Raise timeouts.exportMs if the " +
          "server is just slow.",
        { cause: error },
      );
    }
    throw error;
  }
}

function diff(_id: string, olds: SiteExportOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  // `location` in state is the server's answer; the user's input is kept as `requestedLocation`.
  const oldInputs: Record<string, unknown> = { ...olds, location: olds.requestedLocation };
  const replaces = REPLACING_INPUTS.filter((key) => !sameValue(oldInputs[key], news[key]));
  const updates = STATE_ONLY_INPUTS.filter((key) => !sameValue(oldInputs[key], news[key]));
  if (replaces.length > 0) return { changes: true, replaces: [...replaces] };
  return { changes: updates.length > 0 };
}

async function update(
  _id: string,
  olds: SiteExportOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: withStateOnlyChanges(olds, parseInputs(rawNews), STATE_ONLY_INPUTS) };
}

async function read(id: string, props: SiteExportOutputs): Promise<pulumi.dynamic.ReadResult> {
  if (props.localPath === undefined || props.sha256 === undefined) return { id, props };
  if (props.allowMissingDownload === true && !fs.existsSync(props.localPath)) {
    // On an ephemeral runner the download folder is gone with the runner; the export on the
    // server side is what was asked for, so it is kept rather than made again.
    logInfo(
      `The downloaded export ${props.localPath} is not on this machine; kept in state ` +
        "(allowMissingDownload).",
    );
    return { id, props };
  }
  try {
    const local = await verifyArchive(props.localPath);
    if (local.sha256 === props.sha256) return { id, props };
    logWarn(
      `The downloaded export ${props.localPath} changed since it was downloaded; the next ` +
        "`pulumi up` exports again.",
    );
  } catch (error) {
    logWarn(
      `The downloaded export ${props.localPath} is missing or unreadable (${messageOf(error)}); ` +
        "the next `pulumi up` exports again.",
    );
  }
  return {};
}

async function remove(_id: string, props: SiteExportOutputs): Promise<void> {
  const where = props.localPath ?? props.location;
  logInfo(
    `Kept the site export ${where}: backups must outlive stacks. Delete it yourself when it is ` +
      "no longer needed.",
  );
}

/** The SiteExport implementation the host runs; tests call it directly. */
export const implementation: ResourceImplementation = {
  check: async (_olds: unknown, news: unknown) =>
    checkInputs(siteExportInputsSchema(), news, siteExportCrossChecks),
  diff: async (id: string, olds: SiteExportOutputs, news: unknown) => diff(id, olds, news),
  create,
  read,
  update,
  delete: remove,
};

/** The serialized provider of `SiteExport`. */
export const siteExportProvider = lazyProvider("site-export");

/** Arguments of a {@link SiteExport}. Every field accepts a `pulumi.Input`. */
export interface SiteExportArgs {
  /** The product (typically a Site's `serverType`); default `mission-server`. */
  serverType?: pulumi.Input<ServerType>;
  /**
   * Administrative root of the server (typically a Site's `adminUrl`). Default:
   * `connection.adminUrl`, stack config `arcgis-admin:adminUrl`, `ARCGIS_ADMIN_URL`.
   */
  adminUrl?: pulumi.Input<string>;
  /**
   * An administrator of the site. Default: `connection.username`, `arcgis-admin:username`,
   * `ARCGIS_ADMIN_USERNAME`.
   */
  username?: pulumi.Input<string>;
  /**
   * That administrator's password. Stored only as a secret. Default: `connection.password`,
   * `arcgis-admin:password` (secret), `ARCGIS_ADMIN_PASSWORD`.
   */
  password?: pulumi.Input<string>;
  /** A server connection declared once (see {@link ServerConnection}); the arguments above win. */
  connection?: ServerConnection;
  /** A folder on the server to write the archive to; omitted, the server answers a download URL. */
  location?: pulumi.Input<string>;
  /**
   * A local folder to stream the archive to (only without `location`). A relative path is
   * relative to the project folder (where Pulumi.yaml is): prefer it to an absolute path, which
   * differs between CI runners, and a change of `downloadTo` exports again.
   */
  downloadTo?: pulumi.Input<string>;
  /**
   * With downloadTo: on refresh, accept that the local copy is missing (default false: missing
   * means gone, and the next `pulumi up` exports again). For ephemeral CI runners, where the
   * download folder does not outlive the run. A copy that is present but changed still counts as
   * gone.
   */
  allowMissingDownload?: pulumi.Input<boolean>;
  /** Largest archive downloadTo accepts, in bytes (default 4 GiB); a larger one fails. */
  maxDownloadBytes?: pulumi.Input<number>;
  /** Any values: a change exports again (as `triggers` in pulumi-command). */
  triggers?: pulumi.Input<pulumi.Input<unknown>[]>;
  /** TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. */
  tls?: TlsArgs;
  /** How long an export may take, including waiting for another export to finish. */
  timeouts?: pulumi.Input<InputsOf<Partial<SiteExportTimeouts>>>;
}

/**
 * An export of a site's configuration (a backup), made with `POST {admin_root}/exportSite`.
 *
 * @example
 * ```ts
 * const backup = new SiteExport("backup", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   downloadTo: "./backups",
 *   triggers: [release],
 * });
 * ```
 */
export class SiteExport extends pulumi.dynamic.Resource {
  /** The product of the server. */
  declare public readonly serverType: pulumi.Output<ServerType>;
  /** The administrative root the export was made on. */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The administrator's name. */
  declare public readonly username: pulumi.Output<string>;
  /** The administrator's password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** The `location` argument (a server folder), when one was given. */
  declare public readonly requestedLocation: pulumi.Output<string | undefined>;
  /** The local folder of the download, when one was given. */
  declare public readonly downloadTo: pulumi.Output<string | undefined>;
  /** Whether a missing local copy is accepted on refresh. */
  declare public readonly allowMissingDownload: pulumi.Output<boolean | undefined>;
  /** The triggers as given. */
  declare public readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** The largest archive a download accepts, in bytes. */
  declare public readonly maxDownloadBytes: pulumi.Output<number | undefined>;
  /** The TLS settings used to reach the server. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The time limits, defaults filled in (milliseconds). */
  declare public readonly timeouts: pulumi.Output<SiteExportTimeouts>;
  /** The archive's path on the server, or the URL it was downloaded from. */
  declare public readonly location: pulumi.Output<string>;
  /** The archive's file name (`YYYYMMDD-HHMMSS-UTC.agssite`). */
  declare public readonly fileName: pulumi.Output<string>;
  /** When the export was made (ISO 8601). */
  declare public readonly exportedAt: pulumi.Output<string>;
  /** With downloadTo: where the archive was written locally. */
  declare public readonly localPath: pulumi.Output<string | undefined>;
  /** With downloadTo: the archive's size in bytes. */
  declare public readonly sizeBytes: pulumi.Output<number | undefined>;
  /** With downloadTo: the archive's SHA-256 (hex). */
  declare public readonly sha256: pulumi.Output<string | undefined>;
  /** The server's version as rest/info reports it. */
  declare public readonly serverVersion: pulumi.Output<string | undefined>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - what to export and where; see {@link SiteExportArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteExportArgs, opts?: pulumi.CustomResourceOptions) {
    const { connection: _connection, ...own } = args;
    const connection = resolveServerConnection("SiteExport", name, args);
    super(
      siteExportProvider,
      name,
      {
        // Every output is listed, so that each is a property of the resource.
        serverType: args.serverType,
        location: args.location,
        requestedLocation: undefined,
        downloadTo: args.downloadTo,
        triggers: args.triggers,
        allowMissingDownload: args.allowMissingDownload,
        maxDownloadBytes: args.maxDownloadBytes,
        timeouts: args.timeouts,
        ...own,
        ...connection,
        fileName: undefined,
        exportedAt: undefined,
        localPath: undefined,
        sizeBytes: undefined,
        sha256: undefined,
        serverVersion: undefined,
      },
      resourceOptions("SiteExport", name, opts, ["password"]),
      TYPE_MODULE,
      "SiteExport",
    );
  }
}

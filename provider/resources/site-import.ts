/**
 * `SiteImport`: restores a site's configuration from an archive made by exportSite
 * (`importSite`), as a Pulumi dynamic resource. Reads top-down as its lifecycle: inputs, check,
 * create (fingerprint, upload, import, a lost answer), diff, update, read, delete.
 *
 * A restore does not bring back what the export leaves out (the spec's "Excluded from the
 * export"): cache tiles and tiling schemes; data used by services unless it was copied to the
 * server at publish time; dynamically generated map images and other temporary output; log
 * messages, including geoprocessing job statuses and messages; statistics data; web adaptor
 * configurations; the primary site administrator's name and password (the administrator in place
 * at the time of the restore stays in use).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  createAdminSession,
  hasServerCode,
  importSite,
  isArcGISRequestError,
  isTransientError,
  listUploadedItems,
  retryWhile,
  SERVER_TYPES,
  uploadItem,
  waitForImport,
  type AdminSession,
  type ServerType,
} from "../client";
import { lazyProvider, type ResourceImplementation, withoutProvider } from "./lazy-provider";
import { type CheckFailure, checkInputs, parseValidInputs } from "./input-check";
import { httpUrlSchema, nonEmpty, timeoutMsSchema, tlsSchema } from "./input-schemas";
import { sameValue, withStateOnlyChanges } from "./state-diff";
import { type TlsArgs, type TlsSettings, transportFor } from "./tls";
import { failureMessage, logInfo, logWarn, messageOf } from "./log";
import { ProgressReporter } from "./progress";
import { resourceOptions, TYPE_MODULE } from "./resource-options";

/** Default bound on an import, including waiting while an export or import holds the site. */
export const DEFAULT_IMPORT_MS = 60 * 60_000;

/** What the restore leaves out (the spec's "Excluded from the export"). */
export const NOT_RESTORED = [
  "Cache tiles and tiling schemes",
  "Data used by services, unless it was copied to the server automatically at publish time",
  "Dynamically generated map images and other temporary output",
  "Log messages, including geoprocessing job statuses and messages",
  "Statistics data",
  "Web adaptor configurations",
  "The primary site administrator's name and password (the one in place at the restore stays)",
] as const;

/** Inputs of a `SiteImport` whose values are known. */
export interface SiteImportInputs {
  serverType: ServerType;
  adminUrl: string;
  username: string;
  password: string;
  /** The archive as the server reads it: a path, or the id of an uploaded item. */
  location?: string;
  /** A local archive, uploaded first. */
  localArchive?: string;
  /** SHA-256 (hex) of the archive, when known (e.g. a SiteExport's `sha256`). */
  archiveSha256?: string;
  triggers?: unknown[];
  tls?: { caCert?: string; insecureSkipVerify?: boolean };
  timeouts: { importMs: number };
}

/** Outputs of a `SiteImport` as stored in state. */
export interface SiteImportOutputs extends SiteImportInputs {
  /** What identifies the archive: `sha256:<hex>`, or `location:<path or id>` without a hash. */
  fingerprint: string;
  /** With localArchive: the id of the uploaded item the import read. */
  uploadedItemId?: string;
  /** `imported` (the server answered success) or `answer-lost` (sent once, answer lost). */
  outcome: "imported" | "answer-lost";
  importedAt: string;
  /** The server's answer without `status` (its report; shape undocumented), as JSON text. */
  report?: string;
}

/**
 * The zod schema of the SiteImport inputs.
 *
 * @internal
 */
export function siteImportInputsSchema() {
  return z.strictObject({
    serverType: z
      .enum(SERVER_TYPES, { message: `must be one of ${SERVER_TYPES.join(", ")}` })
      .default("mission-server"),
    adminUrl: httpUrlSchema(),
    username: nonEmpty(),
    password: nonEmpty(),
    location: nonEmpty().optional(),
    localArchive: nonEmpty().optional(),
    archiveSha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, { message: "must be a SHA-256 in hex (64 digits)" })
      .optional(),
    triggers: z.array(z.unknown()).optional(),
    tls: tlsSchema(),
    timeouts: z
      .strictObject({ importMs: timeoutMsSchema(DEFAULT_IMPORT_MS) })
      .default({ importMs: DEFAULT_IMPORT_MS }),
  });
}

/** Exactly one archive. */
export function siteImportCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  if ((values.location === undefined) === (values.localArchive === undefined)) {
    return [
      {
        property: "location",
        reason:
          "give exactly one of location (a path the server can read, or an uploaded item's id) " +
          "and localArchive (a local file, uploaded first)",
      },
    ];
  }
  return [];
}

/** Inputs whose change only updates state. */
const STATE_ONLY_INPUTS = ["username", "password", "tls", "timeouts"] as const;
/** Keys that exist only in outputs. */
const OUTPUT_ONLY_KEYS = [
  "fingerprint",
  "uploadedItemId",
  "outcome",
  "importedAt",
  "report",
] as const;

function parseInputs(raw: unknown): SiteImportInputs {
  return parseValidInputs<SiteImportInputs>(
    "SiteImport",
    siteImportInputsSchema(),
    raw,
    OUTPUT_ONLY_KEYS,
    siteImportCrossChecks,
  );
}

function sessionFor(inputs: SiteImportInputs): AdminSession {
  return createAdminSession({
    adminUrl: inputs.adminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transportFor(inputs.adminUrl, inputs.tls),
  });
}

/** SHA-256 of a local file, streamed. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * The archive's fingerprint: its SHA-256 when it can be known (a local archive is hashed, and must
 * match `archiveSha256` when both are given), else the location the server reads.
 */
async function fingerprintOf(inputs: SiteImportInputs): Promise<string> {
  if (inputs.localArchive !== undefined) {
    let actual: string;
    try {
      actual = await sha256Of(inputs.localArchive);
    } catch (error) {
      throw new Error(`Cannot read localArchive ${inputs.localArchive}: ${messageOf(error)}`, {
        cause: error,
      });
    }
    if (inputs.archiveSha256 !== undefined && inputs.archiveSha256.toLowerCase() !== actual) {
      throw new Error(
        `localArchive ${inputs.localArchive} has SHA-256 ${actual}, not archiveSha256 ` +
          `${inputs.archiveSha256}: it changed since it was made. Nothing was sent.`,
      );
    }
    return `sha256:${actual}`;
  }
  if (inputs.archiveSha256 !== undefined) return `sha256:${inputs.archiveSha256.toLowerCase()}`;
  return `location:${inputs.location ?? ""}`;
}

/** The description the uploaded item carries, so that a later run finds it instead of uploading again. */
function itemDescription(fingerprint: string): string {
  return `pulumi-arcgis-admin site archive ${fingerprint}`;
}

/** True while an export or another import holds the site (the server did not act: try later). */
function isSiteBusy(error: unknown): boolean {
  if (!isArcGISRequestError(error)) return false;
  if (hasServerCode(error, 409)) return true;
  return error.messages.some((m) =>
    /being exported|being imported|another administrative operation|try again later/i.test(m),
  );
}

/** True when importSite's answer may have been lost after the server acted on it. */
function answerMayBeLost(error: unknown): boolean {
  return isArcGISRequestError(error) && (isTransientError(error) || error.code === "BAD_RESPONSE");
}

/**
 * The uploaded item holding this archive: one uploaded earlier with the same fingerprint (an
 * earlier run whose answer was lost, or another stack), else a new upload.
 */
async function uploadOnce(
  inputs: SiteImportInputs,
  session: AdminSession,
  fingerprint: string,
): Promise<string> {
  const description = itemDescription(fingerprint);
  const earlier = (await listUploadedItems(session)).find((i) => i.description === description);
  if (earlier !== undefined) {
    logInfo(
      `The archive ${fingerprint} is already uploaded to ${inputs.adminUrl} as item ${earlier.itemID}; using it.`,
    );
    return earlier.itemID;
  }
  const { itemID } = await uploadItem(session, { file: inputs.localArchive!, description });
  return itemID;
}

/**
 * create: fingerprints the archive, uploads a local one (once), sends importSite once (retried
 * only while an export or another import holds the site, which the server refuses without acting),
 * and records the outcome. After a lost answer importSite is never sent again: the import may
 * still run. The site is watched until it is ready again, and the outcome recorded as
 * `answer-lost`, with a warning.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseInputs(raw);
  const session = sessionFor(inputs);
  const fingerprint = await fingerprintOf(inputs);
  const deadline = Date.now() + inputs.timeouts.importMs;
  const progress = new ProgressReporter(
    `importSite on ${inputs.adminUrl}`,
    inputs.timeouts.importMs,
  );
  let location = inputs.location;
  let uploadedItemId: string | undefined;
  if (inputs.localArchive !== undefined) {
    try {
      uploadedItemId = await uploadOnce(inputs, session, fingerprint);
    } catch (error) {
      throw new Error(
        `${failureMessage("uploads/upload", inputs.adminUrl, error)} Nothing was imported. ` +
          "A server that refuses the .agssite extension for uploads needs it in its allowed " +
          "upload extensions, or give location (a path the server can read) instead.",
        { cause: error },
      );
    }
    location = uploadedItemId;
  }

  const outs: SiteImportOutputs = {
    ...inputs,
    fingerprint,
    outcome: "imported",
    importedAt: "",
    ...(uploadedItemId === undefined ? {} : { uploadedItemId }),
  };
  try {
    const answer = await retryWhile(
      isSiteBusy,
      {
        deadline,
        baseDelay: 1_000,
        maxDelay: 15_000,
        onRetry: () => progress.tick("the site is busy with an export or another import"),
      },
      () => importSite(session, { location: location!, serverType: inputs.serverType }),
    );
    const { status: _status, ...report } = answer;
    if (Object.keys(report).length > 0) outs.report = JSON.stringify(report);
  } catch (error) {
    if (isSiteBusy(error)) {
      throw new Error(
        `importSite on ${inputs.adminUrl} could not start within timeouts.importMs ` +
          `(${inputs.timeouts.importMs} ms): an export or another import held the site the ` +
          `whole time (${messageOf(error)}). Nothing was imported. Raise timeouts.importMs or run again.`,
        { cause: error },
      );
    }
    if (!answerMayBeLost(error)) {
      throw new Error(
        `${failureMessage("importSite", inputs.adminUrl, error)} Nothing was imported.`,
        { cause: error },
      );
    }
    logWarn(
      `The answer to importSite on ${inputs.adminUrl} was lost (${messageOf(error)}). It is not ` +
        "sent again: the import may still run. Waiting for the site to answer as ready.",
    );
    await waitForImport(
      {
        adminUrl: inputs.adminUrl,
        serverType: inputs.serverType,
        username: inputs.username,
        password: inputs.password,
        ...transportFor(inputs.adminUrl, inputs.tls),
      },
      {
        deadline: Math.max(deadline, Date.now() + 1_000),
        pollIntervalMs: 2_000,
        onStatus: (status) => progress.tick(status.detail),
      },
    ).catch((waitError: unknown) => {
      throw new Error(
        `The answer to importSite on ${inputs.adminUrl} was lost (${messageOf(error)}), and the ` +
          `site did not answer as ready within timeouts.importMs (${messageOf(waitError)}). ` +
          "importSite was not sent again. Check the site; the resource was not recorded.",
        { cause: waitError },
      );
    });
    logWarn(
      `The site at ${inputs.adminUrl} answers as ready again after the lost importSite answer. ` +
        "Whether the import ran cannot be read from the server: check the site's configuration. " +
        "Recorded as outcome answer-lost; change triggers to import again.",
    );
    outs.outcome = "answer-lost";
  }
  outs.importedAt = new Date().toISOString();
  return { id: `${inputs.adminUrl.replace(/\/+$/, "")}/importSite#${fingerprint}`, outs };
}

/**
 * diff: importing again (a replacement) only for another site, another archive (by fingerprint: a
 * local archive is hashed again, so a moved file with the same content is the same archive) or
 * changed triggers. Credentials, `tls`, `timeouts` and a new path to the same content only update
 * state. Nothing else counts.
 */
async function diff(
  _id: string,
  olds: SiteImportOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.DiffResult> {
  const news = withoutProvider(rawNews);
  const replaces: string[] = [];
  for (const key of ["adminUrl", "serverType", "triggers"] as const) {
    if (!sameValue(olds[key], news[key])) replaces.push(key);
  }
  const archiveChanged = !(await sameArchive(olds, news));
  if (archiveChanged) {
    replaces.push(news.localArchive !== undefined ? "localArchive" : "location");
  }
  if (replaces.length > 0) return { changes: true, replaces };
  const updates = [...STATE_ONLY_INPUTS, "location", "localArchive", "archiveSha256"].filter(
    (key) => !sameValue((olds as unknown as Record<string, unknown>)[key], news[key]),
  );
  return { changes: updates.length > 0 };
}

/** Whether the new inputs name the archive that was imported (by fingerprint where possible). */
async function sameArchive(
  olds: SiteImportOutputs,
  news: Record<string, unknown>,
): Promise<boolean> {
  const { localArchive, location, archiveSha256 } = news;
  if (typeof localArchive === "string") {
    try {
      return `sha256:${await sha256Of(localArchive)}` === olds.fingerprint;
    } catch {
      // Unreadable now (moved, or unknown during a preview): compare what is declared.
      return localArchive === olds.localArchive;
    }
  }
  if (typeof archiveSha256 === "string") {
    return `sha256:${archiveSha256.toLowerCase()}` === olds.fingerprint;
  }
  return location === olds.location && olds.localArchive === undefined;
}

/** update: state only (an import is never repeated in place). */
async function update(
  _id: string,
  olds: SiteImportOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  return {
    outs: withStateOnlyChanges(olds, parseInputs(rawNews), [
      ...STATE_ONLY_INPUTS,
      "location",
      "localArchive",
      "archiveSha256",
    ]),
  };
}

/** read (refresh): an import is an event in the past; nothing on the server can undo it. */
async function read(id: string, props: SiteImportOutputs): Promise<pulumi.dynamic.ReadResult> {
  return { id, props };
}

/**
 * delete: nothing is sent (an import cannot be undone; restore another archive for that). The
 * uploaded item stays on the server with its description, so that a later SiteImport of the same
 * archive finds it.
 */
async function remove(_id: string, props: SiteImportOutputs): Promise<void> {
  logInfo(
    `Forgot the import of ${props.fingerprint} into ${props.adminUrl}: an import cannot be ` +
      "undone, and nothing was sent to the server." +
      (props.uploadedItemId === undefined
        ? ""
        : ` The uploaded item ${props.uploadedItemId} stays on the server.`),
  );
}

/** The SiteImport implementation the host runs; tests call it directly. */
export const implementation: ResourceImplementation = {
  check: async (_olds: unknown, news: unknown) =>
    checkInputs(siteImportInputsSchema(), news, siteImportCrossChecks),
  diff: async (id: string, olds: SiteImportOutputs, news: unknown) => diff(id, olds, news),
  create,
  read,
  update,
  delete: remove,
};

/** The serialized provider of `SiteImport`. */
export const siteImportProvider = lazyProvider("site-import");

/** Arguments of a {@link SiteImport}. Every field accepts a `pulumi.Input`. */
export interface SiteImportArgs {
  /** The product (typically a Site's `serverType`); default `mission-server`. */
  serverType?: pulumi.Input<ServerType>;
  /**
   * Administrative root of a machine of the site, direct (importSite is not available through a
   * web adaptor, Esri's docs say).
   */
  adminUrl: pulumi.Input<string>;
  /** An administrator of the site (stays the administrator after the restore). */
  username: pulumi.Input<string>;
  /** That administrator's password. Stored only as a secret. */
  password: pulumi.Input<string>;
  /** The archive as the server reads it: a path (e.g. a SiteExport's `location`) or an uploaded item's id. */
  location?: pulumi.Input<string>;
  /** A local archive (e.g. a SiteExport's `localPath`), uploaded to the server first. */
  localArchive?: pulumi.Input<string>;
  /** The archive's SHA-256 (e.g. a SiteExport's `sha256`): checked against localArchive, and the fingerprint of a location. */
  archiveSha256?: pulumi.Input<string>;
  /** Any values: a change imports again (as `triggers` in pulumi-command). */
  triggers?: pulumi.Input<pulumi.Input<unknown>[]>;
  /** TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. */
  tls?: TlsArgs;
  /** How long the import may take, including waiting while an export holds the site. */
  timeouts?: pulumi.Input<{ importMs?: pulumi.Input<number> }>;
}

/**
 * A restore of a site's configuration from an exportSite archive, with
 * `POST {admin_root}/importSite`: the site's configuration (services, security, log settings, ...)
 * is replaced by the archive's. Runs once per archive and site. Does not bring back: cache tiles
 * and tiling schemes, service data not copied to the server at publish time, generated images and
 * temporary output, log messages, statistics data, web adaptor configurations, and the primary
 * administrator's credentials (see {@link NOT_RESTORED}).
 *
 * @example
 * ```ts
 * new SiteImport("restore", {
 *   adminUrl: freshSite.adminUrl,
 *   username: freshSite.username,
 *   password: freshSite.password,
 *   localArchive: backup.localPath,
 *   archiveSha256: backup.sha256,
 * });
 * ```
 */
export class SiteImport extends pulumi.dynamic.Resource {
  /** The product. */
  declare public readonly serverType: pulumi.Output<ServerType>;
  /** The site machine's administrative root. */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The site's administrator. */
  declare public readonly username: pulumi.Output<string>;
  /** The administrator's password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** The archive as the server read it, when given. */
  declare public readonly location: pulumi.Output<string | undefined>;
  /** The local archive uploaded, when given. */
  declare public readonly localArchive: pulumi.Output<string | undefined>;
  /** The archive's SHA-256, when given. */
  declare public readonly archiveSha256: pulumi.Output<string | undefined>;
  /** The values whose change imports again. */
  declare public readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** TLS settings, as declared. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The bound in effect, default filled in (milliseconds). */
  declare public readonly timeouts: pulumi.Output<{ importMs: number }>;
  /** What identifies the imported archive (`sha256:<hex>` or `location:<...>`). */
  declare public readonly fingerprint: pulumi.Output<string>;
  /** `imported`, or `answer-lost` when importSite was sent once and its answer lost. */
  declare public readonly outcome: pulumi.Output<"imported" | "answer-lost">;
  /** When the import ended (ISO 8601). */
  declare public readonly importedAt: pulumi.Output<string>;
  /** With localArchive: the uploaded item's id. */
  declare public readonly uploadedItemId: pulumi.Output<string | undefined>;
  /** The server's report (JSON text), when it gave one. */
  declare public readonly report: pulumi.Output<string | undefined>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - which site and which archive; see {@link SiteImportArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteImportArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      siteImportProvider,
      name,
      {
        // Every output is listed, so that each is a property of the resource even when its
        // input is not given (Pulumi makes an output of each key).
        serverType: args.serverType,
        location: args.location,
        localArchive: args.localArchive,
        archiveSha256: args.archiveSha256,
        triggers: args.triggers,
        tls: args.tls,
        timeouts: args.timeouts,
        ...args,
        password: pulumi.secret(args.password),
        fingerprint: undefined,
        outcome: undefined,
        importedAt: undefined,
        uploadedItemId: undefined,
        report: undefined,
      },
      resourceOptions("SiteImport", name, opts, ["password"]),
      TYPE_MODULE,
      "SiteImport",
    );
  }
}

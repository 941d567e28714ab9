/**
 * `LogSettings`: a site's log settings (`logs/settings`, `logs/settings/edit`) kept as declared,
 * as a Pulumi dynamic resource with an in-place update. Reads top-down as its lifecycle: inputs,
 * check, create, diff, update, read (refresh), delete.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  createAdminSession,
  editLogSettings,
  getLogSettings,
  hasServerCode,
  isArcGISRequestError,
  retryWhile,
  SERVER_TYPES,
  type AdminSession,
  type ServerType,
} from "../client";
import { lazyProvider, type ResourceImplementation, withoutProvider } from "./lazy-provider";
import { type CheckFailure, checkInputs, parseValidInputs } from "./input-check";
import { httpUrlSchema, nonEmpty, timeoutMsSchema, tlsSchema } from "./input-schemas";
import { sameValue } from "./state-diff";
import { type TlsArgs, type TlsSettings, transportFor } from "./tls";
import { failureMessage, logInfo, messageOf } from "./log";
import { resourceOptions, TYPE_MODULE } from "./resource-options";

/** Log levels of every product (ArcGIS Server's list; DSC sends the same names to the others). */
export const LOG_SETTINGS_LEVELS = [
  "OFF",
  "SEVERE",
  "WARNING",
  "INFO",
  "FINE",
  "VERBOSE",
  "DEBUG",
] as const;

/** The settings this resource can manage; a field left out is the server's business. */
export const MANAGED_LOG_FIELDS = [
  "logLevel",
  "logDir",
  "maxErrorReportsCount",
  "maxLogFileAge",
  "usageMeteringEnabled",
] as const;
type ManagedField = (typeof MANAGED_LOG_FIELDS)[number];

/** Default bound on a change, including waiting while an export or import holds the site. */
export const DEFAULT_CHANGE_MS = 10 * 60_000;

/** Log settings as the server reports them (plain scalars only: outputs must be plain JSON). */
export type ReportedLogSettings = Record<string, string | number | boolean>;

/** Inputs of a `LogSettings` whose values are known. */
export interface LogSettingsInputs {
  serverType: ServerType;
  adminUrl: string;
  username: string;
  password: string;
  logLevel?: (typeof LOG_SETTINGS_LEVELS)[number];
  logDir?: string;
  maxErrorReportsCount?: number;
  maxLogFileAge?: number;
  usageMeteringEnabled?: boolean;
  restoreOnDestroy: boolean;
  tls?: { caCert?: string; insecureSkipVerify?: boolean };
  timeouts: { changeMs: number };
}

/** Outputs of a `LogSettings` as stored in state. */
export interface LogSettingsOutputs extends LogSettingsInputs {
  /** The server's settings before the first change: what `restoreOnDestroy` writes back. */
  previousSettings: ReportedLogSettings;
  /** The server's settings as last read (after create, update or refresh). */
  serverLogSettings: ReportedLogSettings;
}

/**
 * The zod schema of the LogSettings inputs.
 *
 * @internal
 */
export function logSettingsInputsSchema() {
  const count = z.number().int().min(0, { message: "must not be negative" });
  return z.strictObject({
    serverType: z
      .enum(SERVER_TYPES, { message: `must be one of ${SERVER_TYPES.join(", ")}` })
      .default("mission-server"),
    adminUrl: httpUrlSchema(),
    username: nonEmpty(),
    password: nonEmpty(),
    logLevel: z
      .enum(LOG_SETTINGS_LEVELS, { message: `must be one of ${LOG_SETTINGS_LEVELS.join(", ")}` })
      .optional(),
    logDir: nonEmpty().optional(),
    maxErrorReportsCount: count.optional(),
    maxLogFileAge: count.optional(),
    usageMeteringEnabled: z.boolean().optional(),
    restoreOnDestroy: z.boolean().default(false),
    tls: tlsSchema(),
    timeouts: z
      .strictObject({ changeMs: timeoutMsSchema(DEFAULT_CHANGE_MS) })
      .default({ changeMs: DEFAULT_CHANGE_MS }),
  });
}

/** Rules across fields, reported together with the per-field problems. */
export function logSettingsCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (MANAGED_LOG_FIELDS.every((field) => values[field] === undefined)) {
    failures.push({
      property: "logLevel",
      reason: `declare at least one of ${MANAGED_LOG_FIELDS.join(", ")}: a LogSettings with none would manage nothing`,
    });
  }
  if (values.serverType === "arcgis-server" && values.usageMeteringEnabled !== undefined) {
    failures.push({
      property: "usageMeteringEnabled",
      reason:
        "ArcGIS Server's logs/settings does not report usageMeteringEnabled (only Mission, " +
        "Notebook and Video Server do); remove it",
    });
  }
  return failures;
}

/** Inputs whose change means another server (a replacement). */
const REPLACING_INPUTS = ["serverType", "adminUrl"] as const;
/** Inputs whose change only updates state. */
const STATE_ONLY_INPUTS = ["username", "password", "restoreOnDestroy", "tls", "timeouts"] as const;
/** Keys that exist only in outputs. */
const OUTPUT_ONLY_KEYS = ["previousSettings", "serverLogSettings"] as const;

function parseInputs(raw: unknown): LogSettingsInputs {
  return parseValidInputs<LogSettingsInputs>(
    "LogSettings",
    logSettingsInputsSchema(),
    raw,
    OUTPUT_ONLY_KEYS,
    logSettingsCrossChecks,
  );
}

function sessionFor(inputs: LogSettingsInputs): AdminSession {
  return createAdminSession({
    adminUrl: inputs.adminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transportFor(inputs.adminUrl, inputs.tls),
  });
}

/** The fields the user declared, with their values. */
function declared(inputs: LogSettingsInputs): Partial<Record<ManagedField, unknown>> {
  const out: Partial<Record<ManagedField, unknown>> = {};
  for (const field of MANAGED_LOG_FIELDS) {
    if (inputs[field] !== undefined) out[field] = inputs[field];
  }
  return out;
}

/** Declared fields whose value the server reports differently. */
function differing(inputs: LogSettingsInputs, reported: ReportedLogSettings): ManagedField[] {
  return MANAGED_LOG_FIELDS.filter(
    (field) => inputs[field] !== undefined && reported[field] !== inputs[field],
  );
}

/** True while an export or import holds the site (try again later). */
function isSiteBusy(error: unknown): boolean {
  if (!isArcGISRequestError(error)) return false;
  if (hasServerCode(error, 409)) return true;
  return error.messages.some((m) =>
    /being exported|being imported|another administrative operation|try again later/i.test(m),
  );
}

async function readSettings(session: AdminSession): Promise<ReportedLogSettings> {
  const reported = await getLogSettings(session);
  const out: ReportedLogSettings = {};
  for (const [key, value] of Object.entries(reported)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Writes `wanted` over what the server reports, every field at once (logs/settings/edit takes the
 * whole set, as DSC sends it), retried while an export or import holds the site, and reads back.
 * A declared field the server still reports otherwise is an error: it did not take the value.
 */
async function apply(
  inputs: LogSettingsInputs,
  session: AdminSession,
  current: ReportedLogSettings,
  wanted: Partial<Record<ManagedField, unknown>>,
): Promise<ReportedLogSettings> {
  const merged = { ...current, ...wanted };
  try {
    await retryWhile(
      isSiteBusy,
      {
        deadline: Date.now() + inputs.timeouts.changeMs,
        baseDelay: 500,
        maxDelay: 10_000,
        onRetry: (_e, delayMs) =>
          logInfo(
            `The site at ${inputs.adminUrl} is busy with an export or import; changing its log ` +
              `settings again in ${Math.round(delayMs)} ms.`,
          ),
      },
      () =>
        editLogSettings(session, {
          logLevel: merged.logLevel as string | undefined,
          logDir: merged.logDir as string | undefined,
          maxErrorReportsCount: merged.maxErrorReportsCount as number | undefined,
          maxLogFileAge: merged.maxLogFileAge as number | undefined,
          usageMeteringEnabled: merged.usageMeteringEnabled as boolean | undefined,
        }),
    );
  } catch (error) {
    if (!isSiteBusy(error)) {
      throw new Error(failureMessage("logs/settings/edit", inputs.adminUrl, error), {
        cause: error,
      });
    }
    throw new Error(
      `The log settings of ${inputs.adminUrl} could not be changed within timeouts.changeMs ` +
        `(${inputs.timeouts.changeMs} ms): an export or import held the site the whole time ` +
        `(${messageOf(error)}). Nothing was changed. Raise timeouts.changeMs or run again.`,
      { cause: error },
    );
  }
  const after = await readSettings(session);
  const ignored = (Object.keys(wanted) as ManagedField[]).filter((f) => after[f] !== wanted[f]);
  if (ignored.length > 0) {
    throw new Error(
      `logs/settings/edit on ${inputs.adminUrl} answered success, but the server reports ` +
        ignored
          .map((f) => `${f} ${JSON.stringify(after[f])} (wanted ${JSON.stringify(wanted[f])})`)
          .join(", ") +
        ".",
    );
  }
  return after;
}

/**
 * create: reads the settings (recorded as `previousSettings` for `restoreOnDestroy`), writes the
 * declared fields where the server reports others, and reads them back.
 */
async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseInputs(raw);
  const session = sessionFor(inputs);
  let previous: ReportedLogSettings;
  try {
    previous = await readSettings(session);
  } catch (error) {
    throw new Error(failureMessage("logs/settings", inputs.adminUrl, error), { cause: error });
  }
  const serverLogSettings =
    differing(inputs, previous).length === 0
      ? previous
      : await apply(inputs, session, previous, declared(inputs));
  const outs: LogSettingsOutputs = { ...inputs, previousSettings: previous, serverLogSettings };
  return { id: `${inputs.adminUrl.replace(/\/+$/, "")}/logs/settings`, outs };
}

/**
 * diff: another server is a replacement; a declared field that differs from state (where refresh
 * records what the server reports) is an in-place update, as is a credential, `tls`,
 * `restoreOnDestroy` or `timeouts` change (state only). Nothing else counts.
 */
function diff(_id: string, olds: LogSettingsOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const replaces = REPLACING_INPUTS.filter((key) => !sameValue(olds[key], news[key]));
  if (replaces.length > 0) return { changes: true, replaces: [...replaces] };
  const changed = [...MANAGED_LOG_FIELDS, ...STATE_ONLY_INPUTS].filter(
    (key) => !sameValue(olds[key], news[key]),
  );
  return { changes: changed.length > 0 };
}

/**
 * update: writes the declared fields the server reports differently (none after a state-only
 * change: then the read only proves the new credentials work), keeping `previousSettings`.
 */
async function update(
  _id: string,
  olds: LogSettingsOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  const inputs = parseInputs(rawNews);
  const session = sessionFor(inputs);
  let current: ReportedLogSettings;
  try {
    current = await readSettings(session);
  } catch (error) {
    throw new Error(
      `${failureMessage("logs/settings", inputs.adminUrl, error)} Nothing was changed; state ` +
        "keeps the previous values.",
      { cause: error },
    );
  }
  const serverLogSettings =
    differing(inputs, current).length === 0
      ? current
      : await apply(inputs, session, current, declared(inputs));
  const outs: LogSettingsOutputs = {
    ...inputs,
    previousSettings: olds.previousSettings ?? current,
    serverLogSettings,
  };
  return { outs };
}

/**
 * read (refresh): records what the server reports, and for each declared field the server's value
 * (in the outputs and the recorded inputs), so that drift shows as a change of exactly that field
 * at the next preview. An unreadable server is an
 * error: state is kept.
 */
async function read(id: string, props: LogSettingsOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = parseInputs(props);
  let reported: ReportedLogSettings;
  try {
    reported = await readSettings(sessionFor(inputs));
  } catch (error) {
    throw new Error(
      `Cannot refresh the log settings of ${inputs.adminUrl}: ${messageOf(error)}. State is kept.`,
      { cause: error },
    );
  }
  const drifted: Partial<Record<ManagedField, string | number | boolean>> = {};
  for (const field of differing(inputs, reported)) {
    const value = reported[field];
    if (value !== undefined) drifted[field] = value;
    logInfo(
      `The log setting ${field} of ${inputs.adminUrl} is ${JSON.stringify(value)} on the server, ` +
        `not ${JSON.stringify(inputs[field])}; the next \`pulumi up\` writes it back.`,
    );
  }
  const refreshed = { ...props, ...drifted, serverLogSettings: reported };
  // The recorded inputs take the server's values too: the engine shows a change as the difference
  // between recorded and declared inputs, so the next preview names the drifted field.
  const { previousSettings: _previous, serverLogSettings: _reported, ...recorded } = refreshed;
  return { id, props: refreshed, inputs: recorded };
}

/**
 * delete: by default leaves the server's log settings as they are (a site always has log settings;
 * deleting the resource only stops managing them). With `restoreOnDestroy`, writes back the
 * settings recorded at create.
 */
async function remove(_id: string, props: LogSettingsOutputs): Promise<void> {
  const inputs = parseInputs(props);
  if (!inputs.restoreOnDestroy) {
    logInfo(
      `Left the log settings of ${inputs.adminUrl} as they are (restoreOnDestroy is false); ` +
        "they are no longer managed by this stack.",
    );
    return;
  }
  const session = sessionFor(inputs);
  const previous: Partial<Record<ManagedField, unknown>> = {};
  for (const field of MANAGED_LOG_FIELDS) {
    if (props.previousSettings[field] !== undefined)
      previous[field] = props.previousSettings[field];
  }
  let current: ReportedLogSettings;
  try {
    current = await readSettings(session);
  } catch (error) {
    throw new Error(
      `Cannot restore the previous log settings of ${inputs.adminUrl}: ${messageOf(error)}. ` +
        "The resource stays in the stack; run `pulumi destroy` again once the server answers.",
      { cause: error },
    );
  }
  await apply(inputs, session, current, previous);
  logInfo(`Restored the log settings of ${inputs.adminUrl} recorded when the stack took them on.`);
}

/** The LogSettings implementation the host runs; tests call it directly. */
export const implementation: ResourceImplementation = {
  check: async (_olds: unknown, news: unknown) =>
    checkInputs(logSettingsInputsSchema(), news, logSettingsCrossChecks),
  diff: async (id: string, olds: LogSettingsOutputs, news: unknown) => diff(id, olds, news),
  create,
  read,
  update,
  delete: remove,
};

/** The serialized provider of `LogSettings`. */
export const logSettingsProvider = lazyProvider("log-settings");

/** Arguments of a {@link LogSettings}. Every field accepts a `pulumi.Input`. */
export interface LogSettingsArgs {
  /** The product (typically a Site's `serverType`); default `mission-server`. */
  serverType?: pulumi.Input<ServerType>;
  /** Administrative root of the server (typically a Site's `adminUrl`). */
  adminUrl: pulumi.Input<string>;
  /** An administrator of the site. */
  username: pulumi.Input<string>;
  /** That administrator's password. Stored only as a secret. */
  password: pulumi.Input<string>;
  /** Log level: OFF, SEVERE, WARNING, INFO, FINE, VERBOSE or DEBUG. */
  logLevel?: pulumi.Input<(typeof LOG_SETTINGS_LEVELS)[number]>;
  /** Directory of the logs, as the server sees it. */
  logDir?: pulumi.Input<string>;
  /** Maximum number of error reports. */
  maxErrorReportsCount?: pulumi.Input<number>;
  /** Maximum age of log files (the unit is not documented). */
  maxLogFileAge?: pulumi.Input<number>;
  /** Usage metering (Mission, Notebook and Video Server only). */
  usageMeteringEnabled?: pulumi.Input<boolean>;
  /** On destroy, write back the settings the server had before this stack changed them. */
  restoreOnDestroy?: pulumi.Input<boolean>;
  /** TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. */
  tls?: TlsArgs;
  /** How long a change may take, including waiting while an export or import holds the site. */
  timeouts?: pulumi.Input<{ changeMs?: pulumi.Input<number> }>;
}

/**
 * A site's log settings, kept as declared with `POST {admin_root}/logs/settings/edit`. Only the
 * fields given are managed; a change is an update in place.
 *
 * @example
 * ```ts
 * new LogSettings("logs", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   logLevel: "WARNING",
 *   restoreOnDestroy: true,
 * });
 * ```
 */
export class LogSettings extends pulumi.dynamic.Resource {
  /** The server's settings before this stack first changed them. */
  declare public readonly previousSettings: pulumi.Output<ReportedLogSettings>;
  /** The server's settings as last read. */
  declare public readonly serverLogSettings: pulumi.Output<ReportedLogSettings>;
  /** The product. */
  declare public readonly serverType: pulumi.Output<ServerType>;
  /** The server's administrative root. */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The site's administrator. */
  declare public readonly username: pulumi.Output<string>;
  /** The administrator's password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** The managed log level (after a refresh: the server's). */
  declare public readonly logLevel: pulumi.Output<(typeof LOG_SETTINGS_LEVELS)[number] | undefined>;
  /** The managed log directory (after a refresh: the server's). */
  declare public readonly logDir: pulumi.Output<string | undefined>;
  /** The managed maximum number of error reports. */
  declare public readonly maxErrorReportsCount: pulumi.Output<number | undefined>;
  /** The managed maximum age of log files. */
  declare public readonly maxLogFileAge: pulumi.Output<number | undefined>;
  /** The managed usage metering switch. */
  declare public readonly usageMeteringEnabled: pulumi.Output<boolean | undefined>;
  /** Whether destroy writes back `previousSettings`. */
  declare public readonly restoreOnDestroy: pulumi.Output<boolean>;
  /** TLS settings, as declared. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The bound in effect, default filled in (milliseconds). */
  declare public readonly timeouts: pulumi.Output<{ changeMs: number }>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - which server and which settings; see {@link LogSettingsArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: LogSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      logSettingsProvider,
      name,
      {
        // Every output is listed, so that each is a property of the resource even when its
        // input is not given (Pulumi makes an output of each key).
        serverType: args.serverType,
        logLevel: args.logLevel,
        logDir: args.logDir,
        maxErrorReportsCount: args.maxErrorReportsCount,
        maxLogFileAge: args.maxLogFileAge,
        usageMeteringEnabled: args.usageMeteringEnabled,
        restoreOnDestroy: args.restoreOnDestroy,
        tls: args.tls,
        timeouts: args.timeouts,
        ...args,
        password: pulumi.secret(args.password),
        previousSettings: undefined,
        serverLogSettings: undefined,
      },
      resourceOptions("LogSettings", name, opts, ["password"]),
      TYPE_MODULE,
      "LogSettings",
    );
  }
}

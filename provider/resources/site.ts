/**
 * `Site`: creates an ArcGIS mission-server site with `createNewSite`, as a Pulumi dynamic resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ArcGISRequestError,
  createAdminSession,
  createNewSite,
  deleteSite,
  hasServerCode,
  healthCheck,
  isArcGISRequestError,
  isAuthError,
  isTransientError,
  listMachines,
  siteStatus,
  type TransportOptions,
} from "../client";
import {
  type CheckFailure,
  checkInputs,
  parseValidInputs,
  type TlsArgs,
  withStateOnlyChanges,
  failureMessage,
  logInfo,
  logWarn,
  containsUnknown,
  httpUrlSchema,
  lazyProvider,
  messageOf,
  nonEmpty,
  ProgressReporter,
  type ResourceImplementation,
  sameValue,
  sleep,
  tlsSchema,
  transportFor,
  withoutProvider,
} from "./common";

/** Directory types a mission server accepts (spec: Server directories). */
export const DIRECTORY_TYPES = ["JOBS", "OUTPUT", "SYSTEM"] as const;
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

/** Inputs of a `Site` whose values are known (what the provider works with). */
export interface SiteInputs {
  adminUrl: string;
  username: string;
  password: string;
  configStoreConnection?: {
    type: (typeof CONFIG_STORE_TYPES)[number];
    connectionString: string;
    localRepositoryPath?: string;
    connectionSecret?: string;
  };
  directories?: Array<{
    name: string;
    physicalPath: string;
    directoryType: (typeof DIRECTORY_TYPES)[number];
    cleanupMode?: (typeof CLEANUP_MODES)[number];
    maxFileAge?: number;
    description?: string;
  }>;
  logSettings?: {
    logLevel: (typeof LOG_LEVELS)[number];
    logDir: string;
    maxErrorReportsCount: number;
    maxLogFileAge: number;
  };
  runAsync: boolean;
  adoptExisting: boolean;
  deleteSiteOnDestroy: boolean;
  tls?: { caCert?: string; insecureSkipVerify?: boolean };
  timeouts: { serverReadyMs: number; createMs: number };
}

/** Outputs of a `Site` as stored in state. */
export interface SiteOutputs extends SiteInputs {
  state: "created" | "adopted";
  createdAt: string;
  machines: string[];
}

/** The zod schema of the Site inputs. Built on demand: schemas must never be serialized. */
export function siteInputsSchema() {
  const count = z.number().int().min(0, { message: "must not be negative" });
  const directory = z
    .strictObject({
      name: nonEmpty(),
      physicalPath: nonEmpty(),
      directoryType: z.enum(DIRECTORY_TYPES, {
        message: `must be one of ${DIRECTORY_TYPES.join(", ")}`,
      }),
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
      })
      .optional(),
    runAsync: z.boolean().default(true),
    adoptExisting: z.boolean().default(false),
    deleteSiteOnDestroy: z.boolean().default(false),
    tls: tlsSchema(),
    timeouts: z
      .strictObject({
        serverReadyMs: count.default(DEFAULT_SERVER_READY_MS),
        createMs: count.default(DEFAULT_CREATE_MS),
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
  const names = new Set<unknown>();
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
      if (names.has(dir.name)) {
        failures.push({
          property: `directories[${i}].name`,
          reason: `duplicate directory name "${dir.name}"`,
        });
      }
      names.add(dir.name);
    }
  });
  return failures;
}

/** Inputs that define the site itself: createNewSite cannot run again to change them. */
export const SITE_DEFINING_INPUTS = [
  "adminUrl",
  "username",
  "password",
  "configStoreConnection",
  "directories",
  "logSettings",
] as const;

/** Inputs that only change how the provider behaves; changing them touches nothing. */
const STATE_ONLY_INPUTS = [
  "runAsync",
  "adoptExisting",
  "deleteSiteOnDestroy",
  "tls",
  "timeouts",
] as const;

/**
 * How often the provider looks at a machine while a site is being created. 700 ms notices a
 * completion within about 0.7 s (plus the readiness round trips) and sends about 1.4 status
 * requests per second, at most 1.7 on a short wait where the one sent right after createNewSite
 * counts too (bench/ figure 3; Esri's own tools poll every 5 to 10 s; 500 ms sent up to 2.2).
 */
const POLL_INTERVAL_MS = 700;
/**
 * After a lost createNewSite answer, how long a machine may keep reporting "no site" before we
 * conclude that the request never reached it.
 */
const LOST_REQUEST_GRACE_MS = 60_000;

/** Keys that exist only in outputs: left out when outputs are read back as inputs. */
const OUTPUT_ONLY_KEYS = ["state", "createdAt", "machines"] as const;

function parseInputs(raw: unknown): SiteInputs {
  return parseValidInputs<SiteInputs>(
    "Site",
    siteInputsSchema(),
    raw,
    OUTPUT_ONLY_KEYS,
    siteCrossChecks,
  );
}

function transportOf(inputs: SiteInputs, extra: Omit<TransportOptions, "tls"> = {}) {
  return transportFor(inputs.adminUrl, inputs.tls, extra);
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

/** True when an error is the server's "this machine is already in a site" answer. */
function isAlreadyInSite(error: unknown): boolean {
  if (!isArcGISRequestError(error)) return false;
  if (hasServerCode(error, 499)) return true;
  return error.messages.some((m) => /already (participates|exists|part of)|in a site/i.test(m));
}

/** True when createNewSite's answer may have been lost after the server acted on it. */
function answerMayBeLost(error: unknown): boolean {
  if (!isArcGISRequestError(error)) return false;
  return isTransientError(error) || error.code === "BAD_RESPONSE" || error.code === "TIMEOUT";
}

/** How a server says that a site is being created right now. */
const CREATION_IN_PROGRESS = /in progress/i;

/**
 * Waits until the machine answers at all (a fresh install can take minutes), and until a site
 * creation that is already running there (an interrupted earlier run, another tool) has ended, so
 * that the answer says for sure whether the machine is in a site.
 */
async function waitForServer(inputs: SiteInputs) {
  // A server that accepts connections but never answers (a half-started install) must not hold
  // one poll past the deadline: each poll waits for headers at most the time left (at least 1 s).
  const connectMs = Math.min(10_000, Math.max(1_000, inputs.timeouts.serverReadyMs));
  const base = transportOf(inputs, { timeouts: { connectMs, headersMs: 30_000 } });
  const progress = new ProgressReporter(
    `${inputs.adminUrl} to answer`,
    inputs.timeouts.serverReadyMs,
  );
  let limit = inputs.timeouts.serverReadyMs;
  let delay = 250;
  for (;;) {
    const headersMs = Math.min(30_000, Math.max(1_000, limit - progress.elapsed()));
    const transport = { ...base, timeouts: { connectMs, headersMs } };
    const status = await siteStatus(inputs.adminUrl, transport);
    let problem: string;
    if (status.state === "in-site") return status;
    if (status.state === "no-site") {
      if (!CREATION_IN_PROGRESS.test(status.message)) return status;
      limit = inputs.timeouts.serverReadyMs + inputs.timeouts.createMs;
      problem = `a site creation is already in progress there (${status.message})`;
    } else {
      if (status.error.code === "TLS") throw status.error;
      problem = `not answering yet (${status.error.message})`;
    }
    if (progress.elapsed() >= limit) {
      throw new Error(
        `${inputs.adminUrl} was not ready within timeouts.serverReadyMs ` +
          `(${inputs.timeouts.serverReadyMs} ms): ${problem}. Check that ArcGIS Server is ` +
          "installed and running and that the URL is right, or raise timeouts.serverReadyMs.",
      );
    }
    progress.tick(problem);
    await sleep(Math.min(delay, Math.max(0, limit - progress.elapsed()) + 1));
    delay = Math.min(delay * 2, 5_000);
  }
}

/**
 * Waits until a site being created is ready: an admin token can be obtained with the site's
 * credentials and the health check reports healthy. A failure the server reports is thrown at
 * once instead of being waited out.
 */
async function waitForSite(
  inputs: SiteInputs,
  requestMayBeLost: boolean,
  messageBefore: string,
): Promise<void> {
  const transport = transportOf(inputs, { timeouts: { connectMs: 10_000, headersMs: 30_000 } });
  const progress = new ProgressReporter(
    `site creation on ${inputs.adminUrl}`,
    inputs.timeouts.createMs,
  );
  let lastState: string;
  for (;;) {
    const status = await siteStatus(inputs.adminUrl, transport);
    if (status.state === "in-site") {
      if (await siteReady(inputs, transport)) return;
      lastState = "site exists, waiting for it to become healthy";
    } else if (status.state === "no-site") {
      // The server keeps the failure of an async creation in the admin root's message.
      // (A failure of an earlier attempt may still be there until ours starts: ignore that one.)
      if (/fail/i.test(status.message) && status.message !== messageBefore) {
        throw new Error(`Site creation on ${inputs.adminUrl} failed: ${status.message}`);
      }
      if (requestMayBeLost && progress.elapsed() >= LOST_REQUEST_GRACE_MS) {
        throw new Error(
          `The answer to createNewSite on ${inputs.adminUrl} was lost, and the machine still ` +
            `reports that it is in no site after ${LOST_REQUEST_GRACE_MS / 1000} s: the request ` +
            "did not create a site. Run `pulumi up` again to retry.",
        );
      }
      lastState = status.message;
    } else {
      lastState = `not answering (${status.error.message})`;
    }
    if (progress.elapsed() >= inputs.timeouts.createMs) {
      throw new Error(
        `Site creation on ${inputs.adminUrl} did not complete within timeouts.createMs ` +
          `(${inputs.timeouts.createMs} ms); last state: ${lastState}. The server may still be ` +
          "creating the site: run `pulumi up` again later (it adopts nothing by itself; set " +
          "adoptExisting: true once the site exists), or raise timeouts.createMs.",
      );
    }
    progress.tick(lastState);
    await sleep(POLL_INTERVAL_MS);
  }
}

async function siteReady(inputs: SiteInputs, transport: TransportOptions): Promise<boolean> {
  try {
    const session = createAdminSession({
      adminUrl: inputs.adminUrl,
      username: inputs.username,
      password: inputs.password,
      ...transport,
    });
    await session.token();
    const health = await healthCheck(inputs.adminUrl, transport);
    return health.state === "healthy";
  } catch (error) {
    if (isArcGISRequestError(error)) return false;
    throw error;
  }
}

async function machinesOf(inputs: SiteInputs): Promise<string[]> {
  const transport = transportOf(inputs);
  const session = createAdminSession({
    adminUrl: inputs.adminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transport,
  });
  return listMachines(session);
}

function outputsOf(
  inputs: SiteInputs,
  state: SiteOutputs["state"],
  machines: string[],
): SiteOutputs {
  return { ...inputs, state, createdAt: new Date().toISOString(), machines };
}

async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseInputs(raw);
  const status = await waitForServer(inputs);
  if (status.state === "in-site") return adopt(inputs);

  let requestMayBeLost = false;
  try {
    const transport = transportOf(inputs, {
      timeouts: inputs.runAsync
        ? { connectMs: 10_000, headersMs: 120_000, bodyMs: 120_000 }
        : { connectMs: 10_000, headersMs: inputs.timeouts.createMs, bodyMs: 120_000 },
    });
    const params: Parameters<typeof createNewSite>[1] = {
      username: inputs.username,
      password: inputs.password,
      runAsync: inputs.runAsync,
    };
    if (inputs.configStoreConnection) params.configStoreConnection = inputs.configStoreConnection;
    if (inputs.directories) params.directories = inputs.directories;
    if (inputs.logSettings) params.logSettings = inputs.logSettings;
    await createNewSite(inputs.adminUrl, params, transport);
  } catch (error) {
    if (isAlreadyInSite(error)) {
      // Another client created a site between our status check and our request.
      if (inputs.adoptExisting) return adopt(inputs);
      throw new Error(alreadyInSiteMessage(inputs.adminUrl), { cause: error });
    }
    if (!answerMayBeLost(error)) {
      throw new Error(failureMessage("createNewSite", inputs.adminUrl, error), {
        cause: error,
      });
    }
    // Never send createNewSite twice: look at the machine to learn whether the request arrived.
    requestMayBeLost = true;
    logWarn(
      `The answer to createNewSite on ${inputs.adminUrl} was lost (${messageOf(error)}); ` +
        "checking the machine to learn whether the site is being created.",
    );
  }
  await waitForSite(inputs, requestMayBeLost, status.message);
  const machines = await machinesOf(inputs);
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "created", machines) };
}

async function adopt(inputs: SiteInputs): Promise<pulumi.dynamic.CreateResult> {
  if (!inputs.adoptExisting) throw new Error(alreadyInSiteMessage(inputs.adminUrl));
  let machines: string[];
  try {
    machines = await machinesOf(inputs);
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
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "adopted", machines) };
}

function diff(_id: string, olds: SiteOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const changedDefining = SITE_DEFINING_INPUTS.filter((key) => !sameValue(olds[key], news[key]));
  const changedStateOnly = STATE_ONLY_INPUTS.filter((key) => !sameValue(olds[key], news[key]));
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
  return { outs: withStateOnlyChanges(olds, parseInputs(rawNews), STATE_ONLY_INPUTS) };
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
    logInfo(`The machine at ${inputs.adminUrl} is no longer in a site.`);
    return {};
  }
  let machines = props.machines;
  try {
    machines = await machinesOf(inputs);
  } catch (error) {
    if (!isArcGISRequestError(error)) throw error;
    logWarn(`Could not list the machines of the site at ${inputs.adminUrl}: ${error.message}`);
  }
  return { id, props: { ...props, machines } };
}

async function remove(_id: string, props: SiteOutputs): Promise<void> {
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
  if (status.state === "no-site") return;
  const session = createAdminSession({
    adminUrl: inputs.adminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transport,
  });
  const progress = new ProgressReporter(
    `deleteSite on ${inputs.adminUrl}`,
    inputs.timeouts.createMs,
  );
  for (let delay = 1_000; ; delay = Math.min(delay * 2, 15_000)) {
    try {
      await deleteSite(session);
      logInfo(`Deleted the site at ${inputs.adminUrl}.`);
      return;
    } catch (error) {
      // An export holds the site: wait for it rather than fail the destroy.
      if (!hasServerCode(error, 409) || progress.elapsed() >= inputs.timeouts.createMs) {
        throw new Error(failureMessage("deleteSite", inputs.adminUrl, error), {
          cause: error,
        });
      }
      progress.tick("an export holds the site configuration");
      await sleep(delay);
    }
  }
}

/**
 * The Site implementation the host runs. Loaded by package name at run time through
 * {@link siteProvider}; tests call it directly.
 */
export const implementation: ResourceImplementation = {
  check: async (_olds: unknown, news: unknown) =>
    checkInputs(siteInputsSchema(), news, siteCrossChecks),
  diff: async (id: string, olds: SiteOutputs, news: unknown) => diff(id, olds, news),
  create,
  read,
  update,
  delete: remove,
};

/** The serialized provider of `Site`: about 3 KB that load {@link implementation}. */
export const siteProvider = lazyProvider("site");

/** Arguments of a {@link Site}. Every field accepts a `pulumi.Input`. */
export interface SiteArgs {
  /** Administrative root of the mission server, e.g. `https://gis.example.com:20443/arcgis/admin`. */
  adminUrl: pulumi.Input<string>;
  /** Name of the site's primary administrator, set by createNewSite. */
  username: pulumi.Input<string>;
  /** Password of the primary administrator. Stored only as a secret. */
  password: pulumi.Input<string>;
  /** Configuration store; omitted, the server keeps it in its installation directory. */
  configStoreConnection?: pulumi.Input<{
    type: pulumi.Input<(typeof CONFIG_STORE_TYPES)[number]>;
    connectionString: pulumi.Input<string>;
    localRepositoryPath?: pulumi.Input<string>;
    /** Credentials of a cloud store. Stored only as a secret. */
    connectionSecret?: pulumi.Input<string>;
  }>;
  /** Server directories; omitted, the server creates them locally. */
  directories?: pulumi.Input<
    pulumi.Input<{
      name: pulumi.Input<string>;
      physicalPath: pulumi.Input<string>;
      directoryType: pulumi.Input<(typeof DIRECTORY_TYPES)[number]>;
      cleanupMode?: pulumi.Input<(typeof CLEANUP_MODES)[number]>;
      maxFileAge?: pulumi.Input<number>;
      description?: pulumi.Input<string>;
    }>[]
  >;
  /** Log settings; omitted, the server's defaults apply. */
  logSettings?: pulumi.Input<{
    logLevel: pulumi.Input<(typeof LOG_LEVELS)[number]>;
    logDir: pulumi.Input<string>;
    maxErrorReportsCount: pulumi.Input<number>;
    maxLogFileAge: pulumi.Input<number>;
  }>;
  /** Create asynchronously and poll (default true): survives proxies that cut long requests. */
  runAsync?: pulumi.Input<boolean>;
  /** Adopt a site that already exists on the machine instead of failing (default false). */
  adoptExisting?: pulumi.Input<boolean>;
  /** Delete the site (deleteSite) when the resource is destroyed (default false: leave it). */
  deleteSiteOnDestroy?: pulumi.Input<boolean>;
  /** TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. */
  tls?: TlsArgs;
  /** How long to wait for the server to answer, and for creation to complete (milliseconds). */
  timeouts?: pulumi.Input<{
    serverReadyMs?: pulumi.Input<number>;
    createMs?: pulumi.Input<number>;
  }>;
}

/**
 * A mission-server site, created with `POST {admin_root}/createNewSite` on a machine that is in
 * no site yet.
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
  /** The administrative root the site was created on. */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The primary administrator's name. */
  declare public readonly username: pulumi.Output<string>;
  /** The primary administrator's password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** "created" when this resource created the site, "adopted" when it adopted an existing one. */
  declare public readonly state: pulumi.Output<"created" | "adopted">;
  /** When the site was created or adopted (ISO 8601). */
  declare public readonly createdAt: pulumi.Output<string>;
  /** Names of the site's machines. */
  declare public readonly machines: pulumi.Output<string[]>;
  /** The configuration store (a secret when it has a connectionSecret). */
  declare public readonly configStoreConnection: pulumi.Output<SiteInputs["configStoreConnection"]>;
  /** The TLS settings used to reach the server. */
  declare public readonly tls: pulumi.Output<SiteInputs["tls"]>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the site to create; see {@link SiteArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      siteProvider,
      name,
      {
        ...args,
        password: pulumi.secret(args.password),
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
      },
      {
        ...opts,
        additionalSecretOutputs: ["password"],
      },
    );
  }
}

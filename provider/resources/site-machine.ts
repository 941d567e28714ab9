/**
 * `SiteMachine`: a server machine that joins an existing site with `joinSite`, and leaves it with
 * `machines/<name>/unregister` on destroy, as a Pulumi dynamic resource.
 *
 * The file reads as the lifecycle: inputs, check, create (wait for the machine, adopt or refuse a
 * machine already in a site, joinSite once, follow pollAfter), diff, update, read, delete.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  createAdminSession,
  hasServerCode,
  isArcGISRequestError,
  isTransientError,
  joinSite,
  listMachines,
  listsMachine,
  retryWhile,
  SERVER_TYPES,
  serverProduct,
  type ServerType,
  type SiteStatus,
  type TransportOptions,
  unregisterMachine,
  waitForJoin,
  waitForServer,
} from "../client";
import { lazyProvider, type ResourceImplementation, withoutProvider } from "./lazy-provider";
import { type CheckFailure, checkInputs, containsUnknown, parseValidInputs } from "./input-check";
import { httpUrlSchema, nonEmpty, timeoutMsSchema, tlsSchema } from "./input-schemas";
import { sameValue, withStateOnlyChanges } from "./state-diff";
import { type TlsArgs, type TlsSettings, transportFor } from "./tls";
import { failureMessage, logInfo, logWarn, messageOf } from "./log";
import { ProgressReporter } from "./progress";
import { resourceOptions, TYPE_MODULE } from "./resource-options";

/** Default bound on waiting for the joining machine to answer at all (a fresh install). */
export const DEFAULT_SERVER_READY_MS = 15 * 60_000;
/** Default bound on the join: joinSite, its pollAfter and the watching that follows. */
export const DEFAULT_JOIN_MS = 30 * 60_000;

/** Inputs of a `SiteMachine` whose values are known. */
export interface SiteMachineInputs {
  serverType: ServerType;
  /** Administrative root of the joining machine. */
  adminUrl: string;
  /** Administrative root of a machine of the site (joinSite's `adminURL`). */
  siteAdminUrl: string;
  /** The machine's name as the site lists it; default: the host of `adminUrl`. */
  machineName?: string;
  username: string;
  password: string;
  tls?: { caCert?: string; insecureSkipVerify?: boolean };
  timeouts: { serverReadyMs: number; joinMs: number };
}

/** Outputs of a `SiteMachine` as stored in state. */
export interface SiteMachineOutputs extends SiteMachineInputs {
  /** "joined" when this resource joined the machine, "adopted" when it was in the site already. */
  state: "joined" | "adopted";
  /** The machine's name as the site spells it. */
  registeredName: string;
  /** The site's machines, as last read. */
  machines: string[];
  /** When the machine joined or was adopted (ISO 8601). */
  joinedAt: string;
}

/**
 * The zod schema of the SiteMachine inputs.
 * @internal
 */
export function siteMachineInputsSchema() {
  return z.strictObject({
    serverType: z
      .enum(SERVER_TYPES, { message: `must be one of ${SERVER_TYPES.join(", ")}` })
      .default("mission-server"),
    adminUrl: httpUrlSchema(),
    siteAdminUrl: httpUrlSchema(),
    machineName: nonEmpty().optional(),
    username: nonEmpty(),
    password: nonEmpty(),
    tls: tlsSchema(),
    timeouts: z
      .strictObject({
        serverReadyMs: timeoutMsSchema(DEFAULT_SERVER_READY_MS),
        joinMs: timeoutMsSchema(DEFAULT_JOIN_MS),
      })
      .default({ serverReadyMs: DEFAULT_SERVER_READY_MS, joinMs: DEFAULT_JOIN_MS }),
  });
}

/** A machine cannot join the site through itself. */
export function siteMachineCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  const { adminUrl, siteAdminUrl } = values;
  if (typeof adminUrl !== "string" || typeof siteAdminUrl !== "string") return [];
  if (adminUrl.replace(/\/+$/, "") !== siteAdminUrl.replace(/\/+$/, "")) return [];
  return [
    {
      property: "siteAdminUrl",
      reason:
        "must be the admin URL of another machine, one that is already in the site (it is the " +
        "joining machine's own adminUrl)",
    },
  ];
}

/** Inputs whose change means another machine or another site: unregister, then join anew. */
const REPLACING_INPUTS = ["serverType", "adminUrl", "siteAdminUrl", "machineName"] as const;
/** Inputs whose change only updates state. */
const STATE_ONLY_INPUTS = ["username", "password", "tls", "timeouts"] as const;
/** Keys that exist only in outputs. */
const OUTPUT_ONLY_KEYS = ["state", "registeredName", "machines", "joinedAt"] as const;
/** Time between two looks at the machine while it joins. */
const POLL_INTERVAL_MS = 700;

function parseInputs(raw: unknown): SiteMachineInputs {
  return parseValidInputs<SiteMachineInputs>(
    "SiteMachine",
    siteMachineInputsSchema(),
    raw,
    OUTPUT_ONLY_KEYS,
    siteMachineCrossChecks,
  );
}

/** The name the site lists the machine by: `machineName`, else the host of `adminUrl`. */
function nameOf(inputs: SiteMachineInputs): string {
  return inputs.machineName ?? new URL(inputs.adminUrl).hostname;
}

function transportOf(inputs: SiteMachineInputs, extra: Omit<TransportOptions, "tls"> = {}) {
  return transportFor(inputs.adminUrl, inputs.tls, extra);
}

/** A session on the site's machine: the machine list and unregister are asked there. */
function siteSession(inputs: SiteMachineInputs) {
  return createAdminSession({
    adminUrl: inputs.siteAdminUrl,
    username: inputs.username,
    password: inputs.password,
    ...transportFor(inputs.siteAdminUrl, inputs.tls),
  });
}

/** The site's machine names, or an error that says nothing was changed. */
async function siteMachines(inputs: SiteMachineInputs, doing: string): Promise<string[]> {
  try {
    return await listMachines(siteSession(inputs));
  } catch (error) {
    throw new Error(
      `Cannot ${doing}: the machine list of the site at ${inputs.siteAdminUrl} cannot be read ` +
        `(${failureMessage("machines", inputs.siteAdminUrl, error)}). Nothing was changed.`,
      { cause: error },
    );
  }
}

async function create(raw: unknown): Promise<pulumi.dynamic.CreateResult> {
  const inputs = parseInputs(raw);
  const name = nameOf(inputs);
  const status = await machineAnswering(inputs);
  requireDeclaredProduct(inputs, status);
  if (status.state === "in-site") return adoptOrRefuse(inputs, name);

  const deadline = Date.now() + inputs.timeouts.joinMs;
  let pollAfterSeconds: number | undefined;
  let lost: string | undefined;
  try {
    // One request held until the server answers, bounded by joinMs (DSC waits 360 s per try).
    const transport = transportOf(inputs, {
      timeouts: { connectMs: 10_000, headersMs: inputs.timeouts.joinMs, bodyMs: 120_000 },
    });
    const answer = await joinSite(
      inputs.adminUrl,
      {
        serverType: inputs.serverType,
        siteAdminUrl: inputs.siteAdminUrl,
        username: inputs.username,
        password: inputs.password,
      },
      transport,
    );
    pollAfterSeconds = answer.pollAfterSeconds;
  } catch (error) {
    // A machine in a site answers 499: another client joined it since our look.
    if (hasServerCode(error, 499) || hasServerCode(error, 498)) return adoptOrRefuse(inputs, name);
    if (!answerMayBeLost(error)) {
      throw new Error(failureMessage("joinSite", inputs.adminUrl, error), { cause: error });
    }
    // Never send joinSite twice: the first may still run. Watch the machine instead.
    lost = messageOf(error);
    logWarn(
      `The answer to joinSite on ${inputs.adminUrl} was lost (${lost}); watching the machine ` +
        "until timeouts.joinMs to learn whether it joins the site. joinSite is not sent again.",
    );
  }
  const machines = await joined(inputs, name, deadline, pollAfterSeconds, lost);
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "joined", name, machines) };
}

/** Waits until the machine's admin root answers (a fresh install can take minutes). */
async function machineAnswering(inputs: SiteMachineInputs) {
  const progress = new ProgressReporter(
    `${inputs.adminUrl} to answer`,
    inputs.timeouts.serverReadyMs,
  );
  try {
    return await waitForServer(inputs.adminUrl, transportOf(inputs), {
      deadline: Date.now() + inputs.timeouts.serverReadyMs,
      pollIntervalMs: 1_000,
      onStatus: (s) => progress.tick(s.detail),
    });
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    throw new Error(
      `${inputs.adminUrl} was not ready within timeouts.serverReadyMs ` +
        `(${inputs.timeouts.serverReadyMs} ms): ${error.messages.join(" ") || error.message}. ` +
        "Check that the server is installed and running and that the URL is right, or raise " +
        "timeouts.serverReadyMs.",
      { cause: error },
    );
  }
}

/** Refuses a machine whose admin root answers in another product's error format. */
function requireDeclaredProduct(inputs: SiteMachineInputs, status: SiteStatus): void {
  if (status.state === "unreachable" || status.errorFormat === undefined) return;
  const expected = serverProduct(inputs.serverType).dialect === "classic" ? "status" : "error";
  if (status.errorFormat === expected) return;
  throw new Error(
    `The machine at ${inputs.adminUrl} answers its admin root in another product's error ` +
      `format than serverType "${inputs.serverType}" (${serverProduct(inputs.serverType).label}) ` +
      "speaks. Nothing was sent. Set serverType to the machine's product.",
  );
}

/**
 * A machine that is in a site already: adopted when the site lists it (it is in this site),
 * refused otherwise (it is in another site, or the site names it differently).
 */
async function adoptOrRefuse(
  inputs: SiteMachineInputs,
  name: string,
): Promise<pulumi.dynamic.CreateResult> {
  const machines = await siteMachines(inputs, `join ${inputs.adminUrl} to the site`);
  if (!listsMachine(machines, name)) {
    throw new Error(
      `The machine at ${inputs.adminUrl} already participates in a site, but the site at ` +
        `${inputs.siteAdminUrl} lists no machine named '${name}' (it lists ` +
        `${machines.join(", ") || "none"}): the machine is in another site. joinSite was not ` +
        "sent. Unregister it from that site first (or delete that site), then run `pulumi up` " +
        "again. If the site lists this machine under another name, set machineName to it.",
    );
  }
  logInfo(`The machine '${name}' is in the site at ${inputs.siteAdminUrl} already; adopted.`);
  return { id: inputs.adminUrl, outs: outputsOf(inputs, "adopted", name, machines) };
}

/**
 * True when joinSite's answer may have been lost after the server acted on it: no answer, a
 * timeout, a proxy's 502/503/504, or a body that is not the server's (a proxy's page).
 */
function answerMayBeLost(error: unknown): boolean {
  if (!isArcGISRequestError(error)) return false;
  return isTransientError(error) || error.code === "BAD_RESPONSE" || error.code === "TIMEOUT";
}

/** Follows pollAfter, then waits until the site lists the machine, bounded by joinMs. */
async function joined(
  inputs: SiteMachineInputs,
  name: string,
  deadline: number,
  pollAfterSeconds: number | undefined,
  lost: string | undefined,
): Promise<string[]> {
  const progress = new ProgressReporter(
    `machine '${name}' to join the site at ${inputs.siteAdminUrl}`,
    inputs.timeouts.joinMs,
  );
  try {
    return await waitForJoin(
      {
        adminUrl: inputs.adminUrl,
        siteAdminUrl: inputs.siteAdminUrl,
        machineName: name,
        username: inputs.username,
        password: inputs.password,
        pollAfterSeconds,
        ...transportOf(inputs),
      },
      { deadline, pollIntervalMs: POLL_INTERVAL_MS, onStatus: (s) => progress.tick(s.detail) },
    );
  } catch (error) {
    if (!isArcGISRequestError(error) || error.code !== "TIMEOUT") throw error;
    const what =
      lost === undefined
        ? `The machine '${name}' did not appear in the site`
        : `The answer to joinSite was lost (${lost}), and the machine '${name}' did not appear in the site`;
    throw new Error(
      `${what} at ${inputs.siteAdminUrl} within timeouts.joinMs (${inputs.timeouts.joinMs} ms); ` +
        `${error.messages.join(" ") || error.message}. The machine may still be joining: do not ` +
        `run \`pulumi up\` again before checking that ${inputs.adminUrl}/?f=json answers code ` +
        `499 (in a site) or still "not participating in any Site". If the site lists the ` +
        "machine under another name, set machineName to it.",
      { cause: error },
    );
  }
}

function outputsOf(
  inputs: SiteMachineInputs,
  state: SiteMachineOutputs["state"],
  name: string,
  machines: string[],
): SiteMachineOutputs {
  const registeredName = machines.find((m) => m.toLowerCase() === name.toLowerCase()) ?? name;
  return { ...inputs, state, registeredName, machines, joinedAt: new Date().toISOString() };
}

function diff(_id: string, olds: SiteMachineOutputs, rawNews: unknown): pulumi.dynamic.DiffResult {
  const news = withoutProvider(rawNews);
  const replaces = REPLACING_INPUTS.filter((key) => !sameValue(olds[key], news[key]));
  if (replaces.length > 0) {
    // A machine is in one site at a time: it leaves the old one before it joins the new one.
    return { changes: true, replaces: [...replaces], deleteBeforeReplace: true };
  }
  const changed = STATE_ONLY_INPUTS.some((key) => !sameValue(olds[key], news[key]));
  return { changes: changed || containsUnknown(news) };
}

async function update(
  _id: string,
  olds: SiteMachineOutputs,
  rawNews: unknown,
): Promise<pulumi.dynamic.UpdateResult> {
  const news = parseInputs(rawNews);
  if (!sameValue(olds.username, news.username) || !sameValue(olds.password, news.password)) {
    await proveCredentials(news);
  }
  return { outs: withStateOnlyChanges(olds, news, [...STATE_ONLY_INPUTS]) };
}

/**
 * Before new credentials replace the old ones in state (destroy will use them to unregister),
 * proves that the site gives them an administrator token. Nothing is changed on the server.
 */
async function proveCredentials(inputs: SiteMachineInputs): Promise<void> {
  try {
    await siteSession(inputs).token();
  } catch (error) {
    throw new Error(
      `The new credentials of ${inputs.username} were not recorded: the site at ` +
        `${inputs.siteAdminUrl} does not give them a token (${messageOf(error)}). State still ` +
        "holds the previous credentials; change the password on the server first.",
      { cause: error },
    );
  }
}

/** Refresh: a machine the site no longer lists (unregistered out of band) is gone. */
async function read(id: string, props: SiteMachineOutputs): Promise<pulumi.dynamic.ReadResult> {
  const inputs = parseInputs(props);
  const name = props.registeredName ?? nameOf(inputs);
  const machines = await siteMachines(inputs, `refresh the machine '${name}'`);
  if (!listsMachine(machines, name)) {
    logInfo(`The site at ${inputs.siteAdminUrl} no longer lists the machine '${name}'.`);
    return {};
  }
  return { id, props: { ...props, machines } };
}

/**
 * Destroy: unregisters the machine on the site's machine (which answers even when the leaving
 * machine is down), retried while an export holds the site (409), until joinMs.
 */
async function remove(_id: string, props: SiteMachineOutputs): Promise<void> {
  const inputs = parseInputs(props);
  const name = props.registeredName ?? nameOf(inputs);
  const machines = await siteMachines(inputs, `unregister the machine '${name}'`);
  const listed = machines.find((m) => m.toLowerCase() === name.toLowerCase());
  if (listed === undefined) {
    logInfo(`The site at ${inputs.siteAdminUrl} does not list '${name}'; nothing to unregister.`);
    return;
  }
  const session = siteSession(inputs);
  const progress = new ProgressReporter(`unregister of '${listed}'`, inputs.timeouts.joinMs);
  try {
    await retryWhile(
      (error) => hasServerCode(error, 409),
      {
        deadline: Date.now() + inputs.timeouts.joinMs,
        baseDelay: 1_000,
        maxDelay: 15_000,
        onRetry: () => progress.tick("an export holds the site configuration"),
      },
      () => unregisterMachine(session, listed),
    );
  } catch (error) {
    throw new Error(failureMessage("unregister machine", inputs.siteAdminUrl, error), {
      cause: error,
    });
  }
  logInfo(
    `Unregistered the machine '${listed}' from the site at ${inputs.siteAdminUrl}. On the ` +
      `machine itself (${inputs.adminUrl}), ${serverProduct(inputs.serverType).label} still ` +
      "runs, in no site now: stop or uninstall it there, or use it for a new site or to join " +
      "one. Web adaptors registered for this machine are not unregistered by this resource.",
  );
}

/**
 * The SiteMachine implementation the host runs. Loaded by package name at run time through
 * {@link siteMachineProvider}; tests call it directly.
 */
export const implementation: ResourceImplementation = {
  check: async (_olds: unknown, news: unknown) =>
    checkInputs(siteMachineInputsSchema(), news, siteMachineCrossChecks),
  diff: async (id: string, olds: SiteMachineOutputs, news: unknown) => diff(id, olds, news),
  create,
  read,
  update,
  delete: remove,
};

/** The serialized provider of `SiteMachine`: about 3 KB that load {@link implementation}. */
export const siteMachineProvider = lazyProvider("site-machine");

/** Arguments of a {@link SiteMachine}. Every field accepts a `pulumi.Input`. */
export interface SiteMachineArgs {
  /** The product of the site and the machine: `mission-server` (default) or another. */
  serverType?: pulumi.Input<ServerType>;
  /** Administrative root of the joining machine, e.g. `https://gis2.example.com:20443/arcgis/admin`. */
  adminUrl: pulumi.Input<string>;
  /** Administrative root of a machine already in the site (typically a Site's `adminUrl`). */
  siteAdminUrl: pulumi.Input<string>;
  /** The machine's name as the site lists it; default: the host of `adminUrl`. */
  machineName?: pulumi.Input<string>;
  /** An administrator of the site. */
  username: pulumi.Input<string>;
  /** Its password. Stored only as a secret. */
  password: pulumi.Input<string>;
  /** TLS: a CA certificate (PEM) to trust (for both machines), or (discouraged) no verification. */
  tls?: TlsArgs;
  /** How long to wait for the machine to answer, and for the join (milliseconds). */
  timeouts?: pulumi.Input<{
    serverReadyMs?: pulumi.Input<number>;
    joinMs?: pulumi.Input<number>;
  }>;
}

/**
 * A server machine in a site, joined with `POST {machine admin root}/joinSite` and unregistered
 * with `POST {site admin root}/machines/<name>/unregister` on destroy.
 *
 * @example
 * ```ts
 * const second = new SiteMachine("gis2", {
 *   adminUrl: "https://gis2.example.com:20443/arcgis/admin",
 *   siteAdminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 * });
 * ```
 */
export class SiteMachine extends pulumi.dynamic.Resource {
  /** The product of the site and the machine. */
  declare public readonly serverType: pulumi.Output<ServerType>;
  /** The joining machine's administrative root. */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The site's machine it joined through. */
  declare public readonly siteAdminUrl: pulumi.Output<string>;
  /** "joined" or "adopted". */
  declare public readonly state: pulumi.Output<"joined" | "adopted">;
  /** The machine's name as the site spells it. */
  declare public readonly registeredName: pulumi.Output<string>;
  /** The site's machines, as last read. */
  declare public readonly machines: pulumi.Output<string[]>;
  /** When the machine joined or was adopted (ISO 8601). */
  declare public readonly joinedAt: pulumi.Output<string>;
  /** The site's administrator. */
  declare public readonly username: pulumi.Output<string>;
  /** The administrator's password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** The machine's name as declared (when given). */
  declare public readonly machineName: pulumi.Output<string | undefined>;
  /** TLS settings, as declared. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The bounds in effect, defaults filled in (milliseconds). */
  declare public readonly timeouts: pulumi.Output<{ serverReadyMs: number; joinMs: number }>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the machine and the site; see {@link SiteMachineArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteMachineArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      siteMachineProvider,
      name,
      {
        // Every output is listed, so that each is a property of the resource even when its
        // input is not given (Pulumi makes an output of each key).
        serverType: args.serverType,
        machineName: args.machineName,
        tls: args.tls,
        timeouts: args.timeouts,
        ...args,
        password: pulumi.secret(args.password),
        state: undefined,
        registeredName: undefined,
        machines: undefined,
        joinedAt: undefined,
      },
      resourceOptions("SiteMachine", name, opts, ["password"]),
      TYPE_MODULE,
      "SiteMachine",
    );
  }
}

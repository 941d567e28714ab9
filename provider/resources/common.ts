/**
 * Pieces shared by the resource files: the lazy provider that Pulumi serializes, input checking
 * with zod, progress reporting and polling.
 *
 * Nothing here builds HTTP requests: that is the client layer's job.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isArcGISRequestError, type TlsOptions, type TransportOptions } from "../client";

/** The package name under which the host resolves our implementation at run time. */
export const PACKAGE_NAME = "pulumi-arcgis-admin";

/** Pulumi's sentinel for values that are not known yet during a preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The reserved input in which Pulumi keeps the serialized provider. */
const PROVIDER_KEY = "__provider";

/** One `check()` failure as Pulumi expects it. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** The methods every resource implementation provides (a Pulumi dynamic provider). */
export type ResourceImplementation = Required<
  Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "read" | "update" | "delete">
>;

/**
 * Builds the small provider object that Pulumi serializes into every resource's state.
 *
 * Its methods load the real implementation by package name when the host calls them, so state
 * holds about 3 KB instead of the whole client layer, and the provider keeps working
 * when the package is installed in a user's node_modules (where the host's cwd is the user's
 * project and relative requires fail). The methods must not reference anything from module scope:
 * whatever they capture is copied into state.
 *
 * @param resourceFile - the file under dist/provider/resources/ that exports `implementation`.
 * @example
 * ```ts
 * export const siteProvider = lazyProvider("site");
 * ```
 */
export function lazyProvider(resourceFile: string): pulumi.dynamic.ResourceProvider {
  // Exports patterns add no extension: name the .js file itself.
  const modulePath = "pulumi-arcgis-admin/dist/provider/resources/" + resourceFile + ".js";
  return {
    async check(olds: unknown, news: unknown) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(modulePath) as { implementation: ResourceImplementation };
      const result = await m.implementation.check(olds, news);
      // The engine prints a failure with a property as "property P value V has a problem", V
      // being the input under the key P as it is, a secret's plain value included (seen with
      // pulumi 3.259: `property password value {&{{...}}}`). So the property goes into the
      // reason, and the engine prints "resource 'site' has a problem: password: ...".
      return {
        ...result,
        failures: (result.failures ?? []).map((f) => ({
          property: "",
          reason: f.property === "" ? f.reason : `${f.property}: ${f.reason}`,
        })),
      };
    },
    async diff(id: string, olds: unknown, news: unknown) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.diff(id, olds, news);
    },
    async create(inputs: unknown) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.create(inputs);
    },
    async read(id: string, props: unknown) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.read(id, props);
    },
    async update(id: string, olds: unknown, news: unknown) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.update(id, olds, news);
    },
    async delete(id: string, props: unknown) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(modulePath) as { implementation: ResourceImplementation };
      return m.implementation.delete(id, props);
    },
  };
}

/** True when the value, or anything inside it, is still unknown (preview). */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") {
    return Object.values(value).some(containsUnknown);
  }
  return false;
}

/** Paths (as key arrays) of every unknown value inside `value`. */
function unknownPaths(value: unknown, at: PropertyKey[] = []): PropertyKey[][] {
  if (value === UNKNOWN) return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPaths(v, [...at, i]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => unknownPaths(v, [...at, k]));
  }
  return [];
}

/**
 * Formats a property path the way Pulumi users write it: `directories[1].directoryType`. A key
 * that is not a plain name (empty, or with dots, brackets or spaces) is quoted, `tags["a.b"]`, so
 * that the path still names it.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && !/^[A-Za-z_$][\w$-]*$/.test(key))
      out += `[${JSON.stringify(key)}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

function isPrefix(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  return a.length <= b.length && a.every((k, i) => k === b[i]);
}

/** Removes Pulumi's reserved `__provider` key so that strict schemas see only user inputs. */
export function withoutProvider(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  delete copy[PROVIDER_KEY];
  return copy;
}

/**
 * Validates resource inputs with a zod schema, the way `check()` must: every problem at once, each
 * with its property path, and no complaint about values that are still unknown during a preview.
 *
 * @param schema - strict schema of the inputs; it fills in defaults.
 * @param news - the inputs Pulumi passed to `check()`.
 * @param crossChecks - rules across fields, run on the raw inputs even when items are invalid.
 * @returns the inputs to record (defaults filled in when valid) and the failures.
 *
 * @internal
 */
export function checkInputs<S extends z.ZodType>(
  schema: S,
  news: unknown,
  crossChecks: (raw: Record<string, unknown>) => CheckFailure[] = () => [],
): { inputs: Record<string, unknown>; failures: CheckFailure[] } {
  const raw = withoutProvider(news);
  const result = schema.safeParse(raw);
  const unknowns = unknownPaths(raw);
  const extra = crossChecks(raw).filter(
    (f) => !unknowns.some((u) => f.property.startsWith(formatPath(u))),
  );
  if (result.success) {
    warnOfPlainHttp(result.data as Record<string, unknown>);
    return { inputs: result.data as Record<string, unknown>, failures: extra };
  }
  const failures: CheckFailure[] = [...extra];
  for (const issue of result.error.issues) {
    const paths =
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of paths) {
      // A value that is still unknown is checked again once it is known (at `pulumi up`).
      if (unknowns.some((u) => isPrefix(u, path) || isPrefix(path, u))) continue;
      const reason =
        issue.code === "unrecognized_keys" ? "unknown property; check its spelling" : issue.message;
      failures.push({ property: formatPath(path) || "(inputs)", reason });
    }
  }
  return { inputs: raw, failures };
}

/** The inputs that name a server the resource sends credentials to. */
const SERVER_URL_INPUTS = ["adminUrl", "sharingUrl"] as const;

/**
 * Warns, at every check (so at `pulumi preview` too), about a server URL in plain http: the
 * password and the tokens would cross the network unencrypted. A warning rather than a refusal:
 * an http URL to a web adaptor inside a trusted network, or to a local test server, is a choice
 * the user may make, but never unknowingly.
 */
function warnOfPlainHttp(inputs: Record<string, unknown>): void {
  for (const key of SERVER_URL_INPUTS) {
    const value = inputs[key];
    if (typeof value !== "string") continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (url.protocol !== "http:") continue;
    // Host and path only: a URL may carry user info or a query.
    logWarn(
      `${key} http://${url.host}${url.pathname} is plain http: the password and the tokens ` +
        "are sent unencrypted. Use https.",
    );
  }
}

/**
 * Reads inputs (or outputs read back as inputs) that must be valid, as create, update, read and
 * delete do: output-only keys are dropped, and any problem is thrown as one error.
 *
 * @param resource - the resource's name for the message, e.g. "Site".
 * @param outputOnlyKeys - keys that exist only in outputs.
 *
 * @internal
 */
export function parseValidInputs<T>(
  resource: string,
  schema: z.ZodType,
  raw: unknown,
  outputOnlyKeys: readonly string[],
  crossChecks?: (raw: Record<string, unknown>) => CheckFailure[],
): T {
  const values = withoutProvider(raw);
  for (const key of outputOnlyKeys) delete values[key];
  const { inputs, failures } = checkInputs(schema, values, crossChecks);
  if (failures.length > 0) {
    const problems = failures.map((f) => `${f.property}: ${f.reason}`);
    throw new Error(`Invalid ${resource} inputs: ${problems.join("; ")}`);
  }
  return inputs as T;
}

/**
 * The outputs after an update that changes only state: the old outputs with the state-only
 * inputs taken from the new inputs (an input left out is removed).
 */
export function withStateOnlyChanges<O extends object>(
  olds: O,
  news: object,
  stateOnlyKeys: readonly string[],
): O {
  const outs = { ...olds } as Record<string, unknown>;
  const next = news as Record<string, unknown>;
  for (const key of stateOnlyKeys) {
    if (next[key] === undefined) delete outs[key];
    else outs[key] = next[key];
  }
  return outs as O;
}

/** How a resource checks the server's TLS certificate (the `tls` argument and output). */
export interface TlsSettings {
  /**
   * CA certificate(s) in PEM to trust in addition to the system store (and to the certificates
   * of `NODE_EXTRA_CA_CERTS`), e.g. the server's self-signed certificate of port 6443/20443.
   */
  caCert?: string;
  /** Switches certificate verification off (discouraged; warns on every run). Default false. */
  insecureSkipVerify?: boolean;
}

/** A value type whose every field also accepts a `pulumi.Input` (the arguments' nested shapes). */
export type InputsOf<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** The `tls` argument of every resource: {@link TlsSettings}, each field a `pulumi.Input`. */
export type TlsArgs = pulumi.Input<InputsOf<TlsSettings>>;

/**
 * Compares two JSON-like values for equality regardless of key order, treating `undefined`
 * members as absent (state round trips drop them).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/**
 * Input schema of the `tls` argument shared by every resource.
 *
 * @internal
 */
export function tlsSchema() {
  return z
    .strictObject({
      caCert: z
        .string()
        .refine((pem) => pem.includes("-----BEGIN CERTIFICATE-----"), {
          message: "must be a PEM certificate (-----BEGIN CERTIFICATE-----)",
        })
        .optional(),
      insecureSkipVerify: z.boolean().optional(),
    })
    .optional();
}

/**
 * Input schema of a URL that must be http(s) and must not carry credentials in its user-info part
 * (`https://user:password@host/...`): they would end up in progress lines, error messages and
 * the resource's id. Credentials have their own inputs.
 *
 * @internal
 */
export function httpUrlSchema() {
  return z
    .string()
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.protocol === "https:" || url.protocol === "http:";
        } catch {
          return false;
        }
      },
      { message: "must be an http(s) URL, e.g. https://gis.example.com:20443/arcgis/admin" },
    )
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return url.username === "" && url.password === "";
        } catch {
          return true;
        }
      },
      {
        message:
          "must not contain credentials (user:password@ before the host): give them as " +
          "username and password (or token)",
      },
    );
}

/**
 * A string with something in it: not empty, and not only whitespace.
 *
 * @internal
 */
export function nonEmpty() {
  return z
    .string()
    .min(1, { message: "must not be empty" })
    .refine((value) => value === "" || value.trim() !== "", {
      message: "must not be only whitespace",
    });
}

/**
 * The smallest time limit accepted, 1 s. A limit must be a limit: the HTTP client reads 0 as "no
 * limit at all" (a silent server was waited for forever), and anything below a second cannot
 * even cover one round trip to a remote server.
 */
export const MIN_TIMEOUT_MS = 1000;

/**
 * Input schema of a time limit in milliseconds (at least {@link MIN_TIMEOUT_MS}).
 *
 * @internal
 */
export function timeoutMsSchema(defaultMs: number) {
  return z
    .number()
    .int()
    .min(MIN_TIMEOUT_MS, {
      message: `must be at least ${MIN_TIMEOUT_MS} ms (1 s); 0 does not mean "no limit"`,
    })
    .default(defaultMs);
}

/**
 * Turns the `tls` input into the client layer's transport options, and warns when verification
 * is switched off (the user asked for it, but it should be visible in every run).
 */
export function transportFor(
  target: string,
  tls: { caCert?: string | undefined; insecureSkipVerify?: boolean | undefined } | undefined,
  extra: Omit<TransportOptions, "tls"> = {},
): TransportOptions {
  const options: TlsOptions = {};
  if (tls?.caCert !== undefined) options.caCert = tls.caCert;
  if (tls?.insecureSkipVerify === true) {
    options.insecureSkipVerify = true;
    logWarn(
      `TLS certificate verification is switched off for ${target} (tls.insecureSkipVerify). ` +
        "Prefer tls.caCert with the server's CA certificate.",
    );
  }
  return { ...extra, tls: options };
}

/** Formats a duration for progress messages: `45s`, `3m05s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/**
 * Reports progress of a long wait through Pulumi's log at a modest rate, so that a pipeline's
 * output shows that a long creation is alive without flooding it.
 */
export class ProgressReporter {
  private readonly started = Date.now();
  private lastReport = 0;

  /**
   * @param what - what is being waited for, e.g. "site creation on https://host/arcgis/admin".
   * @param limitMs - how long the wait may take in total.
   * @param everyMs - minimum interval between two messages.
   */
  constructor(
    private readonly what: string,
    private readonly limitMs: number,
    private readonly everyMs = 15_000,
  ) {}

  /** Milliseconds since the wait started. */
  elapsed(): number {
    return Date.now() - this.started;
  }

  /** Reports the current state if enough time has passed since the last report. */
  tick(state: string): void {
    const now = Date.now();
    if (now - this.lastReport < this.everyMs) return;
    this.lastReport = now;
    logInfo(
      `Waiting for ${this.what}: ${state} (${formatDuration(this.elapsed())} of at most ${formatDuration(this.limitMs)})`,
    );
  }
}

/**
 * Writes a progress or status line through Pulumi's log. In the provider host there is no engine
 * connection and Pulumi prints to the console, which the engine shows the user.
 */
export function logInfo(message: string): void {
  void pulumi.log.info(message);
}

/** Writes a warning through Pulumi's log. */
export function logWarn(message: string): void {
  void pulumi.log.warn(message);
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The message for a failed operation: a client error already says which operation failed where,
 * anything else gets that prefix.
 */
export function failureMessage(operation: string, target: string, error: unknown): string {
  if (isArcGISRequestError(error)) return error.message;
  return `${operation} on ${target} failed: ${messageOf(error)}`;
}

/** Reads a message from anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The module of every resource's type token. Pulumi gives a dynamic resource the type
 * `pulumi-nodejs:dynamic/<module>:<type>` (its package is always the dynamic-provider host's,
 * `pulumi-nodejs`), so a Site is `pulumi-nodejs:dynamic/arcgis-admin:Site`.
 */
export const TYPE_MODULE = "arcgis-admin";

/**
 * The type every resource of versions before 0.2 had: Pulumi's default for a dynamic resource.
 * A stack created with such a version keeps its resources when they get
 * `aliases: [{ type: LEGACY_RESOURCE_TYPE }]` for one `pulumi up`.
 */
export const LEGACY_RESOURCE_TYPE = "pulumi-nodejs:dynamic:Resource";

/**
 * The full type token of a resource of this package, e.g. `pulumi-nodejs:dynamic/arcgis-admin:Site`.
 *
 * @param type - the resource's class name.
 */
export function typeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${TYPE_MODULE}:${type}`;
}

/**
 * The resource options a resource registers with: the user's, with this resource's secret outputs
 * added to (never replacing) the user's `additionalSecretOutputs`. Options that dynamic resources
 * cannot honour are warned about, naming the argument that does the job: `customTimeouts` (the
 * engine does not apply them to dynamic resources: use `timeouts`) and `import` (`pulumi import`
 * does not work for dynamic resources: `Site` has `adoptExisting`).
 *
 * A new resource registers with
 * `super(provider, name, props, resourceOptions("Site", name, opts, ["password"]), TYPE_MODULE, "Site")`.
 *
 * @param type - the resource's class name, for the warnings.
 * @param name - the resource's name, for the warnings.
 * @param opts - the user's options.
 * @param secretOutputs - the outputs this resource always keeps secret.
 */
export function resourceOptions(
  type: string,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
  secretOutputs: readonly string[],
): pulumi.CustomResourceOptions {
  const merged = [...new Set([...(opts?.additionalSecretOutputs ?? []), ...secretOutputs])];
  if (opts?.customTimeouts !== undefined) {
    logWarn(
      `${type} "${name}": customTimeouts is ignored (Pulumi does not apply it to dynamic ` +
        `resources); use the resource's own timeouts argument instead.`,
    );
  }
  if (opts?.import !== undefined) {
    logWarn(
      `${type} "${name}": the import option is ignored (pulumi import does not work for dynamic ` +
        `resources)` +
        (type === "Site"
          ? "; to manage an existing site, set adoptExisting: true."
          : "; this resource reads the existing object when it is created."),
    );
  }
  return { ...opts, additionalSecretOutputs: merged };
}

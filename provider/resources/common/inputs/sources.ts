/**
 * Where a resource's inputs can come from, worded for the user who reads the message: a
 * TypeScript program (arguments, the `connection` argument, stack config and the environment,
 * resolved in the program), a YAML or Python program through the plugin (properties, then the
 * plugin's configuration: stack config and the environment) or `pulumi import` (stack config and
 * the environment only). One wording for every message that says an input is missing or refused,
 * so that the three paths cannot drift apart.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ConnectionKind } from "./definition";

/**
 * Who runs a step, and so what the user can change: `program` (a TypeScript program, Pulumi's
 * dynamic-provider host, and direct calls), `plugin` (a YAML or Python program), `import`
 * (`pulumi import` through the plugin).
 */
export type Runtime = "program" | "plugin" | "import";

const runtime = new AsyncLocalStorage<Runtime>();

/**
 * Runs `step` as `kind`: the plugin's server runs every request as `plugin`, its import as
 * `import`. Anything else is the program's (the dynamic-provider host sets nothing).
 */
export function runAs<T>(kind: Runtime, step: () => T): T {
  return runtime.run(kind, step);
}

/** Who runs the step under way (see {@link runAs}). */
export function currentRuntime(): Runtime {
  return runtime.getStore() ?? "program";
}

/** The stack-config namespace: `pulumi config set arcgis-admin:adminUrl ...`. */
const NAMESPACE = "arcgis-admin";

/** One connection default: its stack-config key and environment variable (docs/connection.md). */
interface DefaultSource {
  key: string;
  env: string;
  secret: boolean;
  /** The default URL a credential serves (its config key), when it is a credential. */
  serves?: string;
}

/**
 * The connection defaults, by name. provider/resources/common/connection/resolve.ts re-exports it as
 * `CONNECTION_DEFAULTS`, which the program and the plugin resolve with.
 */
export const DEFAULT_SOURCES = {
  adminUrl: { key: "adminUrl", env: "ARCGIS_ADMIN_URL", secret: false },
  username: { key: "username", env: "ARCGIS_ADMIN_USERNAME", secret: false, serves: "adminUrl" },
  password: { key: "password", env: "ARCGIS_ADMIN_PASSWORD", secret: true, serves: "adminUrl" },
  caCert: { key: "caCert", env: "ARCGIS_ADMIN_CA_CERT", secret: false },
  insecureSkipVerify: {
    key: "insecureSkipVerify",
    env: "ARCGIS_ADMIN_INSECURE_SKIP_VERIFY",
    secret: false,
  },
  sharingUrl: { key: "sharingUrl", env: "ARCGIS_ADMIN_SHARING_URL", secret: false },
  portalUsername: {
    key: "portalUsername",
    env: "ARCGIS_ADMIN_PORTAL_USERNAME",
    secret: false,
    serves: "sharingUrl",
  },
  portalPassword: {
    key: "portalPassword",
    env: "ARCGIS_ADMIN_PORTAL_PASSWORD",
    secret: true,
    serves: "sharingUrl",
  },
  portalToken: {
    key: "portalToken",
    env: "ARCGIS_ADMIN_PORTAL_TOKEN",
    secret: true,
    serves: "sharingUrl",
  },
} as const satisfies Record<string, DefaultSource>;

type DefaultName = keyof typeof DEFAULT_SOURCES;

/**
 * An input with a default: which default fills it, its name in the `connection` argument, and
 * whether the TypeScript classes take it from the defaults (Federation's `serverUsername` and
 * `serverPassword` are plain arguments there; the plugin fills them from the server defaults).
 */
interface InputSource {
  from: DefaultName;
  inConnection?: string;
  programDefaults: boolean;
}

const SERVER: Record<string, InputSource> = {
  adminUrl: { from: "adminUrl", inConnection: "adminUrl", programDefaults: true },
  username: { from: "username", inConnection: "username", programDefaults: true },
  password: { from: "password", inConnection: "password", programDefaults: true },
};

const PORTAL: Record<string, InputSource> = {
  sharingUrl: { from: "sharingUrl", inConnection: "sharingUrl", programDefaults: true },
  username: { from: "portalUsername", inConnection: "username", programDefaults: true },
  password: { from: "portalPassword", inConnection: "password", programDefaults: true },
  token: { from: "portalToken", inConnection: "token", programDefaults: true },
};

/**
 * What a resource's definition says of its connection: its kind, and the inputs naming a
 * server's administrator beside a portal connection (Federation's `serverAccount`).
 */
export interface ResourceConnection {
  type: string;
  connection: ConnectionKind;
  serverAccount?: { username: string; password: string } | undefined;
}

/**
 * The inputs with defaults of each resource, by its class name: made known by its class and by
 * its frame as they load (`knowResource`), from its definition. Not read from the registry: the
 * definitions load zod and the REST client, which a program's class must not (tests/package/
 * lazy-client.test.ts), and every path that words a message has loaded the class or the frame.
 */
const INPUT_SOURCES = new Map<string, Record<string, InputSource>>();

/** Makes a resource's inputs with defaults known, from its connection kind and server account. */
export function knowResource({ type, connection, serverAccount }: ResourceConnection): void {
  const { adminUrl, ...credentials } = SERVER;
  const byKind = {
    server: SERVER,
    machine: { siteAdminUrl: adminUrl!, ...credentials },
    portal: PORTAL,
  };
  const account: Record<string, InputSource> =
    serverAccount === undefined
      ? {}
      : {
          [serverAccount.username]: { from: "username", programDefaults: false },
          [serverAccount.password]: { from: "password", programDefaults: false },
        };
  INPUT_SOURCES.set(type, { ...byKind[connection], ...account });
}

/** How a default is set: `pulumi config set --secret arcgis-admin:password`. */
function configCommand(source: DefaultSource): string {
  return `pulumi config set ${source.secret ? "--secret " : ""}${NAMESPACE}:${source.key}`;
}

/** "a", "a or b", "a, b or c". */
function either(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]!}`;
}

/** The default of an input on this path, if it has one there. */
function defaultOf(resource: string, input: string, kind: Runtime) {
  const source = INPUT_SOURCES.get(resource)?.[input];
  if (source === undefined || (kind === "program" && !source.programDefaults)) return undefined;
  return { source, defaults: DEFAULT_SOURCES[source.from] as DefaultSource };
}

/** The note that a credential default serves only the default URL's server. */
function servesNote(defaults: readonly DefaultSource[]): string {
  const url = defaults.find((d) => d.serves !== undefined)?.serves;
  return url === undefined
    ? ""
    : ` (stack config and environment credentials serve only the URL that ${NAMESPACE}:${url} ` +
        "names, when it is set)";
}

/**
 * Where one input can be given on this path, as a sentence ending in a full stop: "Give it as the
 * argument password, as password in the connection argument, as stack config
 * arcgis-admin:password (`pulumi config set --secret arcgis-admin:password`) or as environment
 * variable ARCGIS_ADMIN_PASSWORD." A YAML or Python user is told of the property, an import of
 * stack config and the environment only.
 *
 * @param resource - the resource's class name, e.g. "Site".
 * @param input - the input's name, e.g. "password".
 * @param kind - the path (default: the step's, {@link currentRuntime}).
 */
export function whereToGive(resource: string, input: string, kind = currentRuntime()): string {
  const found = defaultOf(resource, input, kind);
  const places: string[] = [];
  if (kind === "program") places.push(`as the argument ${input}`);
  if (kind === "plugin") places.push(`as the resource's property ${input}`);
  if (kind === "program" && found?.source.inConnection !== undefined) {
    places.push(`as ${found.source.inConnection} in the connection argument`);
  }
  if (found !== undefined) {
    places.push(
      `as stack config ${NAMESPACE}:${found.defaults.key} (\`${configCommand(found.defaults)}\`)`,
      `as environment variable ${found.defaults.env}`,
    );
  }
  // Only an import has no place of its own: what is not configured comes from its id.
  if (places.length === 0) return "It comes from the import id (docs/import.md).";
  const verb = kind === "program" ? "Give" : "Set";
  return `${verb} it ${either(places)}${found === undefined ? "" : servesNote([found.defaults])}.`;
}

/**
 * Where credentials the server refused were given, naming each input and, on this path, what
 * supplies it: "check the arguments username and password (or their connection argument, stack
 * config arcgis-admin:username and arcgis-admin:password, environment variables …)".
 *
 * @param resource - the resource's class name.
 * @param inputs - the inputs holding the credentials, e.g. ["username", "password"].
 */
export function credentialsToCheck(
  resource: string,
  inputs: readonly string[],
  kind = currentRuntime(),
): string {
  const found = inputs.map((input) => defaultOf(resource, input, kind));
  const defaults = found.flatMap((f) => (f === undefined ? [] : [f.defaults]));
  const configKeys = defaults.map((d) => `${NAMESPACE}:${d.key}`).join(" and ");
  const envs = defaults.map((d) => d.env).join(" and ");
  const names = inputs.join(" and ");
  if (kind === "import") {
    return `check stack config ${configKeys} (or environment variables ${envs})`;
  }
  const what = kind === "program" ? `the arguments ${names}` : `the properties ${names}`;
  if (defaults.length === 0) return `check ${what}`;
  const connection =
    kind === "program" && found.some((f) => f?.source.inConnection !== undefined)
      ? "the connection argument, "
      : "";
  return (
    `check ${what}, or, when the resource leaves them out, ${connection}stack config ` +
    `${configKeys} or environment variables ${envs}`
  );
}

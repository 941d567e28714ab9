/**
 * Where a resource's server connection comes from when its arguments leave it out: a
 * {@link ServerConnection} (or {@link PortalConnection}) declared once and passed to several
 * resources, then the stack's config (namespace `arcgis-admin`), then environment variables
 * (`ARCGIS_ADMIN_*`), the way Pulumi's providers read `aws:region` / `AWS_REGION`.
 *
 * Everything is resolved in the program, into the resource's ordinary inputs: state records the
 * connection each resource was created with, and destroy (which never runs the program) uses it.
 * Credentials from any source are wrapped as secrets.
 *
 * A new resource adopts it in its constructor:
 * `const c = resolveServerConnection("LogSettings", name, args);` then
 * `super(...registration(LOG_SETTINGS, name, args, c, opts))`, which registers the arguments
 * without `connection`, with `c` over them (the password is already a secret).
 */
import * as pulumi from "@pulumi/pulumi";
import type { TlsArgs } from "./tls";
import { sameUrl } from "./urls";
import { DEFAULT_SOURCES, whereToGive } from "../inputs/sources";

/** The stack-config namespace of this package: `pulumi config set arcgis-admin:adminUrl ...`. */
export const CONFIG_NAMESPACE = "arcgis-admin";

/**
 * A server's administrative connection, declared once and given to several resources as their
 * `connection`. Arguments given to a resource itself take precedence over it.
 *
 * @example
 * ```ts
 * const server: ServerConnection = {
 *   adminUrl: "https://gis.example.com:20443/arcgis/admin",
 *   username: "siteadmin",
 *   password: config.requireSecret("sitePassword"),
 *   tls: { caCert: config.require("caCert") },
 * };
 * const site = new Site("site", { connection: server });
 * new SiteExport("backup", { connection: server, downloadTo: "backups" });
 * ```
 */
export interface ServerConnection {
  /** The administrative root, e.g. `https://gis.example.com:20443/arcgis/admin`. */
  adminUrl?: pulumi.Input<string>;
  /** An administrator's name (for a Site: the primary administrator createNewSite sets up). */
  username?: pulumi.Input<string>;
  /** That administrator's password. Stored only as a secret. */
  password?: pulumi.Input<string>;
  /** How the server's certificate is checked. */
  tls?: TlsArgs;
}

/**
 * The connection arguments of a server resource (Site, SiteExport, LogSettings, SiteImport; a
 * SiteMachine's but `adminUrl`): each may be left out, and is then taken from `connection`, stack
 * config or the environment.
 */
export interface ServerConnectionArgs {
  /**
   * Administrative root of the server, e.g. `https://gis.example.com:20443/arcgis/admin`
   * (typically a Site's `adminUrl`). Default: `connection.adminUrl`, stack config
   * `arcgis-admin:adminUrl`, `ARCGIS_ADMIN_URL`.
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
  /**
   * TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. Default:
   * `connection.tls`, `arcgis-admin:caCert` / `arcgis-admin:insecureSkipVerify`,
   * `ARCGIS_ADMIN_CA_CERT` / `ARCGIS_ADMIN_INSECURE_SKIP_VERIFY`.
   */
  tls?: TlsArgs;
  /** A server connection declared once (see {@link ServerConnection}); the arguments above win. */
  connection?: ServerConnection;
}

/** A portal's connection, declared once and given to several `Collaboration`s. */
export interface PortalConnection {
  /** The portal's sharing API root, e.g. `https://gis.example.com/portal/sharing/rest`. */
  sharingUrl?: pulumi.Input<string>;
  /** A portal administrator's name (with password). */
  username?: pulumi.Input<string>;
  /** That administrator's password. Stored only as a secret. */
  password?: pulumi.Input<string>;
  /** A portal token instead of username and password. Stored only as a secret. */
  token?: pulumi.Input<string>;
  /** How the portal's certificate is checked. */
  tls?: TlsArgs;
}

/** One default: its stack-config key (in {@link CONNECTION_DEFAULTS}) and environment variable. */
interface Source {
  key: string;
  env: string;
  secret: boolean;
}

/** The config keys and environment variables of every default, documented in docs/connection.md. */
export const CONNECTION_DEFAULTS = DEFAULT_SOURCES;

/** The default from stack config, else the environment; a secret one is wrapped as a secret. */
function fromDefaults(source: Source): pulumi.Input<string> | undefined {
  const config = new pulumi.Config(CONFIG_NAMESPACE);
  const configured = source.secret ? config.getSecret(source.key) : config.get(source.key);
  if (configured !== undefined) return configured;
  const env = process.env[source.env];
  if (env === undefined || env === "") return undefined;
  return source.secret ? pulumi.secret(env) : env;
}

/**
 * Collects what is missing, so that every missing value is named at once: a Pulumi `RunError`
 * (shown without a stack trace: it is the user's to fix, not a fault of the code), each value
 * worded as check() words it on this path (../inputs/sources.ts).
 */
class MissingValues {
  private readonly missing: string[] = [];

  constructor(
    private readonly resource: string,
    private readonly name: string,
  ) {}

  take<T>(value: T | undefined, argument: string): T {
    if (value === undefined) this.missing.push(argument);
    return value as T;
  }

  throwIfAny(): void {
    if (this.missing.length === 0) return;
    const lines = this.missing.map(
      (argument) => `${argument} is required. ${whereToGive(this.resource, argument, "program")}`,
    );
    throw new pulumi.RunError(`${this.resource} "${this.name}": ${lines.join(" ")}`);
  }
}

/**
 * Whether the credential defaults (stack config, environment) may serve a resource whose URL is
 * `given`: they belong to the default URL, so a resource that names another server (or portal) takes none of
 * them (a password meant for one server is never sent to another). A URL given as an output is
 * compared once known; a mismatch then leaves the credential out, and check() names it.
 */
function credentialDefaultsFor(
  given: pulumi.Input<string> | undefined,
  defaultUrl: Source,
): (value: pulumi.Input<string> | undefined) => pulumi.Input<string> | undefined {
  if (given === undefined) return (value) => value;
  const own = fromDefaults(defaultUrl);
  if (own === undefined) return (value) => value;
  return (value) =>
    value === undefined
      ? undefined
      : typeof given === "string" && typeof own === "string"
        ? sameUrl(given, own)
          ? value
          : undefined
        : pulumi
            .all([given, own, value])
            .apply(([url, mine, v]) => (sameUrl(url, mine) ? v : (undefined as unknown as string)));
}

/** The `tls` from the arguments, the connection, or the defaults (undefined: system CAs). */
function resolveTls(own: TlsArgs | undefined, shared: TlsArgs | undefined): TlsArgs | undefined {
  if (own !== undefined) return own;
  if (shared !== undefined) return shared;
  const caCert = fromDefaults(CONNECTION_DEFAULTS.caCert);
  const insecure = fromDefaults(CONNECTION_DEFAULTS.insecureSkipVerify);
  if (caCert === undefined && insecure === undefined) return undefined;
  return {
    ...(caCert === undefined ? {} : { caCert }),
    ...(insecure === undefined
      ? {}
      : { insecureSkipVerify: pulumi.output(insecure).apply((v) => v.toLowerCase() === "true") }),
  };
}

/** What a server resource registers as its connection inputs. */
export interface ResolvedServerConnection {
  adminUrl: pulumi.Input<string>;
  username: pulumi.Input<string>;
  password: pulumi.Output<string>;
  tls: TlsArgs | undefined;
}

/**
 * Resolves a server resource's connection: its own arguments, else its `connection`, else stack
 * config, else the environment. Throws, naming every place to give it, when one is missing.
 *
 * @param resource - the resource's class name, for the message.
 * @param name - the resource's name, for the message.
 * @param args - the resource's arguments (their `adminUrl`, `username`, `password`, `tls` and
 *   `connection`).
 * @param adminUrlArgument - the argument the connection's `adminUrl` stands for, for the message:
 *   `adminUrl`, or `siteAdminUrl` for a SiteMachine (whose own `adminUrl` is the joining
 *   machine, never taken from a connection).
 */
export function resolveServerConnection(
  resource: string,
  name: string,
  args: { [K in keyof ServerConnection]?: ServerConnection[K] | undefined } & {
    connection?: ServerConnection | undefined;
  },
  adminUrlArgument = "adminUrl",
): ResolvedServerConnection {
  const shared = args.connection ?? {};
  const d = CONNECTION_DEFAULTS;
  const missing = new MissingValues(resource, name);
  const givenUrl = args.adminUrl ?? shared.adminUrl;
  const forThisServer = credentialDefaultsFor(givenUrl, d.adminUrl);
  const adminUrl = missing.take(givenUrl ?? fromDefaults(d.adminUrl), adminUrlArgument);
  const username = missing.take(
    args.username ?? shared.username ?? forThisServer(fromDefaults(d.username)),
    "username",
  );
  const password = missing.take(
    args.password ?? shared.password ?? forThisServer(fromDefaults(d.password)),
    "password",
  );
  missing.throwIfAny();
  return {
    adminUrl,
    username,
    password: pulumi.secret(password),
    tls: resolveTls(args.tls, shared.tls),
  };
}

/** What a portal resource registers as its connection inputs. */
export interface ResolvedPortalConnection {
  sharingUrl: pulumi.Input<string>;
  username: pulumi.Input<string> | undefined;
  password: pulumi.Output<string> | undefined;
  token: pulumi.Output<string> | undefined;
  tls: TlsArgs | undefined;
}

/**
 * The portal credentials from stack config and the environment, for a resource whose sharing URL
 * is `given`: none when it names another portal than the default sharing URL (they belong to it).
 */
function portalDefaults(given: pulumi.Input<string> | undefined) {
  const forThisPortal = credentialDefaultsFor(given, CONNECTION_DEFAULTS.sharingUrl);
  return {
    username: forThisPortal(fromDefaults(CONNECTION_DEFAULTS.portalUsername)),
    password: forThisPortal(fromDefaults(CONNECTION_DEFAULTS.portalPassword)),
    token: forThisPortal(fromDefaults(CONNECTION_DEFAULTS.portalToken)),
  };
}

/**
 * Resolves a portal resource's connection like {@link resolveServerConnection}. Credentials are
 * taken as a pair from one place: a token given (anywhere) wins over defaults of username and
 * password only when none of those is given at a nearer place.
 */
export function resolvePortalConnection(
  resource: string,
  name: string,
  args: PortalConnection & { connection?: PortalConnection | undefined },
): ResolvedPortalConnection {
  const shared = args.connection ?? {};
  const d = CONNECTION_DEFAULTS;
  const nearest = [args, shared].find(
    (c) => c.username !== undefined || c.password !== undefined || c.token !== undefined,
  );
  const credentials: {
    username?: pulumi.Input<string> | undefined;
    password?: pulumi.Input<string> | undefined;
    token?: pulumi.Input<string> | undefined;
  } = nearest ?? portalDefaults(args.sharingUrl ?? shared.sharingUrl);
  const missing = new MissingValues(resource, name);
  const sharingUrl = missing.take(
    args.sharingUrl ?? shared.sharingUrl ?? fromDefaults(d.sharingUrl),
    "sharingUrl",
  );
  missing.throwIfAny();
  return {
    sharingUrl,
    username: credentials.username,
    password: credentials.password === undefined ? undefined : pulumi.secret(credentials.password),
    token: credentials.token === undefined ? undefined : pulumi.secret(credentials.token),
    tls: resolveTls(args.tls, shared.tls),
  };
}

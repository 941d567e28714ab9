/**
 * The `Site` resource class and its arguments: what a Pulumi program declares. The lifecycle is
 * in site.ts, whose provider it registers with.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ServerType } from "../../client";
import { resolveServerConnection, type ServerConnectionArgs } from "../common/connection";
import { registration } from "../common/registration";
import { ServerResource, serverResourceFrame } from "../common/server-resource";
import { lazyProvider } from "../common/lazy-provider";
import type {
  SiteConfigStoreConnection,
  SiteDirectory,
  SiteLogSettings,
  SiteTimeouts,
} from "./inputs";
import type { SiteReportedConfigStore, SiteReportedDirectory } from "./report";
import type { InputsOf } from "../common/tls";

/**
 * The serialized provider of `Site`: about 3 KB that load `implementation` from the released
 * module path `dist/provider/resources/site.js` when the engine calls it.
 */
export const siteProvider = lazyProvider("site");

/**
 * What a Site registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE = serverResourceFrame("Site", siteProvider, {
  fromArguments: ["directories", "logSettings", "runAsync", "adoptExisting", "deleteSiteOnDestroy"],
  outputOnly: [
    "state",
    "createdAt",
    "machines",
    "serverVersion",
    "serverLogSettings",
    "serverDirectories",
    "serverConfigStore",
  ],
});

/**
 * Arguments of a {@link Site}: the server's connection ({@link ServerConnectionArgs}), whose
 * administrator createNewSite sets up, and the site. Every field accepts a `pulumi.Input`.
 */
export interface SiteArgs extends ServerConnectionArgs {
  /**
   * The product: `mission-server` (default), `arcgis-server`, `notebook-server` or
   * `video-server`. It decides the form of createNewSite, the directory types and the health
   * check; a server whose answers show another product is refused before createNewSite.
   */
  serverType?: pulumi.Input<ServerType>;
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
export class Site extends ServerResource<SiteTimeouts> {
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
  /** "created" when this resource created the site, "adopted" when it adopted an existing one. */
  declare public readonly state: pulumi.Output<"created" | "adopted">;
  /** When the site was created or adopted (ISO 8601). */
  declare public readonly createdAt: pulumi.Output<string>;
  /**
   * Names of the site's machines, as the server reports them: unset right after a synchronous
   * createNewSite (the create reads nothing after the server's answer) until `pulumi refresh`.
   */
  declare public readonly machines: pulumi.Output<string[] | undefined>;
  /** The server's version as rest/info reports it (`fullVersion`, else `currentVersion`). */
  declare public readonly serverVersion: pulumi.Output<string | undefined>;
  /**
   * The log settings as the server reports them (its own field names and values): unset right
   * after a synchronous createNewSite until `pulumi refresh`, as `machines` is.
   */
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
    const connection = resolveServerConnection("Site", name, args);
    // A cloud store's credentials make the whole connection a secret; a file share path alone
    // stays readable in previews and outputs.
    const configStoreConnection =
      args.configStoreConnection === undefined
        ? undefined
        : pulumi
            .output(args.configStoreConnection)
            .apply((c) => (c.connectionSecret === undefined ? c : pulumi.secret(c)));
    super(...registration(SITE, name, args, { ...connection, configStoreConnection }, opts));
  }
}

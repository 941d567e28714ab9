/**
 * The `Federation` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `lifecycle.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ServerType } from "../../client";
import { lazyProvider } from "../common/lazy-provider";
import { registration } from "../common/registration";
import { PortalResource, portalResourceFrame } from "../common/portal-resource";
import type { PortalConnectionArgs } from "../common/portal-resource";
import { resolvePortalConnection } from "../common/connection";

/** The server roles a portal takes (Chef's `update_server`; the portal's update docs). */
export const SERVER_ROLES = [
  "FEDERATED_SERVER",
  "FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING",
  "HOSTING_SERVER",
] as const;

/** One of {@link SERVER_ROLES}. */
export type ServerRole = (typeof SERVER_ROLES)[number];

/**
 * The serialized provider of `Federation`: about 3 KB that load `implementation` from the
 * released module path `dist/provider/resources/federation.js` when the engine calls it.
 */
export const federationProvider = lazyProvider("federation");

/**
 * What a Federation registers with beyond what every portal resource does: its own outputs and
 * secrets (its input rules read them too).
 *
 * @internal
 */
export const FEDERATION = portalResourceFrame("Federation", federationProvider, {
  secretOutputs: ["serverPassword"],
  fromArguments: [
    "serverType",
    "serverUrl",
    "serverRole",
    "serverFunction",
    "adoptExisting",
    "unfederateAdoptedOnDestroy",
    "forceUnfederate",
    "timeouts",
  ],
  outputOnly: ["serverId", "state", "serverName", "portalServerType"],
});

/**
 * Arguments of a {@link Federation}: the portal's connection ({@link PortalConnectionArgs}), the
 * server and its role. Every field accepts a `pulumi.Input`.
 */
export interface FederationArgs extends PortalConnectionArgs {
  /**
   * The portal's sharing API root, e.g. `https://portal.example.com/portal/sharing/rest`; its
   * administrative root (`…/portaladmin`) is found beside it. Default: `connection.sharingUrl`,
   * stack config `arcgis-admin:sharingUrl`, `ARCGIS_ADMIN_SHARING_URL`.
   */
  sharingUrl?: pulumi.Input<string>;
  /** The server's product (typically a Site's `serverType`); default `mission-server`. */
  serverType?: pulumi.Input<ServerType>;
  /**
   * The server's administrative root (typically a Site's `adminUrl`), e.g.
   * `https://gis.example.com:20443/arcgis/admin`; the portal is given the site root without
   * `/admin`.
   */
  adminUrl: pulumi.Input<string>;
  /** The services URL users reach (a Web Adaptor's); default the site root. */
  serverUrl?: pulumi.Input<string>;
  /** The server's primary site administrator (typically a Site's `username`). */
  serverUsername: pulumi.Input<string>;
  /** Its password (typically a Site's `password`). Stored only as a secret. */
  serverPassword: pulumi.Input<string>;
  /** The role: FEDERATED_SERVER (default), FEDERATED_SERVER_WITH_RESTRICTED_PUBLISHING or HOSTING_SERVER. */
  serverRole?: pulumi.Input<ServerRole>;
  /**
   * The server's function(s), comma-separated; default per product: MissionServer,
   * NotebookServer, VideoServer, none for ArcGIS Server.
   */
  serverFunction?: pulumi.Input<string>;
  /** Take on a server the portal has federated already (default false: that is an error). */
  adoptExisting?: pulumi.Input<boolean>;
  /** On destroy, unfederate a server this stack only adopted (default false: it stays). */
  unfederateAdoptedOnDestroy?: pulumi.Input<boolean>;
  /** Unfederate even when the portal cannot reach the server (default true, as Chef does). */
  forceUnfederate?: pulumi.Input<boolean>;
  /**
   * The root or intermediate certificate (PEM) that signed the server's certificate, for a portal
   * that does not trust it yet: imported into the portal's keystore under `alias` before
   * federating, once (an alias the portal keeps with the same certificate is not imported again;
   * one holding another certificate is an error, never overwritten), then the portal restarts
   * and is waited for (`restartWaitMs`, default 60000, as Chef waits). Never removed on destroy.
   */
  serverCertificate?: pulumi.Input<{
    alias: pulumi.Input<string>;
    pem: pulumi.Input<string>;
    restartWaitMs?: pulumi.Input<number>;
  }>;
  /** Bound on federate, including finding a lost answer's outcome (default 10 minutes). */
  timeouts?: pulumi.Input<{ federateMs?: pulumi.Input<number> }>;
}

/**
 * An ArcGIS server federated with a portal: created with
 * `POST {portal}/portaladmin/federation/servers/federate`, then its role and function set with
 * `…/servers/<id>/update`; destroyed with `…/servers/<id>/unfederate`.
 *
 * @example
 * ```ts
 * new Federation("mission", {
 *   sharingUrl: "https://portal.example.com/portal/sharing/rest",
 *   username: "portaladmin",
 *   password: config.requireSecret("portalPassword"),
 *   serverType: site.serverType,
 *   adminUrl: site.adminUrl,
 *   serverUsername: site.username,
 *   serverPassword: site.password,
 * });
 * ```
 */
export class Federation extends PortalResource {
  /** The server's product. */
  declare public readonly serverType: pulumi.Output<ServerType>;
  /** The server's administrative root. */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The services URL, when one was given. */
  declare public readonly serverUrl: pulumi.Output<string | undefined>;
  /** The server's primary site administrator. */
  declare public readonly serverUsername: pulumi.Output<string>;
  /** Its password (secret). */
  declare public readonly serverPassword: pulumi.Output<string>;
  /** The role (after a refresh: the portal's). */
  declare public readonly serverRole: pulumi.Output<ServerRole>;
  /** The function given (after a refresh: the portal's), when not the product's default. */
  declare public readonly serverFunction: pulumi.Output<string | undefined>;
  /** Whether a federated server was taken on. */
  declare public readonly adoptExisting: pulumi.Output<boolean>;
  /** Whether destroy unfederates an adopted server. */
  declare public readonly unfederateAdoptedOnDestroy: pulumi.Output<boolean>;
  /** Whether unfederate is forced. */
  declare public readonly forceUnfederate: pulumi.Output<boolean>;
  /** The bound in effect, default filled in (milliseconds). */
  declare public readonly timeouts: pulumi.Output<{ federateMs: number }>;
  /** The portal's id of the server. */
  declare public readonly serverId: pulumi.Output<string>;
  /** `federated` (by this stack) or `adopted`. */
  declare public readonly state: pulumi.Output<"federated" | "adopted">;
  /** The server's name in the portal. */
  declare public readonly serverName: pulumi.Output<string>;
  /** The server's type as the portal reports it, e.g. `ARCGIS_MISSION_SERVER`. */
  declare public readonly portalServerType: pulumi.Output<string>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the portal, the server and its role; see {@link FederationArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: FederationArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolvePortalConnection("Federation", name, args);
    // A server is federated with a portal once: a replacement unfederates it first.
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(
      ...registration(
        FEDERATION,
        name,
        args,
        { ...connection, serverPassword: pulumi.secret(args.serverPassword) },
        options,
      ),
    );
  }
}

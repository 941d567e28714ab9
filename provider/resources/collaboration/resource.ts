/**
 * The `Collaboration` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `collaboration.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { lazyProvider } from "../common/lazy-provider";
import { registration, type ResourceFrame } from "../common/registration";
import { type TlsArgs, type TlsSettings } from "../common/tls";
import { type PortalConnection, resolvePortalConnection } from "../common/connection";

/**
 * The serialized provider of `Collaboration`: about 3 KB that load `implementation` from the released
 * module path `dist/provider/resources/collaboration.js` when the engine calls it.
 */
export const collaborationProvider = lazyProvider("collaboration");

/**
 * What a Collaboration registers with: its provider, secrets and outputs. Its input rules read
 * them too.
 *
 * @internal
 */
export const COLLABORATION: ResourceFrame = {
  type: "Collaboration",
  provider: collaborationProvider,
  secretOutputs: ["password", "token"],
  fromArguments: ["leaveAsGuest", "portalId"],
  outputOnly: ["portalIdGiven", "name", "description", "hostPortalId", "role"],
};

/** Arguments of a {@link Collaboration}. Every field accepts a `pulumi.Input`. */
export interface CollaborationArgs {
  /**
   * The portal's sharing API root, e.g. `https://portal.example.com/portal/sharing/rest`.
   * Default: `connection.sharingUrl`, stack config `arcgis-admin:sharingUrl`,
   * `ARCGIS_ADMIN_SHARING_URL`.
   */
  sharingUrl?: pulumi.Input<string>;
  /**
   * A portal connection declared once (see {@link PortalConnection}). Credentials come as a
   * whole from the nearest place that gives any: these arguments, the connection, else
   * `arcgis-admin:portalUsername` / `portalPassword` / `portalToken` (or
   * `ARCGIS_ADMIN_PORTAL_USERNAME` / `_PASSWORD` / `_TOKEN`).
   */
  connection?: PortalConnection;
  /** The collaboration's id. */
  collaborationId: pulumi.Input<string>;
  /** This portal's id; omitted, it is read from portals/self. */
  portalId?: pulumi.Input<string>;
  /** A portal administrator (with password), unless a token is given. */
  username?: pulumi.Input<string>;
  /** The administrator's password. Stored only as a secret. */
  password?: pulumi.Input<string>;
  /** A portal token instead of username and password. Stored only as a secret. */
  token?: pulumi.Input<string>;
  /** On a guest portal: make destroy remove this portal's participation (default false). */
  leaveAsGuest?: pulumi.Input<boolean>;
  /** TLS: a CA certificate (PEM) to trust, or (discouraged) no verification at all. */
  tls?: TlsArgs;
}

/**
 * A distributed collaboration whose deletion this stack owns: `pulumi destroy` calls
 * `POST {base_url}/portals/<portal_id>/collaborations/<id>/delete` (host) or
 * `.../removeParticipation` (guest, with leaveAsGuest).
 *
 * @example
 * ```ts
 * new Collaboration("partners", {
 *   sharingUrl: "https://portal.example.com/portal/sharing/rest",
 *   collaborationId: "8ba8a0b9c5d94c35b2c8f3a1e4d2c7b6",
 *   username: "portaladmin",
 *   password: config.requireSecret("portalPassword"),
 * });
 * ```
 */
export class Collaboration extends pulumi.dynamic.Resource {
  /** The portal's sharing API root. */
  declare public readonly sharingUrl: pulumi.Output<string>;
  /** The collaboration's id. */
  declare public readonly collaborationId: pulumi.Output<string>;
  /** Whether portalId was given (false: it was read from portals/self). */
  declare public readonly portalIdGiven: pulumi.Output<boolean>;
  /** The administrator's name, when one was given. */
  declare public readonly username: pulumi.Output<string | undefined>;
  /** The administrator's password (secret), when one was given. */
  declare public readonly password: pulumi.Output<string | undefined>;
  /** The token (secret), when one was given. */
  declare public readonly token: pulumi.Output<string | undefined>;
  /** Whether destroy on a guest portal removes this portal's participation. */
  declare public readonly leaveAsGuest: pulumi.Output<boolean>;
  /** The TLS settings used to reach the portal. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The portal id used. */
  declare public readonly portalId: pulumi.Output<string>;
  /** The collaboration's name. */
  declare public readonly name: pulumi.Output<string>;
  /** The collaboration's description. */
  declare public readonly description: pulumi.Output<string>;
  /** The host portal's id. */
  declare public readonly hostPortalId: pulumi.Output<string>;
  /** This portal's role in the collaboration. */
  declare public readonly role: pulumi.Output<"host" | "guest">;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the collaboration and credentials; see {@link CollaborationArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: CollaborationArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolvePortalConnection("Collaboration", name, args);
    super(...registration(COLLABORATION, name, args, connection, opts));
  }
}

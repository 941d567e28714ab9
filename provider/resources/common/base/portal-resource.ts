/**
 * What every resource on a portal declares alike: its arguments for the portal connection, and
 * its outputs for the portal it acts on and how it reaches it. Their own arguments, the lifecycle
 * and the other outputs stay in each resource's own files.
 */
import * as pulumi from "@pulumi/pulumi";
import type { PortalConnection } from "../connection/resolve";
import type { TlsArgs, TlsSettings } from "../connection/tls";

/**
 * The connection arguments of a portal resource (PortalSite, Collaboration, Federation): each
 * may be left out, and is then taken from `connection`, stack config or the environment.
 */
export interface PortalConnectionArgs {
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
  /** A portal administrator (with password), unless a token is given. */
  username?: pulumi.Input<string>;
  /** The portal administrator's password. Stored only as a secret. */
  password?: pulumi.Input<string>;
  /** A portal token instead of username and password. Stored only as a secret. */
  token?: pulumi.Input<string>;
  /**
   * TLS to reach the portal: a CA certificate (PEM) to trust, or (discouraged) no verification
   * at all.
   */
  tls?: TlsArgs;
}

/**
 * The base class of PortalSite, Collaboration and Federation: a Pulumi dynamic resource with the
 * portal outputs they share. Not declared on its own.
 */
export abstract class PortalResource extends pulumi.dynamic.Resource {
  /** The portal's sharing API root. */
  declare public readonly sharingUrl: pulumi.Output<string>;
  /** The portal administrator's name, when one was given. */
  declare public readonly username: pulumi.Output<string | undefined>;
  /** The portal administrator's password (secret), when one was given. */
  declare public readonly password: pulumi.Output<string | undefined>;
  /** The portal token (secret), when one was given. */
  declare public readonly token: pulumi.Output<string | undefined>;
  /** The TLS settings used to reach the portal. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
}

/**
 * What every resource on a server's administrative root declares alike: its outputs for the
 * server it acts on, how it reaches it and its time limits, and the arguments of those that take
 * the whole server connection. The lifecycle and the other arguments and outputs stay in each
 * resource's own files.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ServerType } from "../../../client";
import type { ServerConnectionArgs } from "../connection/resolve";
import type { TlsSettings } from "../connection/tls";

/**
 * The arguments of SiteExport, LogSettings, SiteImport and ServerCertificate beyond their own:
 * the server's connection ({@link ServerConnectionArgs}) and its product.
 */
export interface ServerResourceArgs extends ServerConnectionArgs {
  /** The product (typically a Site's `serverType`); default `mission-server`. */
  serverType?: pulumi.Input<ServerType>;
}

/**
 * The base class of Site, SiteMachine, SiteExport, LogSettings, SiteImport and ServerCertificate: a
 * Pulumi dynamic resource with the outputs they share. Not declared on its own.
 *
 * @typeParam Timeouts - the resource's time limits (its `timeouts` output).
 */
export abstract class ServerResource<Timeouts extends object = object>
  extends pulumi.dynamic.Resource
{
  /** The product of the server (`mission-server`, `arcgis-server`, ...). */
  declare public readonly serverType: pulumi.Output<ServerType>;
  /** The administrative root the resource acts on (for a SiteMachine: the joining machine's). */
  declare public readonly adminUrl: pulumi.Output<string>;
  /** The administrator the resource acts as (for a Site: the primary site administrator). */
  declare public readonly username: pulumi.Output<string>;
  /** That administrator's password (secret). */
  declare public readonly password: pulumi.Output<string>;
  /** The TLS settings used to reach the server, as declared. */
  declare public readonly tls: pulumi.Output<TlsSettings | undefined>;
  /** The time limits in effect, defaults filled in (milliseconds). */
  declare public readonly timeouts: pulumi.Output<Timeouts>;
}

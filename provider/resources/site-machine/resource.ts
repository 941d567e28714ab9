/**
 * The `SiteMachine` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `site-machine.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ServerType } from "../../client";
import {
  resolveServerConnection,
  type ServerConnection,
  type ServerConnectionArgs,
} from "../common/connection";
import { registration } from "../common/registration";
import { ServerResource, serverResourceFrame } from "../common/server-resource";
import { lazyProvider } from "../common/lazy-provider";
import { type TlsArgs } from "../common/tls";

/**
 * The serialized provider of `SiteMachine`: about 3 KB that load `implementation` from the released
 * module path `dist/provider/resources/site-machine.js` when the engine calls it.
 */
export const siteMachineProvider = lazyProvider("site-machine");

/**
 * What a SiteMachine registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE_MACHINE = serverResourceFrame("SiteMachine", siteMachineProvider, {
  fromArguments: ["machineName", "unregisterAdoptedOnDestroy"],
  outputOnly: ["state", "registeredName", "machines", "joinedAt"],
});

/**
 * Arguments of a {@link SiteMachine}: the joining machine, and the site's connection
 * ({@link ServerConnectionArgs}, whose `adminUrl` is `siteAdminUrl` here). Every field accepts a
 * `pulumi.Input`.
 */
export interface SiteMachineArgs extends Omit<ServerConnectionArgs, "adminUrl"> {
  /** The product of the site and the machine: `mission-server` (default) or another. */
  serverType?: pulumi.Input<ServerType>;
  /** Administrative root of the joining machine, e.g. `https://gis2.example.com:20443/arcgis/admin`. */
  adminUrl: pulumi.Input<string>;
  /**
   * Administrative root of a machine already in the site (typically a Site's `adminUrl`).
   * Default: `connection.adminUrl`, stack config `arcgis-admin:adminUrl`, `ARCGIS_ADMIN_URL`:
   * a connection describes the site, so its `adminUrl` is this one, never the joining machine's.
   */
  siteAdminUrl?: pulumi.Input<string>;
  /** The machine's name as the site lists it; default: the host of `adminUrl`. */
  machineName?: pulumi.Input<string>;
  /**
   * Whether destroy unregisters the machine when this resource adopted it (it was in the site
   * before the stack took it on). Default false: an adopted machine is left in the site as it was
   * found. A machine this resource joined is always unregistered on destroy.
   */
  unregisterAdoptedOnDestroy?: pulumi.Input<boolean>;
  /**
   * TLS: a CA certificate (PEM) to trust (for both machines), or (discouraged) no verification.
   * Default: `connection.tls`, then stack config and the environment, as for the others.
   */
  tls?: TlsArgs;
  /**
   * The site's connection declared once (see {@link ServerConnection}): gives `siteAdminUrl`,
   * `username`, `password` and `tls`; the arguments above win.
   */
  connection?: ServerConnection;
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
export class SiteMachine extends ServerResource<{ serverReadyMs: number; joinMs: number }> {
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
  /** The machine's name as declared (when given). */
  declare public readonly machineName: pulumi.Output<string | undefined>;
  /** Whether destroy unregisters an adopted machine, default filled in. */
  declare public readonly unregisterAdoptedOnDestroy: pulumi.Output<boolean>;

  /**
   * @param name - the resource's name in the stack.
   * @param args - the machine and the site; see {@link SiteMachineArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteMachineArgs, opts?: pulumi.CustomResourceOptions) {
    // The connection describes the site: its adminUrl is the site's, never the joining machine's.
    const { adminUrl: siteAdminUrl, ...credentials } = resolveServerConnection(
      "SiteMachine",
      name,
      {
        adminUrl: args.siteAdminUrl,
        username: args.username,
        password: args.password,
        tls: args.tls,
        connection: args.connection,
      },
      "siteAdminUrl",
    );
    super(...registration(SITE_MACHINE, name, args, { siteAdminUrl, ...credentials }, opts));
  }
}

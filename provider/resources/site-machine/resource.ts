/**
 * The `SiteMachine` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `site-machine.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection/resolve";
import { registration } from "../common/pulumi/registration";
import {
  SITE_MACHINE_KEYS,
  type SiteMachineArgs,
  type SiteMachineInputs,
  type SiteMachineOutputProperties,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";
import { lazyProvider } from "../common/pulumi/lazy-provider";

/**
 * The serialized provider of `SiteMachine`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/site-machine.js` when the engine calls it.
 */
export const siteMachineProvider = lazyProvider("site-machine");

/**
 * What a SiteMachine registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE_MACHINE = serverResourceFrame(
  "SiteMachine",
  siteMachineProvider,
  SITE_MACHINE_KEYS,
);

export type { SiteMachineArgs } from "./generated";

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
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class SiteMachine extends ServerResource<SiteMachineInputs["timeouts"]> {
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

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SiteMachine extends SiteMachineOutputProperties {}

/**
 * The `Site` resource class and its arguments: what a Pulumi program declares. The lifecycle is
 * in site.ts, whose provider it registers with.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection/resolve";
import { registration } from "../common/pulumi/registration";
import {
  SITE_KEYS,
  type SiteArgs,
  type SiteOutputProperties,
  type SiteTimeouts,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";
import { lazyProvider } from "../common/pulumi/lazy-provider";

/**
 * The serialized provider of `Site`: a small stub that loads `implementation` from the released
 * module path `dist/provider/resources/site.js` when the engine calls it.
 */
export const siteProvider = lazyProvider("site");

/**
 * What a Site registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE = serverResourceFrame("Site", siteProvider, SITE_KEYS);

export type { SiteArgs } from "./generated";

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
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class Site extends ServerResource<SiteTimeouts> {
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

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Site extends SiteOutputProperties {}

/**
 * The `SiteExport` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `site-export.ts`, the inputs in `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { registration } from "../common/pulumi/registration";
import {
  SITE_EXPORT_KEYS,
  type SiteExportArgs,
  type SiteExportOutputProperties,
  type SiteExportTimeouts,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";
import { resolveServerConnection } from "../common/connection/resolve";
import { lazyProvider } from "../common/pulumi/lazy-provider";

/**
 * The serialized provider of `SiteExport`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/site-export.js` when the engine calls it.
 */
export const siteExportProvider = lazyProvider("site-export");

/**
 * What a SiteExport registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE_EXPORT = serverResourceFrame("SiteExport", siteExportProvider, SITE_EXPORT_KEYS);

export type { SiteExportArgs } from "./generated";

/**
 * An export of a site's configuration (a backup), made with `POST {admin_root}/exportSite`.
 *
 * @example
 * ```ts
 * const backup = new SiteExport("backup", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   downloadTo: "./backups",
 *   triggers: [release],
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class SiteExport extends ServerResource<SiteExportTimeouts> {
  /**
   * @param name - the resource's name in the stack.
   * @param args - what to export and where; see {@link SiteExportArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteExportArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("SiteExport", name, args);
    // The store's credentials are a secret in the inputs Pulumi stores, as in the outputs.
    const credentials =
      args.objectStoreCredentials === undefined
        ? {}
        : { objectStoreCredentials: pulumi.secret(args.objectStoreCredentials) };
    super(...registration(SITE_EXPORT, name, args, { ...connection, ...credentials }, opts));
  }
}

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SiteExport extends SiteExportOutputProperties {}

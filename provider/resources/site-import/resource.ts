/**
 * The `SiteImport` resource as a Pulumi program declares it: its arguments and its class, and
 * what a restore leaves out. The lifecycle is in `site-import.ts`, the inputs in
 * `inputs.ts`.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection/resolve";
import { registration } from "../common/pulumi/registration";
import {
  SITE_IMPORT_KEYS,
  type SiteImportArgs,
  type SiteImportInputs,
  type SiteImportOutputProperties,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";
import { lazyProvider } from "../common/pulumi/lazy-provider";

/**
 * The serialized provider of `SiteImport`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/site-import.js` when the engine calls it.
 */
export const siteImportProvider = lazyProvider("site-import");

/**
 * What a SiteImport registers with beyond what every server resource does: its own outputs
 * (its input rules read them too).
 *
 * @internal
 */
export const SITE_IMPORT = serverResourceFrame("SiteImport", siteImportProvider, SITE_IMPORT_KEYS);

/** What the restore leaves out (the spec's "Excluded from the export"). */
export const NOT_RESTORED = [
  "Cache tiles and tiling schemes",
  "Data used by services, unless it was copied to the server automatically at publish time",
  "Dynamically generated map images and other temporary output",
  "Log messages, including geoprocessing job statuses and messages",
  "Statistics data",
  "Web adaptor configurations",
  "The primary site administrator's name and password (the one in place at the restore stays)",
] as const;

export type { SiteImportArgs } from "./generated";

/**
 * A restore of a site's configuration from an exportSite archive, with
 * `POST {admin_root}/importSite`: the site's configuration (services, security, log settings, ...)
 * is replaced by the archive's. Runs once per archive and site. Does not bring back: cache tiles
 * and tiling schemes, service data not copied to the server at publish time, generated images and
 * temporary output, log messages, statistics data, web adaptor configurations, and the primary
 * administrator's credentials (see {@link NOT_RESTORED}).
 *
 * @example
 * ```ts
 * new SiteImport("restore", {
 *   adminUrl: freshSite.adminUrl,
 *   username: freshSite.username,
 *   password: freshSite.password,
 *   localArchive: backup.localPath,
 *   archiveSha256: backup.sha256,
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class SiteImport extends ServerResource<SiteImportInputs["timeouts"]> {
  /**
   * @param name - the resource's name in the stack.
   * @param args - which site and which archive; see {@link SiteImportArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteImportArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("SiteImport", name, args);
    // The store's credentials are a secret in the inputs Pulumi stores, as in the outputs.
    const credentials =
      args.objectStoreCredentials === undefined
        ? {}
        : { objectStoreCredentials: pulumi.secret(args.objectStoreCredentials) };
    super(...registration(SITE_IMPORT, name, args, { ...connection, ...credentials }, opts));
  }
}

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SiteImport extends SiteImportOutputProperties {}

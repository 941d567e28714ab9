/**
 * The `SiteUpgrade` resource as a Pulumi program declares it: its arguments and its class. The
 * lifecycle is in `lifecycle.ts`, the inputs in `inputs.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { resolveServerConnection } from "../common/connection/resolve";
import { lazyProvider } from "../common/pulumi/lazy-provider";
import { registration } from "../common/pulumi/registration";
import {
  SITE_UPGRADE_KEYS,
  type SiteUpgradeArgs,
  type SiteUpgradeInputs,
  type SiteUpgradeOutputProperties,
} from "./generated";
import { ServerResource, serverResourceFrame } from "../common/base/server-resource";

/**
 * The serialized provider of `SiteUpgrade`: a small stub that loads `implementation` from the
 * released module path `dist/provider/resources/site-upgrade.js` when the engine calls it.
 */
export const siteUpgradeProvider = lazyProvider("site-upgrade");

/**
 * What a SiteUpgrade registers with beyond what every server resource does: its own outputs (its
 * input rules read them too).
 *
 * @internal
 */
export const SITE_UPGRADE = serverResourceFrame(
  "SiteUpgrade",
  siteUpgradeProvider,
  SITE_UPGRADE_KEYS,
);

export type { SiteUpgradeArgs } from "./generated";

/**
 * Completes the upgrade of a site whose software was upgraded in place, with
 * `POST {admin_root}/upgrade`, once, when the site reports that one is due (`upgradeStatus`
 * UPGRADE_REQUIRED or LAST_ATTEMPT_FAILED on ArcGIS Server, `isUpgrade` on Mission, Notebook and
 * Video Server), then waits until the site serves again. When none is due it sends nothing. A
 * later upgrade of the software is found by the next preview (or refresh) and completed in place.
 *
 * @example
 * ```ts
 * const upgrade = new SiteUpgrade("upgrade", {
 *   serverType: "arcgis-server",
 *   adminUrl: "https://gis.example.com:6443/arcgis/admin",
 *   username: "siteadmin",
 *   password: config.requireSecret("sitePassword"),
 * });
 * new LogSettings("logs", { ...connection, logLevel: "WARNING" }, { dependsOn: upgrade });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface below
export class SiteUpgrade extends ServerResource<SiteUpgradeInputs["timeouts"]> {
  /**
   * @param name - the resource's name in the stack.
   * @param args - which server, and how to run the upgrade; see {@link SiteUpgradeArgs}.
   * @param opts - the usual Pulumi resource options.
   */
  constructor(name: string, args: SiteUpgradeArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = resolveServerConnection("SiteUpgrade", name, args);
    super(...registration(SITE_UPGRADE, name, args, connection, opts));
  }
}

// The outputs come from the definition (generated.ts): merged into the class, declared nowhere else.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SiteUpgrade extends SiteUpgradeOutputProperties {}

/**
 * Every input and output of a `SiteUpgrade`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and docs/site-upgrade.md's
 * table are derived from it.
 */
import { z } from "zod";
import {
  adminInputs,
  adminTlsInput,
  inPlaceAdminInputs,
  timeoutsInput,
} from "../common/inputs/admin";
import { type CheckFailure, defineResource } from "../common/inputs/definition";
import { resourceFrame } from "../common/pulumi/frame";
import type { SiteUpgradeInputs } from "./generated";

/**
 * Default bound on an upgrade, from the request to the site serving again: Chef holds its
 * synchronous `upgrade` request up to an hour (Esri/arcgis-cookbook at
 * 00faa9a26be30e9d3c4170c9bf8961e97841bf3f, `cookbooks/arcgis-enterprise/libraries/
 * server_admin_client.rb`: `complete_upgrade` goes through `send_request`, `read_timeout = 3600`).
 */
export const DEFAULT_UPGRADE_MS = 60 * 60_000;

const admin = adminInputs();

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
 *
 * @internal
 */
export const SITE_UPGRADE_DEFINITION = defineResource({
  type: "SiteUpgrade",
  folder: "site-upgrade",
  doc:
    "Completes the upgrade of a site whose software was upgraded in place (the admin API's " +
    "`upgrade`), once, when the site reports that one is due; otherwise sends nothing.",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link SiteUpgrade}: the server's connection ({@link ServerResourceArgs}), " +
    "how to run the upgrade and how long it may take. Every field accepts a `pulumi.Input`.",
  imports: ['import type { SiteUpgradeOutcome } from "./values";'],
  publicExports: { "./values": ["type SiteUpgradeOutcome"] },
  inputs: {
    ...inPlaceAdminInputs(),
    username: {
      ...admin.username,
      doc:
        "An administrator of the site (typically a Site's `username`): after the upgrade, the " +
        "resource waits until the site issues this account a token again. The upgrade itself " +
        "takes none.",
    },
    password: admin.password,
    runAsync: {
      schema: () => z.boolean().optional(),
      doc:
        "Run the upgrade asynchronously and poll it (ArcGIS Server 11.4 and later only; refused " +
        "elsewhere before anything is sent). Default: asynchronously where the server can (ArcGIS " +
        "Server whose new version is 11.4 or later, as Chef switches), synchronously elsewhere.",
      outputDoc: "Whether the upgrade runs asynchronously, as declared.",
      stateOnly: true,
    },
    tls: adminTlsInput(),
    timeouts: timeoutsInput(
      {
        upgradeMs: {
          ms: DEFAULT_UPGRADE_MS,
          doc:
            "How long an upgrade may take, from the request (or a lost answer) until the site " +
            "serves again.",
        },
      },
      "How long an upgrade may take, until the site serves again.",
    ),
  },
  outputs: {
    outcome: {
      type: "SiteUpgradeOutcome",
      doc:
        "What the last create or update found and did: `upgraded` (it sent the upgrade, which " +
        "completed), `awaited` (an upgrade was already running: it waited for it and sent none) " +
        "or `not-required` (no upgrade was due: it sent nothing).",
    },
    fromVersion: {
      type: "string",
      optional: true,
      doc: "The version the site was upgraded from, when the server reports it (ArcGIS Server).",
    },
    toVersion: {
      type: "string",
      optional: true,
      doc: "The version the site was upgraded to, when the server reports it (ArcGIS Server).",
    },
    upgradesSent: {
      type: "number",
      doc: "How many upgrade requests this resource has sent (one per upgrade that was due).",
    },
  },
  operation: "`POST {admin_root}/upgrade`",
  summary:
    "Completes a site's upgrade after its software was upgraded, once; nothing when none is due.",
  connection: "server",
  crossChecks: siteUpgradeCrossChecks,
});

/**
 * Rules across fields: `runAsync` only on ArcGIS Server, the one product with an asynchronous
 * upgrade (Chef's Mission, Notebook and Video cookbooks and DSC's ArcGIS_MissionServerUpgrade
 * send it synchronously only).
 *
 * @internal
 */
export function siteUpgradeCrossChecks(values: Record<string, unknown>): CheckFailure[] {
  if (values.runAsync === true && values.serverType !== "arcgis-server") {
    return [
      {
        property: "runAsync",
        reason:
          "only ArcGIS Server (11.4 and later) upgrades asynchronously; remove runAsync, or " +
          "set serverType: arcgis-server",
      },
    ];
  }
  return [];
}

/**
 * The frame of a `SiteUpgrade`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SITE_UPGRADE = resourceFrame<SiteUpgradeInputs>()(SITE_UPGRADE_DEFINITION);

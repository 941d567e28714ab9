/**
 * A site whose software was upgraded and that waits for the `upgrade` operation: the emulator
 * starts a site in that state with `--upgrade-from VERSION` (start.ts), reports it at
 * `admin/upgrade` and at the admin root, refuses everything else meanwhile, and completes it
 * when a client POSTs `upgrade`.
 *
 * Evidence:
 * - How Esri's tools see that an upgrade is required, and complete it (no token in any of these):
 *   Esri/arcgis-cookbook at 6b807249eec03146b913a2ad8661425472d53780,
 *   `cookbooks/arcgis-enterprise/libraries/server_admin_client.rb` (`upgrade_required?`:
 *   `GET admin/upgrade?f=json`, true when `upgradeStatus` is UPGRADE_REQUIRED or
 *   LAST_ATTEMPT_FAILED, or `isUpgrade` is true; `complete_upgrade`: POST f=json, fails on
 *   `status` "error"; `complete_upgrade_async`: POST runAsync=true, enableDebug, f=json, polls
 *   `GET admin/upgrade?runAsync=true&f=json` while `upgradeStatus` is IN_PROGRESS or
 *   "In Progress", then wants "Success", "Success with warnings" or `status` "success";
 *   `providers/server.rb` `:create_site` and `:join_site` use the synchronous form up to 11.3 and
 *   the asynchronous one from 11.4: "Async upgrades are supported starting from ArcGIS Server
 *   11.4"); `cookbooks/arcgis-mission/libraries/server_admin_client.rb` (the same
 *   `upgrade_required?`, `isUpgrade` marked "# Mission Server"; `complete_upgrade`, synchronous
 *   only; `validate_response` fails on an `error` member) and `resources/server.rb`; the same in
 *   `arcgis-notebooks` and `arcgis-video`.
 * - Esri/arcgis-powershell-dsc at df1baa2fb78f56780160dbf048435b8a8ca800cb:
 *   `ArcGIS_ServerUpgrade.psm1` (POST runAsync=true; polls GET; `upgradeStatus` IN_PROGRESS, or
 *   code 403 "Upgrade in progress.", means running; "Success", or code 404 with status "error",
 *   means done; LAST_ATTEMPT_FAILED fails; its test wants UPGRADE_REQUIRED, LAST_ATTEMPT_FAILED
 *   or IN_PROGRESS while an upgrade is due, and a 404 afterwards) and
 *   `ArcGIS_MissionServerUpgrade.psm1` (GET `isUpgrade`; POST f=json, wants `status` "success").
 * - https://developers.arcgis.com/rest/enterprise-administration/server/upgrade: POST `runAsync`,
 *   `enableDebug`, `f`; synchronous answer `{"status": "success"}`; "available only when a server
 *   machine is currently being upgraded. It will not be available after a successful upgrade";
 *   an asynchronous upgrade "can be polled by making a request to the root resource".
 * - A real ArcGIS Server's answers in Esri/arcgis-powershell-dsc's issue logs: #323 (no upgrade
 *   due) `{"status":"error","messages":["Could not find resource or operation 'upgrade' on the
 *   system."],"code":404}`; #703 (12.0 to 12.1, runAsync) `{"upgradeStatus":"In Progress",
 *   "upgradeFromVersion":"12.0.0","upgradeToVersion":"12.1.0","stages":[{startTime, lastUpdated,
 *   name, state}...],"messages":"","warnings":[]}` with the seven stage names below.
 * Assumptions (docs/emulator.md): the fields besides `upgradeStatus` / `isUpgrade` in the "upgrade
 * required" answer; the final state names ("Success", stage state "Completed"); that the
 * asynchronous result stays readable at `upgrade` until the emulator restarts; how other resources
 * answer meanwhile; Mission, Notebook and Video Server answer `upgrade` like ArcGIS Server's 404
 * when no upgrade is due and run it synchronously.
 */
import { AdminError, json, type ApiRequest, type Reply } from "../core/http";
import { atLeast, parseServerVersion } from "../core/products";
import type { Runtime } from "../core/runtime";
import type { SiteRecord, UpgradeRecord } from "../core/state";
import { notFoundError } from "./not-found";

/** The stages a real 12.1 upgrade reports (DSC issue #703), in order. */
const STAGES = [
  "Initialize upgrade and check licenses",
  "Upgrade site configurations",
  "Upgrade and start System and Utility services",
  "Synchronize local machine with site",
  "Configure Extensions and data providers",
  "Generate SSL Certificate and Enable SSL",
  "Final checks and cleanup",
] as const;

/** The outcome of the last asynchronous upgrade of this run (not persisted, like a real poll). */
interface UpgradeResult {
  readonly fromVersion: string;
  readonly toVersion: string;
  readonly startedAt: number;
  readonly endedAt: number;
}
const lastResults = new WeakMap<Runtime, UpgradeResult>();

function versions(rt: Runtime, upgrade: { fromVersion: string }) {
  return {
    upgradeFromVersion: parseServerVersion(upgrade.fromVersion).full,
    upgradeToVersion: rt.options.serverVersion.full,
  };
}

/** The stages of an upgrade started at `startedAt` (evenly spread over the upgrade delay). */
function stages(rt: Runtime, startedAt: number, endedAt: number | null) {
  const total = Math.max(1, rt.options.upgradeDelayMs);
  const now = Date.now();
  const done = endedAt === null ? Math.min(1, (now - startedAt) / total) : 1;
  return STAGES.map((name, i) => {
    const from = i / STAGES.length;
    const to = (i + 1) / STAGES.length;
    const state = done >= to ? "Completed" : done >= from ? "In Progress" : "Not Started";
    const began = state === "Not Started" ? startedAt : startedAt + Math.round(from * total);
    return { startTime: began, lastUpdated: state === "In Progress" ? now : began, name, state };
  });
}

/** The upgrade's status, as `GET upgrade` and (while one is due) the admin root report it. */
function statusDocument(rt: Runtime, upgrade: UpgradeRecord): Record<string, unknown> {
  if (rt.product.dialect !== "classic") return { isUpgrade: true };
  if (upgrade.status === "running") {
    return {
      upgradeStatus: "In Progress",
      ...versions(rt, upgrade),
      stages: stages(rt, upgrade.startedAt ?? Date.now(), null),
      messages: "",
      warnings: [],
    };
  }
  if (upgrade.status === "failed") {
    return {
      upgradeStatus: "LAST_ATTEMPT_FAILED",
      ...versions(rt, upgrade),
      messages: ["The last upgrade attempt did not complete: the server stopped while it ran."],
    };
  }
  return { upgradeStatus: "UPGRADE_REQUIRED", ...versions(rt, upgrade) };
}

/** The admin root while an upgrade is due or runs: its status (the docs' "poll the root"). */
export function upgradeRoot(rt: Runtime, site: SiteRecord): Reply {
  return json(statusDocument(rt, site.upgrade!));
}

/** What every other administrative request gets while an upgrade is due or runs. */
export function upgradePendingError(rt: Runtime, upgrade: UpgradeRecord): AdminError {
  if (upgrade.status === "running") return new AdminError(403, ["Upgrade in progress."]);
  return new AdminError(403, [
    `The site must be upgraded to ${rt.options.serverVersion.full} before it can be administered. Run the 'upgrade' operation.`,
  ]);
}

function truthy(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}

/**
 * `admin/upgrade`, with or without a token. GET reports the status (404 when no upgrade is due,
 * except the result of this run's asynchronous upgrade on ArcGIS Server); POST runs the upgrade:
 * synchronously (answer once done), or with runAsync on ArcGIS Server 11.4 and later (answer at
 * once, poll with GET).
 */
export async function upgrade(rt: Runtime, req: ApiRequest): Promise<Reply> {
  const pending = rt.store.current.site?.upgrade ?? null;
  if (req.method !== "POST") {
    if (pending !== null) return json(statusDocument(rt, pending));
    const last = lastResults.get(rt);
    if (last !== undefined && rt.product.dialect === "classic") {
      return json({
        upgradeStatus: "Success",
        upgradeFromVersion: last.fromVersion,
        upgradeToVersion: last.toVersion,
        stages: stages(rt, last.startedAt, last.endedAt),
        messages: "",
        warnings: [],
      });
    }
    throw notFoundError("upgrade");
  }
  if (pending === null) throw notFoundError("upgrade");
  if (pending.status === "running") throw upgradePendingError(rt, pending);
  const runAsync =
    rt.product.dialect === "classic" &&
    truthy(req.params.get("runAsync")) &&
    atLeast(rt.options.serverVersion, "11.4");
  const startedAt = Date.now();
  const started = await rt.store.update((draft): UpgradeRecord => {
    const upgrading = draft.site?.upgrade ?? null;
    if (upgrading === null) throw notFoundError("upgrade");
    if (upgrading.status === "running") throw upgradePendingError(rt, upgrading);
    upgrading.status = "running";
    upgrading.async = runAsync;
    upgrading.startedAt = startedAt;
    return structuredClone(upgrading);
  });
  rt.log(`site upgrade from ${started.fromVersion} started`);
  const done = finishUpgradeLater(rt, started);
  if (runAsync) return json(statusDocument(rt, started));
  if (!(await done)) {
    throw new AdminError(500, ["The upgrade did not complete: the server stopped while it ran."]);
  }
  return json({ status: "success" });
}

/** Ends a running upgrade after the upgrade delay; false when the emulator stopped first. */
async function finishUpgradeLater(rt: Runtime, started: UpgradeRecord): Promise<boolean> {
  try {
    await rt.delay(rt.options.upgradeDelayMs);
  } catch {
    // Left `running` in the state: the next start reports LAST_ATTEMPT_FAILED (start.ts).
    return false;
  }
  await rt.store.update((draft) => {
    if (draft.site?.upgrade?.status === "running") draft.site.upgrade = null;
  });
  // Only an asynchronous run is polled for its result; after a synchronous one `upgrade` is gone.
  const { upgradeFromVersion, upgradeToVersion } = versions(rt, started);
  if (started.async) {
    lastResults.set(rt, {
      fromVersion: upgradeFromVersion,
      toVersion: upgradeToVersion,
      startedAt: started.startedAt ?? Date.now(),
      endedAt: Date.now(),
    });
  }
  rt.log("site upgraded");
  return true;
}

/**
 * At start: `--upgrade-from VERSION` puts the data dir's site in the "upgrade required" state, as
 * installing the software of `--server-version` over a site of VERSION does; an upgrade a stop cut
 * short is reported as LAST_ATTEMPT_FAILED.
 */
export function upgradeAtStart(
  rt: Pick<Runtime, "options">,
  site: SiteRecord | null,
): UpgradeRecord | null | undefined {
  const from = rt.options.upgradeFrom;
  if (from === null) {
    if (site?.upgrade?.status === "running") return { ...site.upgrade, status: "failed" };
    return undefined;
  }
  if (site?.status !== "ready") {
    throw new Error(
      `Option upgradeFrom (--upgrade-from) needs a data dir that holds a site: ${rt.options.dataDir} holds ${site === null ? "none" : "one still being created"}. Create the site first, then start again with it.`,
    );
  }
  const fromVersion = parseServerVersion(from);
  if (atLeast(fromVersion, rt.options.serverVersion.full)) {
    throw new Error(
      `Option upgradeFrom must be older than the server version ${rt.options.serverVersion.full}, got ${fromVersion.full}.`,
    );
  }
  return { fromVersion: fromVersion.full, status: "required", async: false, startedAt: null };
}

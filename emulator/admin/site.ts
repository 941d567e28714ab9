/**
 * The mission server's site: creation (sync or async, possibly failing), deletion, log
 * settings, and exports under the export lock.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import type { CreateSiteInput } from "./params";
import {
  ARCHIVE_EXTENSION,
  archiveStamp,
  publishArchive,
  temporaryArchivePath,
  writeArchive,
} from "./archive";
import { AdminError } from "../core/http";
import type { Runtime } from "../core/runtime";
import type { LogSettings, ServiceRecord, SiteRecord } from "../core/state";
import { hashPassword } from "../core/tokens";

/** Services a new site deploys because they are marked to deploy automatically. */
export const AUTO_DEPLOY_SERVICES: readonly ServiceRecord[] = [
  {
    folderName: "System",
    serviceName: "PublishingTools",
    type: "GPServer",
    configuredState: "STARTED",
  },
  { folderName: "System", serviceName: "SyncTools", type: "GPServer", configuredState: "STARTED" },
  {
    folderName: "Utilities",
    serviceName: "Geometry",
    type: "GeometryServer",
    configuredState: "STARTED",
  },
];

/** The 409 every configuration change gets while an export runs. */
export function exportLockError(): AdminError {
  return new AdminError(409, [
    "The site configuration cannot be changed while the site is being exported. Try again later.",
  ]);
}

/** How a creation ended. */
export type CreationOutcome =
  { readonly ok: true } | { readonly ok: false; readonly message: string };

/** What createNewSite found: a site already there, or a creation now under way. */
export type CreationStart =
  | { readonly kind: "exists" }
  | { readonly kind: "started"; readonly done: Promise<CreationOutcome> };

/**
 * Starts creating a site unless the machine is already in one (or creating one): checked
 * and recorded in one serialized state change, so two concurrent calls create one site.
 */
export async function startCreation(rt: Runtime, input: CreateSiteInput): Promise<CreationStart> {
  const passwordHash = await hashPassword(input.password);
  const site = await rt.store.update((draft): SiteRecord | null => {
    if (draft.site !== null) return null;
    const now = Date.now();
    const record: SiteRecord = {
      id: randomBytes(16).toString("hex"),
      serverType: rt.product.type,
      status: "creating",
      requestedAt: now,
      completesAt: now + rt.options.createDelayMs,
      pendingFailure: rt.failNextCreate,
      admin: { username: input.username, passwordHash },
      configStore: input.configStore,
      directories: input.directories,
      logSettings: input.logSettings,
      services: [...AUTO_DEPLOY_SERVICES],
      machines: [rt.options.machineName],
      properties: {},
      webAdaptors: [],
      servicesDirectory: null,
      security: {},
      tokenManager: null,
      // ArcGIS Server's machines-page docs (10.1): "When you create a new site, a cluster called
      // 'default' is created for you"; clusters exist on ArcGIS Server only.
      clusters:
        rt.product.dialect === "classic"
          ? [{ clusterName: "default", machineNames: [rt.options.machineName] }]
          : [],
      machineSettings: {},
      upgrade: null,
    };
    draft.site = record;
    draft.lastCreateFailure = null;
    return record;
  });
  if (site === null) return { kind: "exists" };
  rt.failNextCreate = null;
  rt.log(`site creation started on machine '${rt.options.machineName}'`);
  return { kind: "started", done: finishCreationLater(rt, site) };
}

/**
 * Completes (or fails) a creation once its delay has passed; also used at start-up to
 * resume a creation that a restart interrupted. If the emulator closes first, the site
 * stays "creating" and the next start resumes the countdown.
 */
export async function finishCreationLater(rt: Runtime, site: SiteRecord): Promise<CreationOutcome> {
  try {
    await rt.delay(Math.max(0, site.completesAt - Date.now()));
  } catch {
    return { ok: false, message: "The emulator stopped before the site creation completed." };
  }
  const outcome = await rt.store.update((draft): CreationOutcome | null => {
    // Already completed (by the countdown of an earlier start): nothing to do or count.
    if (draft.site?.id !== site.id || draft.site.status !== "creating") return null;
    const failure = draft.site.pendingFailure;
    if (failure !== null) {
      // A failed creation leaves the machine in no site, with the failure remembered for
      // the admin root's error.
      draft.site = null;
      draft.lastCreateFailure = { message: failure, at: Date.now() };
      return { ok: false, message: failure };
    }
    draft.site.status = "ready";
    return { ok: true };
  });
  if (outcome === null) return { ok: true };
  if (outcome.ok) {
    rt.stats.sitesCreated++;
    rt.log("site created");
  } else {
    rt.stats.siteCreationsFailed++;
    rt.log("site creation failed");
  }
  return outcome;
}

/**
 * The error of an operation that needs a site while the machine has none: "creation in
 * progress" (code 503) during a creation, otherwise "not participating in any Site"
 * (code 500), with the last creation failure's message when there was one. Neither is
 * 498 or 499, which is how Esri's tools tell "no site yet" from "site exists".
 */
export function siteUnavailableError(rt: Runtime): AdminError {
  const { site, lastCreateFailure } = rt.store.current;
  const machine = rt.options.machineName;
  if (site?.status === "creating") {
    return new AdminError(503, [
      `Site creation is in progress on machine '${machine}'. Try again later.`,
    ]);
  }
  const messages = [
    `Local machine '${machine}' is not participating in any Site. Please create a new Site or join an existing Site.`,
  ];
  if (lastCreateFailure !== null) {
    messages.push(`The last attempt to create a site failed: ${lastCreateFailure.message}`);
  }
  return new AdminError(500, messages);
}

/** deleteSite: the machine leaves the site (refused while an export runs). */
export async function deleteSite(rt: Runtime): Promise<void> {
  await rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    draft.site = null;
  });
  rt.log("site deleted");
}

/** logs/settings/edit (refused while an export runs). */
export async function editLogSettings(
  rt: Runtime,
  edit: (current: LogSettings) => LogSettings,
): Promise<LogSettings> {
  return rt.store.update((draft) => {
    refuseDuringExport(rt);
    if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
    draft.site.logSettings = edit(draft.site.logSettings);
    return draft.site.logSettings;
  });
}

export function refuseDuringExport(rt: Runtime): void {
  if (rt.exportRunning || rt.importRunning) {
    rt.stats.changesRefusedDuringExport++;
    if (rt.importRunning) {
      throw new AdminError(409, [
        "The site configuration cannot be changed while a site configuration is being imported. Try again later.",
      ]);
    }
    throw exportLockError();
  }
}

/** Where an export goes: a folder inside the export roots, or the uploads area. */
export type ExportTarget =
  | { readonly kind: "folder"; readonly realDir: string; readonly shownDir: string }
  | { readonly kind: "upload"; readonly id: string };

/** Folder of downloadable exports inside the data dir. */
export function uploadsDir(rt: Runtime): string {
  return path.join(rt.options.dataDir, "uploads");
}

/** A generated upload id: 32 hex digits, the only form a download accepts. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** A new upload id. */
export function newUploadId(): string {
  return randomBytes(16).toString("hex");
}

/**
 * Checks an exportSite `location`: absolute, without `..` segments, an existing folder,
 * and (after resolving symbolic links) inside one of the allowed export roots.
 */
export async function resolveExportFolder(
  rt: Runtime,
  location: string,
): Promise<ExportTarget & { kind: "folder" }> {
  const refuse = (why: string): AdminError =>
    new AdminError(400, [`Cannot export the site to '${location}': ${why}`]);
  if (location.split(/[\\/]/).includes("..")) throw refuse("the location must not contain '..'.");
  if (!path.isAbsolute(location)) throw refuse("the location must be an absolute path.");
  let realDir: string;
  try {
    realDir = await fs.realpath(location);
    if (!(await fs.stat(realDir)).isDirectory()) throw new Error("not a directory");
  } catch {
    throw refuse("the location is not an existing folder.");
  }
  if (await withinExportRoots(rt, realDir, { orRoot: true })) {
    return { kind: "folder", realDir, shownDir: path.resolve(location) };
  }
  throw refuse("the location is outside the folders this server may export to.");
}

/**
 * Whether a real path (symbolic links resolved) lies inside one of the export roots (or, with
 * `orRoot`, is one); a root that does not exist holds nothing.
 */
export async function withinExportRoots(
  rt: Runtime,
  realPath: string,
  { orRoot }: { orRoot: boolean },
): Promise<boolean> {
  for (const root of rt.options.exportRoots) {
    let realRoot: string;
    try {
      realRoot = await fs.realpath(root);
    } catch {
      continue;
    }
    if (orRoot && realPath === realRoot) return true;
    if (realPath.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep))
      return true;
  }
  return false;
}

/**
 * exportSite: takes the export lock (409 if taken), writes the archive to a temporary
 * file recorded in the state (so a restart after a crash removes it), publishes it under
 * a name no other archive has, and releases the lock. Returns the path or upload id.
 */
export async function exportSite(rt: Runtime, target: ExportTarget): Promise<string> {
  const exportedAt = new Date();
  const stamp = archiveStamp(exportedAt);
  const dir = target.kind === "folder" ? target.realDir : path.join(uploadsDir(rt), target.id);
  const tempFile = temporaryArchivePath(dir, stamp);
  let locked = false;
  let site: SiteRecord;
  try {
    site = await rt.store.update(async (draft) => {
      refuseDuringExport(rt);
      if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
      if (target.kind === "upload") await fs.mkdir(dir, { recursive: true });
      draft.pendingArchives.push(tempFile);
      rt.exportRunning = locked = true;
      return draft.site;
    });
  } catch (error) {
    // The lock was taken but the state write failed: give it back.
    if (locked) rt.exportRunning = false;
    throw error;
  }
  rt.stats.exportsStarted++;
  rt.log("export started");
  try {
    await writeArchive(
      tempFile,
      {
        site,
        machineName: rt.options.machineName,
        serverType: rt.product.type,
        serverVersion: rt.options.serverVersion.full,
        exportedAt,
        paddingBytes: rt.options.exportPaddingBytes,
      },
      rt.options.exportDelayMs,
      rt.signal,
    );
    const final = await publishArchive(tempFile, dir, stamp);
    rt.stats.exportsCompleted++;
    rt.log(`export written: ${path.basename(final)}`);
    return target.kind === "folder" ? path.join(target.shownDir, path.basename(final)) : final;
  } catch (error) {
    await fs.rm(tempFile, { force: true });
    throw error;
  } finally {
    rt.exportRunning = false;
    await rt.store
      .update((draft) => {
        draft.pendingArchives = draft.pendingArchives.filter((file) => file !== tempFile);
      })
      .catch(() => undefined);
  }
}

/** Finds the published archive of an upload id, or null. */
export async function findUpload(
  rt: Runtime,
  id: string,
): Promise<{ file: string; name: string; size: number; modified: number } | null> {
  const found = await uploadedFile(rt, id, (n) => n.endsWith(ARCHIVE_EXTENSION));
  if (found === null) return null;
  const file = path.join(found.dir, found.name);
  const stat = await fs.stat(file);
  return { file, name: found.name, size: stat.size, modified: stat.mtimeMs };
}

/**
 * The folder of an upload id and the first visible file in it that `accept` takes, or null (an
 * id of another form, no such folder, no such file).
 */
export async function uploadedFile(
  rt: Runtime,
  id: string,
  accept: (name: string) => boolean = () => true,
): Promise<{ dir: string; name: string } | null> {
  if (!UPLOAD_ID.test(id)) return null;
  const dir = path.join(uploadsDir(rt), id);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return null;
  }
  const name = names.find((n) => !n.startsWith(".") && accept(n));
  return name === undefined ? null : { dir, name };
}

/**
 * Removes temporary archives a crash left behind; called at start-up before the server
 * listens.
 */
export async function removeAbandonedArchives(rt: Runtime): Promise<void> {
  const pending = rt.store.current.pendingArchives;
  if (pending.length === 0) return;
  await Promise.all(pending.map((file) => fs.rm(file, { force: true })));
  await rt.store.update((draft) => {
    draft.pendingArchives = [];
  });
  rt.log(`removed ${pending.length} unfinished archive(s) left by an interrupted export`);
}

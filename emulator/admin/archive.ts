/**
 * The exported site configuration: a real zip (`.agssite`) with a manifest and one JSON
 * document per item the spec lists as included. Written to a temporary name, made durable,
 * then published under its final name, so a half-written archive is never visible.
 */
import { randomBytes, randomFillSync } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { ZipFile } from "yazl";
import type { SiteRecord } from "../core/state";

/** File extension of a site archive. */
export const ARCHIVE_EXTENSION = ".agssite";
/** Version of the archive layout written into the manifest. */
export const ARCHIVE_FORMAT_VERSION = 1;

/** What the spec lists as included in an export, and the document holding each item. */
export const INCLUDED_ITEMS = [
  { item: "Service configurations and service properties", file: "services.json" },
  { item: "Server object extensions", file: "server-object-extensions.json" },
  { item: "Server object interceptors", file: "server-object-interceptors.json" },
  { item: "Registered data store item locations", file: "data-store-items.json" },
  { item: "Registered relational data store types", file: "relational-data-store-types.json" },
  { item: "User and role information", file: "users-and-roles.json" },
  { item: "List of machines in the site", file: "machines.json" },
  { item: "Log settings", file: "log-settings.json" },
  { item: "Statistics reports", file: "statistics-reports.json" },
  {
    item: "Scene tile cache configuration files under the hosted folder of the cache directory",
    file: "scene-tile-cache-configuration.json",
  },
] as const;

/** What the spec lists as excluded (to be backed up and restored manually). */
export const EXCLUDED_ITEMS = [
  "Cache tiles and tiling schemes",
  "Data used by services, unless it was copied to a folder on the server automatically at publish time",
  "Dynamically generated map images and other temporary output",
  "Log messages, including geoprocessing job statuses and messages",
  "Primary site administrator name and password",
  "Statistics data",
  "Web adapter configurations",
] as const;

/** Name of the padding entry added for download benchmarks. */
export const PADDING_ENTRY = "padding.bin";

/** `YYYYMMDD-HHMMSS-UTC`, the stamp real servers name archives with. */
export function archiveStamp(at: Date): string {
  const iso = at.toISOString(); // 2022-08-23T14:08:12.345Z
  return `${iso.slice(0, 10).replaceAll("-", "")}-${iso.slice(11, 19).replaceAll(":", "")}-UTC`;
}

/** A temporary file name next to where the archive will be published. */
export function temporaryArchivePath(dir: string, stamp: string): string {
  // A leading dot and a non-archive extension: never taken for a finished archive.
  return path.join(dir, `.${stamp}-${randomBytes(6).toString("hex")}.partial`);
}

/** The site as the archive describes it; never the primary administrator's credentials. */
export interface ArchiveInput {
  readonly site: SiteRecord;
  readonly machineName: string;
  /** The product and its version (`11.3.0`), recorded in the manifest. */
  readonly serverType: string;
  readonly serverVersion: string;
  readonly exportedAt: Date;
  readonly paddingBytes: number;
}

/** The archive's documents (manifest first), as name and JSON value. */
export function archiveDocuments(input: ArchiveInput): Array<[string, unknown]> {
  const { site } = input;
  const documents: Record<(typeof INCLUDED_ITEMS)[number]["file"], unknown> = {
    "services.json": {
      services: site.services.map((s) => ({
        ...s,
        properties: { minInstancesPerNode: 1, maxInstancesPerNode: 2 },
        configuredState: "STARTED",
      })),
    },
    "server-object-extensions.json": { extensions: [] },
    "server-object-interceptors.json": { interceptors: [] },
    "data-store-items.json": { items: [] },
    "relational-data-store-types.json": { types: [] },
    // The primary administrator lives outside the user store and is excluded by design.
    "users-and-roles.json": { users: [], roles: [] },
    "machines.json": {
      machines: site.machines.map((machineName) => ({ machineName, configuredState: "STARTED" })),
    },
    "log-settings.json": { settings: site.logSettings },
    "statistics-reports.json": { reports: [] },
    "scene-tile-cache-configuration.json": { files: [] },
  };
  const manifest = {
    format: "arcgis-admin-emulator site archive",
    formatVersion: ARCHIVE_FORMAT_VERSION,
    serverType: input.serverType,
    fullVersion: input.serverVersion,
    exportedAt: input.exportedAt.toISOString(),
    machine: input.machineName,
    siteId: site.id,
    included: INCLUDED_ITEMS.map(({ item, file }) => ({ item, file })),
    excluded: EXCLUDED_ITEMS,
    ...(input.paddingBytes > 0
      ? { padding: { file: PADDING_ENTRY, bytes: input.paddingBytes } }
      : {}),
  };
  return [["manifest.json", manifest], ...Object.entries(documents)];
}

/** A stream of `size` random (incompressible) bytes, produced chunk by chunk. */
function randomStream(size: number): Readable {
  let left = size;
  return new Readable({
    read() {
      if (left === 0) {
        this.push(null);
        return;
      }
      const chunk = Buffer.allocUnsafe(Math.min(left, 256 * 1024));
      randomFillSync(chunk);
      left -= chunk.length;
      this.push(chunk);
    },
  });
}

/**
 * Writes the archive to `tempFile`, streaming (padding included), waits `delayMs` before
 * the zip is finished (the export "runs" meanwhile, with a partial file on disk), and
 * flushes it to disk. Abortable through `signal`.
 */
export async function writeArchive(
  tempFile: string,
  input: ArchiveInput,
  delayMs: number,
  signal: AbortSignal,
): Promise<void> {
  const zip = new ZipFile();
  const mtime = input.exportedAt;
  const output = createWriteStream(tempFile, { flags: "wx", mode: 0o600, flush: true });
  const written = pipeline(zip.outputStream, output, { signal });
  for (const [name, value] of archiveDocuments(input)) {
    zip.addBuffer(Buffer.from(JSON.stringify(value, null, 2), "utf8"), name, { mtime });
  }
  if (input.paddingBytes > 0) {
    zip.addReadStream(randomStream(input.paddingBytes), PADDING_ENTRY, {
      mtime,
      compress: false,
      size: input.paddingBytes,
    });
  }
  try {
    await sleep(delayMs, undefined, { signal });
  } catch (error) {
    // The same signal aborts the pipeline, which destroys both streams.
    await written.catch(() => undefined);
    throw error;
  }
  zip.end();
  await written;
}

/**
 * Publishes a finished temporary archive as `<stamp>.agssite` in `dir`, or
 * `<stamp>-1.agssite`, `-2`... when that name is taken: exports within the same second
 * must never overwrite one another. Returns the final path.
 */
export async function publishArchive(
  tempFile: string,
  dir: string,
  stamp: string,
): Promise<string> {
  for (let n = 0; ; n++) {
    const final = path.join(dir, `${stamp}${n === 0 ? "" : `-${n}`}${ARCHIVE_EXTENSION}`);
    try {
      // link() fails with EEXIST instead of replacing: an atomic "create if absent".
      await fs.link(tempFile, final);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") continue;
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "ENOSYS")
        throw error;
      // File systems without hard links: check then rename (exports are serialized by the
      // export lock, so nothing else publishes into this folder meanwhile).
      if (await exists(final)) continue;
      await fs.rename(tempFile, final);
      await syncDirectory(dir);
      return final;
    }
    await fs.unlink(tempFile);
    await syncDirectory(dir);
    return final;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}

/** Makes a rename durable; not every platform can open a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, "r");
    await handle.sync();
  } catch {
    // Windows cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/**
 * Restoring a site configuration: `uploads/upload` (an archive sent to the server as an uploaded
 * item), the `uploads` listing, and `importSite` (the site's configuration replaced by an
 * archive's), under the same lock as an export.
 *
 * Evidence: ArcGIS Server docs (importSite from 10.2: `location` is a file path or the id of an
 * uploaded item, `validate` from 11.1; uploads/upload with `itemFile`, uploads listing), Mission
 * Server docs (importSite from 10.8, the same `location`), Notebook Server docs (from 10.7.1) and
 * Esri/arcgis-gitops `importSite.sh` (POST `location=<path>&token&f=json`, reads status
 * "success"), Video Server docs (`importsite` from 12.0, `location`, `validate`), Chef
 * `upload_item` (reads `item.itemID`). What a restore keeps from the target site follows the
 * ArcGIS Server restore utility page (security, config store and directory paths, machine names).
 * Assumptions (docs/emulator.md): the report's shape, the error texts, uploads on Mission,
 * Notebook and Video Server.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import * as yauzl from "yauzl";
import { z } from "zod";
import { ARCHIVE_EXTENSION, EXCLUDED_ITEMS, INCLUDED_ITEMS } from "./archive";
import { AdminError, type ApiRequest } from "../core/http";
import type { Runtime } from "../core/runtime";
import {
  refuseDuringExport,
  siteUnavailableError,
  UPLOAD_ID,
  uploadedFile,
  uploadsDir,
  withinExportRoots,
} from "./site";
import { LOG_LEVELS } from "../core/state";

/** Name of the hidden file next to an uploaded item that holds its description. */
const ITEM_DESCRIPTION_FILE = ".item.json";

/** An uploaded item as the uploads resources describe it (ArcGIS Server docs, uploadeditem). */
export interface UploadedItem {
  itemID: string;
  itemName: string;
  description: string | null;
  pathOnServer: string;
  date: number;
  committed: boolean;
}

function systemDirectory(rt: Runtime): string {
  const system = rt.store.current.site?.directories.find((d) => d.directoryType === "SYSTEM");
  return (system?.physicalPath ?? `${rt.product.installRoot}/directories/arcgissystem`).replaceAll(
    "\\",
    "/",
  );
}

/** The item of an upload id (an uploaded file or a downloadable export), or null. */
export async function findItem(rt: Runtime, id: string): Promise<UploadedItem | null> {
  const found = await uploadedFile(rt, id);
  if (found === null) return null;
  const { dir, name } = found;
  const stat = await fs.stat(path.join(dir, name));
  let description: string | null = null;
  try {
    const meta = JSON.parse(await fs.readFile(path.join(dir, ITEM_DESCRIPTION_FILE), "utf8")) as {
      description?: unknown;
    };
    if (typeof meta.description === "string") description = meta.description;
  } catch {
    // Exports and items uploaded without a description have none.
  }
  return {
    itemID: id,
    itemName: name,
    description,
    pathOnServer: path.posix.join(systemDirectory(rt), "arcgisuploads", id, name),
    date: stat.mtimeMs,
    committed: true,
  };
}

/** uploads: every item (ArcGIS Server docs, uploads: `{"items":[...]}`). */
export async function listItems(rt: Runtime): Promise<UploadedItem[]> {
  let ids: string[];
  try {
    ids = await fs.readdir(uploadsDir(rt));
  } catch {
    return [];
  }
  const items = await Promise.all(ids.map((id) => findItem(rt, id)));
  return items.filter((item): item is UploadedItem => item !== null);
}

/**
 * uploads/<id>/delete: removes the item and its file (ArcGIS Server docs, deleteitem:
 * https://developers.arcgis.com/rest/enterprise-administration/server/deleteitem.htm, answer
 * `{"status": "success"}`); false for an id that names no uploaded item.
 */
export async function deleteItem(rt: Runtime, id: string): Promise<boolean> {
  const found = await uploadedFile(rt, id);
  if (found === null) return false;
  await fs.rm(found.dir, { recursive: true, force: true });
  rt.log(`deleted uploaded item ${id}`);
  return true;
}

/**
 * The longest item file name taken, in bytes: a file system's 255, less the hidden temporary
 * name's `.` and `.partial` around it.
 */
export const MAX_ITEM_NAME_BYTES = 200;

/**
 * uploads/upload: stores the multipart `itemFile` as a new item (Chef `upload_item` sends
 * `itemFile`, `description`, `f=json` and reads `item.itemID`).
 */
export async function uploadItem(rt: Runtime, req: ApiRequest): Promise<UploadedItem> {
  const file = req.files?.get("itemFile");
  if (file === undefined) {
    throw new AdminError(400, ["The 'itemFile' parameter is required: a multipart file part."]);
  }
  const name = path.basename(file.name.replaceAll("\\", "/"));
  // A control character (NUL above all) cannot be in a file name on disk, and a name longer than
  // a file system takes would fail there: both are the client's error, named as such.
  if ([...file.name].some((c) => c < " " || c === "\u007f")) {
    throw new AdminError(400, [
      "The file name of the 'itemFile' parameter is not valid: it contains a control character.",
    ]);
  }
  if (Buffer.byteLength(name) > MAX_ITEM_NAME_BYTES) {
    throw new AdminError(400, [
      `The file name of the 'itemFile' parameter is not valid: it is longer than ${MAX_ITEM_NAME_BYTES} bytes.`,
    ]);
  }
  if (name === "" || name.startsWith(".")) {
    throw new AdminError(400, [`The uploaded file name '${file.name}' is not valid.`]);
  }
  const id = randomBytes(16).toString("hex");
  const dir = path.join(uploadsDir(rt), id);
  await fs.mkdir(dir, { recursive: true });
  const description = req.params.get("description");
  if (description !== undefined && description !== "") {
    await fs.writeFile(path.join(dir, ITEM_DESCRIPTION_FILE), JSON.stringify({ description }));
  }
  // Written under a hidden name, then renamed: a half-written item is never listed.
  const temp = path.join(dir, `.${name}.partial`);
  await fs.writeFile(temp, file.data, { mode: 0o600 });
  await fs.rename(temp, path.join(dir, name));
  rt.stats.itemsUploaded++;
  rt.log(`item uploaded: ${id}`);
  const item = await findItem(rt, id);
  if (item === null) throw new Error(`the uploaded item ${id} disappeared`);
  return item;
}

/** The archive file a `location` names: an upload id, or a path inside the export roots. */
async function resolveArchive(rt: Runtime, location: string): Promise<string> {
  const refuse = (why: string): AdminError =>
    new AdminError(400, [`Cannot import the site configuration from '${location}': ${why}`]);
  if (UPLOAD_ID.test(location)) {
    const item = await findItem(rt, location);
    if (item === null) throw refuse("no uploaded item has this id.");
    return path.join(uploadsDir(rt), location, item.itemName);
  }
  if (location.split(/[\\/]/).includes("..")) throw refuse("the location must not contain '..'.");
  if (!path.isAbsolute(location)) {
    throw refuse("the location must be an absolute path or the id of an uploaded item.");
  }
  let real: string;
  try {
    real = await fs.realpath(location);
    if (!(await fs.stat(real)).isFile()) throw new Error("not a file");
  } catch {
    throw refuse("the file does not exist or cannot be read by the server.");
  }
  if (await withinExportRoots(rt, real, { orRoot: false })) return real;
  throw refuse("the file is outside the folders this server may read site archives from.");
}

/** The documents of an archive that importSite reads; every other entry is never inflated. */
const ARCHIVE_DOCUMENTS = new Set(["manifest.json", "log-settings.json", "services.json"]);

/**
 * The most a document of an archive may hold, inflated. The documents exportSite writes are a few
 * kilobytes; the cap keeps a small upload that inflates to gigabytes (a zip bomb) from costing the
 * emulator that much memory per request. Assumption: Esri documents no limit (docs/emulator.md).
 */
export const MAX_ARCHIVE_DOCUMENT_BYTES = 4 * 1024 * 1024;

/** A document over {@link MAX_ARCHIVE_DOCUMENT_BYTES}: the archive is refused. */
class DocumentTooLarge extends Error {}

/**
 * Reads the JSON documents importSite needs from a zip archive, streaming each and stopping at
 * {@link MAX_ARCHIVE_DOCUMENT_BYTES} (by the declared size, and again by the bytes inflated).
 */
function readZipDocuments(file: string): Promise<Map<string, unknown>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (openError, zip) => {
      if (openError !== null) {
        reject(openError);
        return;
      }
      const documents = new Map<string, unknown>();
      const fail = (error: Error): void => {
        zip.close();
        reject(error);
      };
      zip.on("error", reject);
      zip.on("end", () => resolve(documents));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (!ARCHIVE_DOCUMENTS.has(entry.fileName) || documents.has(entry.fileName)) {
          zip.readEntry();
          return;
        }
        if (entry.uncompressedSize > MAX_ARCHIVE_DOCUMENT_BYTES) {
          fail(new DocumentTooLarge(entry.fileName));
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError !== null) {
            fail(streamError);
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ARCHIVE_DOCUMENT_BYTES) {
              stream.destroy();
              fail(new DocumentTooLarge(entry.fileName));
              return;
            }
            chunks.push(chunk);
          });
          stream.on("error", fail);
          stream.on("end", () => {
            try {
              documents.set(entry.fileName, JSON.parse(Buffer.concat(chunks).toString("utf8")));
              zip.readEntry();
            } catch (error) {
              fail(error instanceof Error ? error : new Error(String(error)));
            }
          });
        });
      });
      zip.readEntry();
    });
  });
}

const ArchiveContents = z.object({
  manifest: z.looseObject({ serverType: z.string(), fullVersion: z.string() }),
  logSettings: z.object({
    settings: z.looseObject({
      logLevel: z.enum(LOG_LEVELS),
      logDir: z.string(),
      maxErrorReportsCount: z.number(),
      maxLogFileAge: z.number(),
      usageMeteringEnabled: z.boolean().optional(),
    }),
  }),
  services: z.object({
    services: z.array(
      z.looseObject({
        folderName: z.string(),
        serviceName: z.string(),
        type: z.string(),
        // Archives written before services could be stopped have none: they were all started.
        configuredState: z.enum(["STARTED", "STOPPED"]).default("STARTED"),
      }),
    ),
  }),
});
type ArchiveContents = z.infer<typeof ArchiveContents>;

async function readArchive(rt: Runtime, file: string, location: string): Promise<ArchiveContents> {
  let documents: Map<string, unknown>;
  try {
    documents = await readZipDocuments(file);
  } catch {
    throw new AdminError(500, [
      `The file '${location}' is not a site configuration file exported by exportSite.`,
    ]);
  }
  const parsed = ArchiveContents.safeParse({
    manifest: documents.get("manifest.json"),
    logSettings: documents.get("log-settings.json"),
    services: documents.get("services.json"),
  });
  if (!parsed.success) {
    throw new AdminError(500, [
      `The file '${location}' is not a site configuration file exported by exportSite.`,
    ]);
  }
  if (parsed.data.manifest.serverType !== rt.product.type) {
    throw new AdminError(400, [
      `The site configuration file '${location}' was exported from a ${parsed.data.manifest.serverType} site; this machine runs ${rt.product.type}.`,
    ]);
  }
  return parsed.data;
}

/** What importSite answers: the status, and the report the docs say it returns. */
export interface ImportReport {
  status: "success";
  report?: {
    importedFrom: string;
    exportedFrom: { serverType: string; fullVersion: string };
    restored: string[];
    notRestored: readonly string[];
    problems: string[];
  };
}

/**
 * importSite: with `validate=true` only checks that the archive can be read; otherwise takes the
 * export/import lock (409 while an export or another import runs), reads the archive, waits the
 * import delay, and replaces the site's configuration (log settings, services) with the
 * archive's in one state change. The target's administrator, config store, directories and
 * machines stay (the restore utility's list of what the target keeps).
 */
export async function importSite(rt: Runtime, req: ApiRequest): Promise<ImportReport> {
  const location = req.params.get("location")?.trim() ?? "";
  if (location === "") {
    throw new AdminError(400, ["The 'location' parameter is required."]);
  }
  const file = await resolveArchive(rt, location);
  const contents = await readArchive(rt, file, location);
  if (/^true$/i.test(req.params.get("validate") ?? "")) return { status: "success" };

  let locked = false;
  try {
    await rt.store.update((draft) => {
      refuseDuringExport(rt);
      if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
      rt.importRunning = locked = true;
    });
  } catch (error) {
    if (locked) rt.importRunning = false;
    throw error;
  }
  rt.stats.importsStarted++;
  rt.log("import started");
  try {
    await rt.delay(rt.options.importDelayMs);
    await rt.store.update((draft) => {
      if (draft.site?.status !== "ready") throw siteUnavailableError(rt);
      const settings = contents.logSettings.settings;
      draft.site.logSettings = {
        logLevel: settings.logLevel,
        logDir: settings.logDir,
        maxErrorReportsCount: settings.maxErrorReportsCount,
        maxLogFileAge: settings.maxLogFileAge,
        usageMeteringEnabled: settings.usageMeteringEnabled ?? false,
      };
      draft.site.services = contents.services.services.map((s) => ({
        folderName: s.folderName,
        serviceName: s.serviceName,
        type: s.type,
        configuredState: s.configuredState,
      }));
    });
  } finally {
    rt.importRunning = false;
  }
  rt.stats.importsCompleted++;
  rt.log(`site configuration imported from ${path.basename(file)}`);
  return {
    status: "success",
    report: {
      importedFrom: path.basename(file).endsWith(ARCHIVE_EXTENSION)
        ? path.basename(file)
        : location,
      exportedFrom: {
        serverType: contents.manifest.serverType,
        fullVersion: contents.manifest.fullVersion,
      },
      restored: INCLUDED_ITEMS.map(({ item }) => item),
      notRestored: EXCLUDED_ITEMS,
      problems: [],
    },
  };
}

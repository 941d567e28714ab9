/**
 * importSite, uploads/upload and the uploads listing: the client against the real emulator of
 * every product. An import replaces the site's configuration with the archive's (a later export
 * shows it), takes the export/import lock, and refuses what it cannot read.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createAdminSession,
  createNewSite,
  downloadExport,
  editLogSettings,
  exportSite,
  getLogSettings,
  importSite,
  listUploadedItems,
  TokenCache,
  uploadItem,
  type ServerType,
} from "../../provider/client";
import { ZipFile } from "yazl";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { readZip } from "../../tools/harness/zip";
import { runTempDir } from "../../tools/harness/temp";

const ADMIN = { username: "siteadmin", password: "site-Password-1" };
const PRODUCTS: ServerType[] = [
  "mission-server",
  "arcgis-server",
  "notebook-server",
  "video-server",
];

afterAll(() => closeDispatchers());

async function siteOn(serverType: ServerType, options: Record<string, unknown> = {}) {
  const exportFolder = runTempDir("import-exports-");
  const emu = await startTestEmulator({
    serverType,
    createDelayMs: 0,
    exportDelayMs: 20,
    importDelayMs: 20,
    exportRoots: [exportFolder],
    ...options,
  });
  const transport = { tls: { caCert: emu.caCert! } };
  await createNewSite(
    emu.adminUrl,
    {
      serverType,
      ...ADMIN,
      runAsync: false,
      logSettings: { logLevel: "WARNING", maxErrorReportsCount: 10, maxLogFileAge: 90 },
    },
    transport,
  );
  const session = createAdminSession({
    adminUrl: emu.adminUrl,
    ...ADMIN,
    tokenCache: new TokenCache(),
    ...transport,
  });
  return { emu, session, exportFolder };
}

async function cleanup(emu: TestEmulator, exportFolder: string) {
  await emu.close();
  fs.rmSync(emu.dataDir, { recursive: true, force: true });
  fs.rmSync(exportFolder, { recursive: true, force: true });
}

describe.each(PRODUCTS)("importSite on %s", (serverType) => {
  it("restores the exported log settings from a server path, and a later export shows them", async () => {
    const { emu, session, exportFolder } = await siteOn(serverType);
    try {
      const before = await getLogSettings(session);
      const { location } = await exportSite(session, { location: exportFolder });
      await editLogSettings(session, { ...before, logLevel: "DEBUG" });
      expect((await getLogSettings(session)).logLevel).toBe("DEBUG");

      const answer = await importSite(session, { location, serverType });
      expect(answer).toMatchObject({ status: "success" });
      expect((await getLogSettings(session)).logLevel).toBe("WARNING");
      expect(emu.stats()).toMatchObject({ importsStarted: 1, importsCompleted: 1 });

      // A later export carries the restored configuration.
      const again = await exportSite(session);
      const local = runTempDir("import-dl-");
      const file = await downloadExport(session, again.location, { dir: local });
      expect(file.sizeBytes).toBeGreaterThan(0);
      fs.rmSync(local, { recursive: true, force: true });
    } finally {
      await cleanup(emu, exportFolder);
    }
  });

  it("imports a local archive uploaded as an item, found again by its description", async () => {
    const { emu, session, exportFolder } = await siteOn(serverType);
    try {
      const { location } = await exportSite(session, { location: exportFolder });
      await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "SEVERE" });
      const { itemID } = await uploadItem(session, {
        file: location,
        description: "drill sha256:abc",
      });
      expect(itemID).toMatch(/^[0-9a-f]{32}$/);
      const items = await listUploadedItems(session);
      expect(items).toContainEqual(
        expect.objectContaining({ itemID, description: "drill sha256:abc" }),
      );

      await importSite(session, { location: itemID, serverType });
      expect((await getLogSettings(session)).logLevel).toBe("WARNING");
    } finally {
      await cleanup(emu, exportFolder);
    }
  });
});

describe("importSite refusals", () => {
  it("holds the export/import lock: a change during an import gets 409, an import during an export too", async () => {
    const { emu, session, exportFolder } = await siteOn("mission-server", {
      importDelayMs: 800,
      exportDelayMs: 800,
    });
    try {
      const { location } = await exportSite(session, { location: exportFolder });
      const running = importSite(session, { location, serverType: "mission-server" });
      await new Promise((r) => setTimeout(r, 200));
      const settings = await getLogSettings(session);
      await expect(
        editLogSettings(session, { ...settings, logLevel: "FINE" }),
      ).rejects.toMatchObject({ serverCode: 409 });
      await running;

      const exporting = exportSite(session, { location: exportFolder });
      await new Promise((r) => setTimeout(r, 200));
      await expect(
        importSite(session, { location, serverType: "mission-server" }),
      ).rejects.toMatchObject({ serverCode: 409 });
      await exporting;
    } finally {
      await cleanup(emu, exportFolder);
    }
  });

  it("never inflates a document past its cap: a small upload that inflates to megabytes is refused, not read", async () => {
    const { emu, session, exportFolder } = await siteOn("mission-server");
    try {
      const { location } = await exportSite(session, { location: exportFolder });
      const entries = await readZip(location);
      /** The same archive, its log settings padded with `bytes` characters (valid JSON). */
      const padded = async (bytes: number): Promise<string> => {
        const zip = new ZipFile();
        for (const entry of entries) {
          const data =
            entry.name === "log-settings.json"
              ? Buffer.from(
                  JSON.stringify({
                    ...(JSON.parse(entry.data.toString("utf8")) as object),
                    padding: " ".repeat(bytes),
                  }),
                )
              : entry.data;
          zip.addBuffer(data, entry.name);
        }
        zip.end();
        const file = path.join(exportFolder, `padded-${bytes}.agssite`);
        await new Promise<void>((resolve, reject) =>
          zip.outputStream
            .pipe(fs.createWriteStream(file))
            .on("close", resolve)
            .on("error", reject),
        );
        return file;
      };
      // A little padding is read as before: the document's shape is what exportSite writes.
      await importSite(session, { location: await padded(1024), serverType: "mission-server" });
      expect(emu.stats().importsCompleted).toBe(1);
      // 8 MiB of padding deflates to a few kilobytes; the emulator stops at 4 MiB.
      const bomb = await padded(8 * 1024 * 1024);
      expect(fs.statSync(bomb).size).toBeLessThan(256 * 1024);
      await expect(
        importSite(session, { location: bomb, serverType: "mission-server" }),
      ).rejects.toMatchObject({
        serverCode: 500,
        message: expect.stringMatching(/not a site configuration file/),
      });
      expect(emu.stats().importsStarted).toBe(1);
    } finally {
      await cleanup(emu, exportFolder);
    }
  });

  it("refuses a path outside the readable folders, a file that is not an archive, another product's archive", async () => {
    const { emu, session, exportFolder } = await siteOn("mission-server");
    const other = await siteOn("notebook-server");
    try {
      await expect(
        importSite(session, { location: "/etc/passwd", serverType: "mission-server" }),
      ).rejects.toMatchObject({ serverCode: 400 });
      const junk = path.join(exportFolder, "junk.agssite");
      fs.writeFileSync(junk, "not a zip");
      await expect(
        importSite(session, { location: junk, serverType: "mission-server" }),
      ).rejects.toMatchObject({ serverCode: 500 });
      const { location } = await exportSite(other.session, { location: other.exportFolder });
      fs.copyFileSync(location, path.join(exportFolder, "notebook.agssite"));
      await expect(
        importSite(session, {
          location: path.join(exportFolder, "notebook.agssite"),
          serverType: "mission-server",
        }),
      ).rejects.toThrow(/exported from a notebook-server site/);
      expect(emu.stats().importsStarted).toBe(0);
    } finally {
      await cleanup(emu, exportFolder);
      await cleanup(other.emu, other.exportFolder);
    }
  });
});

/**
 * SiteImport's rules, its implementation called directly against a real emulator: one archive,
 * a restore that replaces the configuration, a local archive uploaded once, the fingerprint
 * deciding what is "the same archive", the wait while an export holds the site, and a destroy
 * that sends nothing.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createAdminSession,
  editLogSettings,
  exportSite,
  getLogSettings,
  listUploadedItems,
  type ServerType,
  uploadItem,
} from "../../provider/client";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { implementation as siteImport } from "../../provider/resources/site-import/lifecycle";
import type { SiteImportOutputs } from "../../provider/resources/site-import/generated";
import { UNKNOWN } from "../../provider/resources/common/inputs/check";
import { runTempDir } from "../../tools/harness/temp";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

const PASSWORD = "site-Password-1";

afterAll(() => closeDispatchers());

let running: TestEmulator | null = null;
let folder = "";

/** The emulator of the current test. */
function emuNow(): TestEmulator {
  if (running === null) throw new Error("no emulator started in this test");
  return running;
}

async function start(
  serverType: ServerType = "mission-server",
  extra: Record<string, unknown> = {},
) {
  folder = runTempDir("site-import-");
  const emu = await startTestEmulator({
    serverType,
    createDelayMs: 0,
    exportDelayMs: 20,
    importDelayMs: 20,
    exportRoots: [folder],
    ...extra,
  });
  running = emu;
  const checked = await site.check({}, siteInputs(emu, { serverType, runAsync: false }));
  await site.create(checked.inputs);
}

afterEach(async () => {
  await running?.close();
  if (folder !== "") fs.rmSync(folder, { recursive: true, force: true });
  running = null;
  folder = "";
});

function session() {
  return createAdminSession({
    adminUrl: emuNow().adminUrl,
    username: "siteadmin",
    password: PASSWORD,
    tls: { caCert: emuNow().caCert! },
  });
}

/** An archive of the site with log level WARNING, after which the site is set to DEBUG. */
async function archive(): Promise<string> {
  const s = session();
  await editLogSettings(s, { ...(await getLogSettings(s)), logLevel: "WARNING" });
  const { location } = await exportSite(s, { location: folder });
  await editLogSettings(s, { ...(await getLogSettings(s)), logLevel: "DEBUG" });
  return location;
}

async function checked(extra: Record<string, unknown>) {
  const result = await siteImport.check(
    {},
    {
      serverType: emuNow().serverType,
      adminUrl: emuNow().adminUrl,
      username: "siteadmin",
      password: PASSWORD,
      tls: { caCert: emuNow().caCert! },
      ...extra,
    },
  );
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

describe("SiteImport check()", () => {
  it("wants exactly one archive: location or localArchive", async () => {
    const base = {
      adminUrl: "https://gis.example.com:20443/arcgis/admin",
      username: "a",
      password: "b",
    };
    for (const raw of [base, { ...base, location: "/x.agssite", localArchive: "./x.agssite" }]) {
      const result = await siteImport.check({}, raw);
      expect(result.failures).toEqual([
        expect.objectContaining({
          property: "location",
          reason: expect.stringMatching(/exactly one of location/),
        }),
      ]);
    }
    const bad = await siteImport.check({}, { ...base, location: "/x", archiveSha256: "abc" });
    expect(bad.failures).toEqual([expect.objectContaining({ property: "archiveSha256" })]);
  });

  // The object's own sha256 metadata is set by whoever writes the bucket: only what the stack
  // recorded proves the archive.
  it("refuses archiveObject without archiveSha256, absent or empty, naming archiveSha256", async () => {
    const base = {
      adminUrl: "https://gis.example.com:20443/arcgis/admin",
      username: "a",
      password: "b",
      archiveObject: "s3://backups/site-a/20260101-120000-UTC.agssite",
    };
    const absent = await siteImport.check({}, base);
    expect(absent.failures).toEqual([
      {
        property: "archiveSha256",
        reason: expect.stringMatching(/required with archiveObject.*SiteExport's sha256 output/),
      },
    ]);
    const empty = await siteImport.check({}, { ...base, archiveSha256: "" });
    expect(empty.failures).toEqual([
      { property: "archiveSha256", reason: expect.stringMatching(/^is empty: .*sha256 output/) },
    ]);
    const given = await siteImport.check({}, { ...base, archiveSha256: "a".repeat(64) });
    expect(given.failures ?? []).toEqual([]);
  });

  it("lets a preview through with archiveSha256 still unknown, and create refuses it absent", async () => {
    const base = {
      adminUrl: "https://gis.example.com:20443/arcgis/admin",
      username: "a",
      password: "b",
      archiveObject: "s3://backups/site-a/20260101-120000-UTC.agssite",
    };
    const unknown = await siteImport.check({}, { ...base, archiveSha256: UNKNOWN });
    expect(unknown.failures ?? []).toEqual([]);
    // Known at `pulumi up` as nothing (a SiteExport that recorded no sha256): refused before any
    // request (the URL answers nothing).
    await expect(siteImport.create(base)).rejects.toThrow(/archiveSha256: is required/);
  });
});

describe.each(["mission-server", "notebook-server"] as const)("SiteImport on %s", (serverType) => {
  it("restores the archive read from a server path: the exported log level is back", async () => {
    await start(serverType);
    const location = await archive();
    const { id, outs } = await siteImport.create(await checked({ location }));
    const o = outs as SiteImportOutputs;
    expect(o).toMatchObject({ outcome: "imported", fingerprint: `location:${location}` });
    expect(id).toBe(`${emuNow().adminUrl}/importSite#location:${location}`);
    expect((await getLogSettings(session())).logLevel).toBe("WARNING");
    expect(JSON.parse(o.report!)).toMatchObject({ report: expect.any(Object) });
  });

  it("uploads a local archive itself each time: an item already on the server is never trusted", async () => {
    await start(serverType);
    const local = await archive();
    const first = await siteImport.create(await checked({ localArchive: local }));
    const firstOuts = first.outs as SiteImportOutputs;
    expect(firstOuts.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(firstOuts.uploadedItemId).toMatch(/^[0-9a-f]{32}$/);
    expect(emuNow().stats().itemsUploaded).toBe(1);
    // Destroy deletes the item it uploaded; the same archive imported again is uploaded again.
    await siteImport.delete(first.id, firstOuts);
    expect(await listUploadedItems(session())).toEqual([]);

    const copy = path.join(folder, "copy.agssite");
    fs.copyFileSync(local, copy);
    const second = (await siteImport.create(await checked({ localArchive: copy })))
      .outs as SiteImportOutputs;
    expect(second.uploadedItemId).not.toBe(firstOuts.uploadedItemId);
    expect(emuNow().stats().itemsUploaded).toBe(2);
    expect(emuNow().stats().importsCompleted).toBe(2);
  });

  it("a create run again after an attempt that left its upload (a killed run) sends no second importSite", async () => {
    await start(serverType);
    const local = await archive();
    const inputs = await checked({ localArchive: local });
    // The killed run's create: it uploaded and imported; its answer never reached state.
    await siteImport.create(inputs);
    const again = (await siteImport.create(inputs)).outs as SiteImportOutputs;
    expect(again.outcome).toBe("answer-lost");
    expect(emuNow().stats().importsStarted).toBe(1);
    expect(emuNow().stats().itemsUploaded).toBe(1);
    // Changed triggers are another import: sent.
    const other = (await siteImport.create(await checked({ localArchive: local, triggers: ["2"] })))
      .outs as SiteImportOutputs;
    expect(other.outcome).toBe("imported");
    expect(emuNow().stats().importsStarted).toBe(2);
  });

  it("never restores a planted item that carries the archive's fingerprint in its description", async () => {
    await start(serverType);
    const local = await archive();
    const sha = createHash("sha256").update(fs.readFileSync(local)).digest("hex");
    const planted = path.join(folder, "planted.agssite");
    fs.writeFileSync(planted, "not the user's archive");
    const { itemID } = await uploadItem(session(), {
      file: planted,
      description: `pulumi-arcgis-admin site archive sha256:${sha}`,
    });
    const outs = (
      await siteImport.create(await checked({ localArchive: local, archiveSha256: sha }))
    ).outs as SiteImportOutputs;
    expect(outs.uploadedItemId).not.toBe(itemID);
    const imported = emuNow()
      .requestLog()
      .filter((r) => r.url.startsWith("/arcgis/admin/importSite"));
    expect(imported).toHaveLength(1);
    expect(emuNow().stats().importsCompleted).toBe(1);
    expect((await getLogSettings(session())).logLevel).toBe("WARNING");
  });

  it("refuses a FIFO or a folder as localArchive at check(), naming the field", async () => {
    const dir = runTempDir("site-import-fifo-");
    const fifo = path.join(dir, "archive.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const localArchive of [fifo, dir, "/dev/zero"]) {
      const result = await siteImport.check(
        {},
        {
          adminUrl: "https://gis.example.com:20443/arcgis/admin",
          username: "siteadmin",
          password: PASSWORD,
          localArchive,
        },
      );
      expect(result.failures?.map((f) => f.property)).toEqual(["localArchive"]);
    }
  });
});

describe("SiteImport diff()", () => {
  it("imports nothing again for another spelling of the site's URL, a checksum added to the same archive or serverType written out", async () => {
    await start();
    const local = await archive();
    const sha = createHash("sha256").update(fs.readFileSync(local)).digest("hex");
    const inputs = await checked({ location: local });
    const { id, outs } = await siteImport.create(inputs);
    for (const news of [
      { ...inputs, archiveSha256: sha },
      { ...inputs, adminUrl: `${String(inputs.adminUrl)}/` },
      { ...inputs, adminUrl: String(inputs.adminUrl).replace("127.0.0.1", "LOCALHOST") },
    ]) {
      expect(await siteImport.diff(id, outs, news)).toEqual({ changes: true });
    }
    expect(await siteImport.diff(id, outs, { ...inputs, location: `${local}.other` })).toEqual({
      changes: true,
      replaces: ["location"],
    });
    expect(emuNow().stats().importsCompleted).toBe(1);
  });

  it("keeps the same content at another path; replaces for other content, another site or new triggers", async () => {
    await start();
    const local = await archive();
    const inputs = await checked({ localArchive: local });
    const { id, outs } = await siteImport.create(inputs);
    expect(await siteImport.diff(id, outs, inputs)).toEqual({ changes: false });

    const moved = path.join(folder, "moved.agssite");
    fs.copyFileSync(local, moved);
    expect(await siteImport.diff(id, outs, { ...inputs, localArchive: moved })).toEqual({
      changes: true,
    });

    const other = path.join(folder, "other.agssite");
    fs.writeFileSync(other, "other content");
    expect(await siteImport.diff(id, outs, { ...inputs, localArchive: other })).toEqual({
      changes: true,
      replaces: ["localArchive"],
    });
    expect(await siteImport.diff(id, outs, { ...inputs, triggers: ["drill-2"] })).toEqual({
      changes: true,
      replaces: ["triggers"],
    });
  });

  it("refuses a local archive whose SHA-256 is not archiveSha256, before sending anything", async () => {
    await start();
    const local = await archive();
    await expect(
      siteImport.create(await checked({ localArchive: local, archiveSha256: "0".repeat(64) })),
    ).rejects.toThrow(/it changed since it was made\. Nothing was sent/);
    expect(emuNow().stats()).toMatchObject({ itemsUploaded: 0, importsStarted: 0 });
  });
});

describe("SiteImport and the export lock", () => {
  it("waits while an export holds the site, then imports once", async () => {
    await start("mission-server", { exportDelayMs: 800 });
    const location = await archive();
    const exporting = exportSite(session(), { location: folder });
    await new Promise((r) => setTimeout(r, 150));
    const { outs } = await siteImport.create(await checked({ location }));
    await exporting;
    expect((outs as SiteImportOutputs).outcome).toBe("imported");
    expect(emuNow().stats().changesRefusedDuringExport).toBeGreaterThan(0);
    expect(emuNow().stats().importsStarted).toBe(1);
  });
});

describe("SiteImport delete()", () => {
  it("sends nothing: an import cannot be undone", async () => {
    await start();
    const location = await archive();
    const { id, outs } = await siteImport.create(await checked({ location }));
    const before = emuNow().requestLog().length;
    await siteImport.delete(id, outs);
    expect(emuNow().requestLog()).toHaveLength(before);
    expect((await getLogSettings(session())).logLevel).toBe("WARNING");
  });
});

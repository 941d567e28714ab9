import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAdminSession, exportSite, verifyArchive } from "../../provider/client";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import type { SiteExportOutputs } from "../../provider/resources/site-export/generated";
import { runTempDir } from "../../tools/harness/temp";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";

async function checked(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await siteExport.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

describe("SiteExport check()", () => {
  const base = {
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: "site-Password-1",
  };

  it("fills in the default timeout", async () => {
    expect(await checked(base)).toMatchObject({ timeouts: { exportMs: 30 * 60_000 } });
  });

  it("rejects downloadTo together with location, and bad values, all at once", async () => {
    const result = await siteExport.check(
      {},
      {
        ...base,
        location: "D:\\backups",
        downloadTo: "./b",
        password: "",
        timeouts: { exportMs: -1 },
      },
    );
    expect((result.failures ?? []).map((f) => f.property).sort()).toEqual(
      ["downloadTo", "password", "timeouts.exportMs"].sort(),
    );
  });
});

describe("SiteExport diff() and update()", () => {
  const olds: SiteExportOutputs = {
    serverType: "mission-server",
    adminUrl: "https://gis.example.com:20443/arcgis/admin",
    username: "siteadmin",
    password: "site-Password-1",
    triggers: ["r1"],
    timeouts: { exportMs: 1000 },
    location: "https://gis.example.com:20443/arcgis/admin/uploads/abc",
    fileName: "20261122-101010-UTC.agssite",
    exportedAt: "2026-11-22T10:10:10.000Z",
  };
  const news = { ...olds, location: undefined } as Record<string, unknown>;
  delete news.location;
  delete news.fileName;
  delete news.exportedAt;

  it("reports no change for the same inputs", async () => {
    expect(await siteExport.diff("id", olds, news)).toEqual({ changes: false });
  });

  it("exports again when triggers, location, downloadTo or adminUrl change", async () => {
    expect(await siteExport.diff("id", olds, { ...news, triggers: ["r2"] })).toEqual({
      changes: true,
      replaces: ["triggers"],
    });
    expect(await siteExport.diff("id", olds, { ...news, location: "/backups" })).toEqual({
      changes: true,
      replaces: ["location"],
    });
    expect(await siteExport.diff("id", olds, { ...news, downloadTo: "/tmp/b" })).toEqual({
      changes: true,
      replaces: ["downloadTo"],
    });
  });

  it("keeps a server folder given as location from looking changed", async () => {
    const withFolder = {
      ...olds,
      requestedLocation: "D:\\backups",
      location: "D:\\backups\\x.agssite",
    };
    expect(await siteExport.diff("id", withFolder, { ...news, location: "D:\\backups" })).toEqual({
      changes: false,
    });
  });

  it("updates credentials, tls and timeouts in state and keeps every output", async () => {
    const next = { ...news, password: "new-Password-2", timeouts: { exportMs: 5000 } };
    expect(await siteExport.diff("id", olds, next)).toEqual({ changes: true });
    const { outs } = await siteExport.update("id", olds, next);
    expect(outs).toEqual({
      ...olds,
      password: "new-Password-2",
      maxDownloadBytes: 4 * 1024 ** 3,
      timeouts: { exportMs: 5000 },
    });
  });
});

describe("SiteExport downloads in both URL forms a server may answer", () => {
  it.each(["file", "item"] as const)(
    "downloads the archive when the URL is the %s form, from the admin URL's origin although the server names a host the client cannot reach",
    async (exportUrlForm) => {
      const emu = await startTestEmulator({
        exportUrlForm,
        machineName: "unreachable-machine.invalid",
      });
      const dir = runTempDir("exports-");
      try {
        await site.create((await site.check({}, siteInputs(emu))).inputs);
        const { outs } = await siteExport.create(
          (
            await siteExport.check(
              {},
              {
                adminUrl: emu.adminUrl,
                username: "siteadmin",
                password: "site-Password-1",
                tls: { caCert: emu.caCert },
                downloadTo: dir,
              },
            )
          ).inputs,
        );
        expect(outs.location).toMatch(
          /^https:\/\/unreachable-machine\.invalid:\d+\/arcgis\/admin\/uploads\//,
        );
        expect(outs.sizeBytes).toBeGreaterThan(0);
        expect(fs.readdirSync(dir)).toEqual([outs.fileName]);
        const downloads = emu.requestLog().filter((r) => r.url.includes("/uploads/"));
        // The item form answers a page, then its description as JSON, then the file.
        expect(downloads.map((r) => new URL(r.url, "https://x").pathname.split("/").pop())).toEqual(
          exportUrlForm === "item"
            ? [expect.any(String), expect.any(String), "download"]
            : [expect.any(String)],
        );
      } finally {
        await emu.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("SiteExport and the server's version", () => {
  it("records the version of a Video Server, whose rest/info wants a token once a site exists", async () => {
    const video = await startTestEmulator({ serverType: "video-server" });
    try {
      await site.create(
        (await site.check({}, siteInputs(video, { serverType: "video-server" }))).inputs,
      );
      const inputs = (
        await siteExport.check(
          {},
          {
            serverType: "video-server",
            adminUrl: video.adminUrl,
            username: "siteadmin",
            password: "site-Password-1",
            tls: { caCert: video.caCert },
          },
        )
      ).inputs;
      const { outs } = await siteExport.create(inputs);
      expect(outs.serverVersion).toBe(video.serverVersion);
    } finally {
      await video.close();
    }
  });

  it("refuses exportSite on a server older than the operation, naming the version found", async () => {
    const old = await startTestEmulator({ serverType: "arcgis-server", serverVersion: "10.1" });
    try {
      const inputs = (
        await siteExport.check(
          {},
          {
            serverType: "arcgis-server",
            adminUrl: old.adminUrl,
            username: "siteadmin",
            password: "site-Password-1",
            tls: { caCert: old.caCert },
          },
        )
      ).inputs;
      await expect(siteExport.create(inputs)).rejects.toThrow(
        /ArcGIS Server at .* is version 10\.1.*; exportSite exists from 10\.2\. Nothing was sent/,
      );
      expect(old.requestLog().filter((r) => r.url.includes("exportSite"))).toHaveLength(0);
    } finally {
      await old.close();
    }
  });
});

describe("SiteExport against the emulator", () => {
  let emu: TestEmulator;
  let downloads: string;

  beforeAll(async () => {
    emu = await startTestEmulator({ exportDelayMs: 400 });
    await site.create((await site.check({}, siteInputs(emu, { runAsync: false }))).inputs);
  });
  afterAll(async () => {
    await emu.close();
  });
  beforeEach(() => {
    downloads = runTempDir("exports-");
  });

  const exportInputs = (extra: Record<string, unknown> = {}) => {
    const { adminUrl, username, password, tls } = siteInputs(emu);
    return checked({ adminUrl, username, password, tls, ...extra });
  };

  it("writes the archive into a server folder given as location", async () => {
    const { outs } = await siteExport.create(await exportInputs({ location: emu.dataDir }));
    expect(outs.location).toMatch(/\d{8}-\d{6}-UTC.*\.agssite$/);
    expect(path.dirname(outs.location as string)).toBe(emu.dataDir);
    expect(fs.existsSync(outs.location as string)).toBe(true);
    expect(outs.requestedLocation).toBe(emu.dataDir);
    expect(outs).not.toHaveProperty("localPath");
  });

  it("downloads the archive to downloadTo and verifies it", async () => {
    const { outs } = await siteExport.create(await exportInputs({ downloadTo: downloads }));
    expect(outs.location).toMatch(new RegExp(`^${emu.adminUrl}/uploads/`));
    const local = outs.localPath as string;
    expect(path.dirname(local)).toBe(downloads);
    expect(outs.fileName).toMatch(/\.agssite$/);
    const bytes = fs.readFileSync(local);
    expect(outs.sizeBytes).toBe(bytes.length);
    expect(outs.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    await expect(verifyArchive(local)).resolves.toMatchObject({ sha256: outs.sha256 });
    expect(fs.readdirSync(downloads)).toEqual([path.basename(local)]);
  });

  it("runs two exports of one site in parallel, both succeeding with distinct archives", async () => {
    const [a, b] = await Promise.all([
      siteExport.create(await exportInputs({ downloadTo: downloads })),
      siteExport.create(await exportInputs({ downloadTo: downloads })),
    ]);
    expect(a.outs.location).not.toBe(b.outs.location);
    expect(a.outs.localPath).not.toBe(b.outs.localPath);
    expect(fs.readdirSync(downloads)).toHaveLength(2);
  });

  it("waits for a lock held by another export instead of failing", async () => {
    const before = emu.stats();
    const session = createAdminSession({
      adminUrl: emu.adminUrl,
      username: "siteadmin",
      password: "site-Password-1",
      tls: { caCert: emu.caCert! },
    });
    const other = exportSite(session, {});
    await new Promise((r) => setTimeout(r, 50));
    const { outs } = await siteExport.create(await exportInputs());
    await other;
    expect(outs.location).toMatch(/\/uploads\//);
    const after = emu.stats();
    expect(after.exportsCompleted - before.exportsCompleted).toBe(2);
    expect(after.changesRefusedDuringExport).toBeGreaterThan(before.changesRefusedDuringExport);
  });

  it("gives up on a held lock after timeouts.exportMs with a clear message", async () => {
    // An emulator whose exports hold the site longer than the smallest exportMs (1 s).
    const slow = await startTestEmulator({ exportDelayMs: 3000 });
    try {
      await site.create((await site.check({}, siteInputs(slow, { runAsync: false }))).inputs);
      const { adminUrl, username, password, tls } = siteInputs(slow);
      const session = createAdminSession({ adminUrl, username, password, tls });
      const other = exportSite(session, {});
      await new Promise((r) => setTimeout(r, 50));
      await expect(
        siteExport.create(
          await checked({ adminUrl, username, password, tls, timeouts: { exportMs: 1000 } }),
        ),
      ).rejects.toThrow(/could not start within timeouts.exportMs.*another export/);
      await other;
    } finally {
      await slow.close();
    }
  });

  it("refresh keeps a verified download and forgets a missing or changed one", async () => {
    const { id, outs } = await siteExport.create(await exportInputs({ downloadTo: downloads }));
    expect((await siteExport.read(id, outs)).id).toBe(id);
    fs.appendFileSync(outs.localPath as string, "tampered");
    expect(await siteExport.read(id, outs)).toEqual({});
    fs.rmSync(outs.localPath as string);
    expect(await siteExport.read(id, outs)).toEqual({});
  });

  it("refresh with allowMissingDownload keeps an export whose local copy is gone, not a changed one", async () => {
    const { id, outs } = await siteExport.create(
      await exportInputs({ downloadTo: downloads, allowMissingDownload: true }),
    );
    expect(outs.allowMissingDownload).toBe(true);
    fs.appendFileSync(outs.localPath as string, "tampered");
    expect(await siteExport.read(id, outs)).toEqual({});
    fs.rmSync(outs.localPath as string);
    expect(await siteExport.read(id, outs)).toEqual({ id, props: outs });
  });

  it("writes a relative downloadTo under the working directory and records it as given", async () => {
    const cwd = process.cwd();
    process.chdir(downloads);
    try {
      const { outs } = await siteExport.create(
        await exportInputs({ downloadTo: "runner-backups" }),
      );
      expect(outs.downloadTo).toBe("runner-backups");
      expect(path.dirname(outs.localPath as string)).toBe(
        path.join(fs.realpathSync(downloads), "runner-backups"),
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it("keeps the archive when deleted", async () => {
    const { id, outs } = await siteExport.create(await exportInputs({ downloadTo: downloads }));
    await siteExport.delete(id, outs);
    expect(fs.existsSync(outs.localPath as string)).toBe(true);
  });

  it("reports a location outside the server's allowed folders", async () => {
    await expect(
      siteExport.create(await exportInputs({ location: path.join(os.tmpdir(), "elsewhere") })),
    ).rejects.toThrow(/exportSite on .* failed/);
  });
});

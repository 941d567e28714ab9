/**
 * SiteExport under the faults that threaten backups: the emulator process SIGKILLed in the middle
 * of an export and restarted (no partial archive under a final name, state intact, the next export
 * succeeds), and five exports of one site at once (all succeed, five distinct archives).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { createAdminSession, siteStatus, verifyArchive } from "../../provider/client";
import { implementation as siteExport } from "../../provider/resources/site-export/lifecycle";
import { implementation as site } from "../../provider/resources/site/lifecycle";
import { siteInputs, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { errorOf, measure, valueOf } from "../../tools/harness/outcome";
import { sleep } from "../../tools/harness/until";
import { runTempDir } from "../../tools/harness/temp";
import { buildEmulatorCli, SpawnedEmulator } from "../../tools/harness/spawn-emulator";

const figures = new SuiteFigures("faults-exports");
afterAll(() => figures.write());

const ADMIN = { username: "siteadmin", password: "export-Fault-Pw-3b9c" };

async function checkedExport(raw: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await siteExport.check({}, raw);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs!;
}

/** Every file under `dir`, relative, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) await walk(child);
      else out.push(child);
    }
  };
  await walk("");
  return out.sort();
}

/** Archives published under a final name (not hidden, `.agssite`) that are NOT readable zips. */
async function brokenArchives(dir: string): Promise<string[]> {
  const broken: string[] = [];
  for (const file of await filesUnder(dir)) {
    const base = path.basename(file);
    if (base.startsWith(".") || !base.endsWith(".agssite")) continue;
    try {
      await verifyArchive(path.join(dir, file));
    } catch {
      broken.push(file);
    }
  }
  return broken;
}

describe("SiteExport: the emulator is SIGKILLed during an export and restarted", () => {
  let cli: string;
  let dataDir: string;
  let downloads: string;
  let emulator: SpawnedEmulator | undefined;

  const args = (): string[] => [
    "--data-dir",
    dataDir,
    "--no-tls",
    "--export-delay",
    "2000",
    "--create-delay",
    "100",
    "--quiet",
  ];

  beforeAll(async () => {
    cli = await buildEmulatorCli();
    dataDir = runTempDir("faults-kill-data-");
    downloads = runTempDir("faults-kill-downloads-");
  });

  afterAll(async () => {
    await emulator?.stop("SIGKILL");
    for (const dir of [dataDir, downloads]) {
      if (dir !== undefined) await fs.rm(dir, { recursive: true, force: true });
    }
  });

  /** Waits until the child reports that an export took the lock and began writing. */
  async function exportRunning(child: SpawnedEmulator): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${child.origin}/__emulator/stats`);
      const stats = (await res.json()) as { exportsStarted: number };
      if (stats.exportsStarted > 0) return;
      await sleep(25);
    }
    throw new Error("the export never started");
  }

  /** Starts an export, SIGKILLs the emulator while it writes, and returns the export's outcome. */
  async function killDuringExport(extra: Record<string, unknown>) {
    const child = emulator!;
    const inputs = await checkedExport({
      adminUrl: child.ready.adminUrl,
      ...ADMIN,
      ...extra,
      timeouts: { exportMs: 20_000 },
    });
    const pending = measure(siteExport.create(inputs));
    await exportRunning(child);
    // Well inside the 2 s export: the temporary archive exists and is being written.
    await sleep(300);
    const beforeKill = await filesUnder(dataDir);
    const exit = await child.stop("SIGKILL");
    emulator = undefined;
    return { outcome: await pending, exit, beforeKill };
  }

  it("leaves no partial archive under a final name, keeps the site, and the next exports succeed", async () => {
    emulator = await SpawnedEmulator.start(cli, args());
    // A site to export, created through the resource.
    const created = await site.create(
      (
        await site.check(
          {},
          {
            adminUrl: emulator.ready.adminUrl,
            ...ADMIN,
            runAsync: false,
            tls: {},
          },
        )
      ).inputs,
    );
    expect(created.outs.state).toBe("created");
    const exportsDir = path.join(dataDir, "exports");
    await fs.mkdir(exportsDir);

    let kills = 0;
    let survived = 0;
    let dataLost = 0;
    const measured: Record<string, number> = {};

    for (const variant of [
      { name: "location", extra: { location: exportsDir } },
      { name: "downloadTo", extra: { downloadTo: downloads } },
    ]) {
      const { outcome, exit, beforeKill } = await killDuringExport(variant.extra);
      kills++;
      expect(exit.signal).toBe("SIGKILL");
      // The export fails with a network error that says so, not a hang.
      const error = errorOf(outcome);
      expect(error.message).toMatch(/exportSite on .* failed: could not reach the server/);
      expect(error.message).not.toContain(ADMIN.password);
      // The archive being written was a hidden temporary file, never a final name.
      expect(beforeKill.some((f) => path.basename(f).endsWith(".partial"))).toBe(true);
      const finalNames = (await filesUnder(dataDir)).filter((f) => f.endsWith(".agssite"));
      expect(finalNames).toEqual([]);
      expect(await filesUnder(downloads)).toEqual([]);
      dataLost += finalNames.length;

      // Restart on the same data dir (a new port).
      emulator = await SpawnedEmulator.start(cli, args());
      // The unfinished archive was removed at start-up.
      const leftovers = (await filesUnder(dataDir)).filter((f) => f.endsWith(".partial"));
      expect(leftovers).toEqual([]);
      // State intact: the machine is still in its site, and the administrator still logs in.
      const status = await siteStatus(emulator.ready.adminUrl);
      expect(status.state).toBe("in-site");
      if (status.state !== "in-site") dataLost++;
      const token = await createAdminSession({
        adminUrl: emulator.ready.adminUrl,
        ...ADMIN,
      }).token();
      expect(token.length).toBeGreaterThan(20);
      const state = JSON.parse(await fs.readFile(path.join(dataDir, "state.json"), "utf8")) as {
        site: { status: string; admin: { username: string } } | null;
        pendingArchives: string[];
      };
      expect(state.site).toMatchObject({ status: "ready", admin: { username: ADMIN.username } });
      expect(state.pendingArchives).toEqual([]);
      measured[`${variant.name}FailedAfterMs`] = outcome.ms;
      survived++;
    }

    // The next exports succeed, both kinds, with readable archives.
    const atLocation = valueOf(
      await measure(
        siteExport.create(
          await checkedExport({
            adminUrl: emulator.ready.adminUrl,
            ...ADMIN,
            location: exportsDir,
          }),
        ),
      ),
    );
    expect(atLocation.outs.location).toMatch(/\.agssite$/);
    await verifyArchive(atLocation.outs.location as string);
    const downloaded = valueOf(
      await measure(
        siteExport.create(
          await checkedExport({
            adminUrl: emulator.ready.adminUrl,
            ...ADMIN,
            downloadTo: downloads,
          }),
        ),
      ),
    );
    const local = await verifyArchive(downloaded.outs.localPath as string);
    expect(local.sha256).toBe(downloaded.outs.sha256);
    expect(await filesUnder(downloads)).toEqual([path.basename(local.path)]);
    const broken = [...(await brokenArchives(dataDir)), ...(await brokenArchives(downloads))];
    expect(broken).toEqual([]);
    dataLost += broken.length;
    expect(dataLost).toBe(0);
    figures.record(
      "SIGKILL during exportSite (location and downloadTo), restart, export again",
      { faultsInjected: kills, faultsSurvived: survived, dataLost },
      measured,
    );
  }, 90_000);
});

describe("SiteExport: five exports of one site at once", () => {
  let emu: TestEmulator;
  let downloads: string;

  beforeAll(async () => {
    emu = await startTestEmulator({ createDelayMs: 50, exportDelayMs: 300 });
    await site.create(
      (await site.check({}, siteInputs(emu, { ...ADMIN, runAsync: false }))).inputs,
    );
    downloads = runTempDir("faults-five-");
  });

  afterAll(async () => {
    await emu?.close();
    if (downloads !== undefined) await fs.rm(downloads, { recursive: true, force: true });
  });

  it.each([{ kind: "downloadTo" as const }, { kind: "location" as const }])(
    "all succeed with five distinct archives ($kind)",
    async ({ kind }) => {
      const folder = kind === "downloadTo" ? downloads : path.join(emu.dataDir, "five-exports");
      if (kind === "location") await fs.mkdir(folder);
      const before = emu.stats();
      const inputs = await checkedExport({
        adminUrl: emu.adminUrl,
        ...ADMIN,
        [kind]: folder,
        tls: { caCert: emu.caCert },
        timeouts: { exportMs: 60_000 },
      });
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => measure(siteExport.create(inputs))),
      );
      const tookMs = Date.now() - started;
      const results = outcomes.map(valueOf);
      const files = results.map((r) =>
        kind === "downloadTo" ? (r.outs.localPath as string) : (r.outs.location as string),
      );
      expect(new Set(files).size).toBe(5);
      expect(new Set(results.map((r) => r.id)).size).toBe(5);
      const hashes = new Set<string>();
      for (const file of files) hashes.add((await verifyArchive(file)).sha256);
      expect(hashes.size).toBe(5);
      const onDisk = (await filesUnder(folder)).filter((f) => f.endsWith(".agssite"));
      expect(onDisk).toHaveLength(5);
      const after = emu.stats();
      expect(after.exportsCompleted - before.exportsCompleted).toBe(5);
      // They really competed for the export lock and waited for it.
      const refused = after.changesRefusedDuringExport - before.changesRefusedDuringExport;
      expect(refused).toBeGreaterThanOrEqual(4);
      figures.record(
        `five concurrent exports (${kind})`,
        {
          faultsInjected: refused,
          faultsSurvived: refused,
          dataLost: 5 - hashes.size,
        },
        { tookMs, lockRefusals: refused },
      );
    },
    60_000,
  );
});

/**
 * A site started in the "upgrade required" state (`upgradeFrom`, `--upgrade-from`) beyond the one
 * exchange a conformance case replays: what the rest of the API answers meanwhile, an upgrade cut
 * short by a stop (LAST_ATTEMPT_FAILED on the next start, as Chef and DSC read it), a second POST
 * while one runs (code 403 "Upgrade in progress.", which DSC waits on), and the start-up checks.
 */
import { promises as fs } from "node:fs";
import { Harness, SITE_ADMIN } from "../../tools/harness/emulator-http";
import { runTempDir } from "../../tools/harness/temp";

/** An ArcGIS Server site created at `from`, in a data dir kept for the next start. */
async function siteAt(from: string, serverType = "arcgis-server" as const): Promise<string> {
  const dataDir = runTempDir("arcgis-emu-test-");
  const h = await Harness.start({ dataDir, serverType, serverVersion: from, createDelayMs: 0 });
  await h.createSite();
  await h.close({ keepDataDir: true });
  return dataDir;
}

describe("a site waiting for its upgrade", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it("reports it at the root, refuses everything else, and serves again once upgraded", async () => {
    const dataDir = await siteAt("11.1");
    dirs.push(dataDir);
    const h = await Harness.start({ dataDir, serverVersion: "11.3", upgradeFrom: "11.1" });
    try {
      const root = await h.adminGet("/?f=json");
      expect(root.json).toEqual({
        upgradeStatus: "UPGRADE_REQUIRED",
        upgradeFromVersion: "11.1.0",
        upgradeToVersion: "11.3.0",
      });
      const token = await h.admin("generateToken", SITE_ADMIN);
      expect(token.json).toMatchObject({ status: "error", code: 403 });
      expect((await h.admin("machines")).json).toMatchObject({ status: "error", code: 403 });
      const health = await h.adminGet("/../rest/info/healthCheck?f=json");
      expect(health.json).toEqual({ success: false });
      const info = await h.adminGet("/../rest/info?f=json");
      expect(info.json).toMatchObject({ currentVersion: 11.3 });

      expect((await h.admin("upgrade")).json).toEqual({ status: "success" });
      const after = await h.adminGet("/?f=json");
      expect(after.json).toMatchObject({ status: "error", code: 499 });
      expect(await h.adminToken()).toEqual(expect.any(String));
      // No longer due: a 404 without a token, the way DSC tells that the upgrade is done.
      expect((await h.admin("upgrade")).json).toMatchObject({ status: "error", code: 404 });
    } finally {
      await h.close({ keepDataDir: true });
    }
  });

  it("reports a run a stop cut short as LAST_ATTEMPT_FAILED at the next start, then upgrades", async () => {
    const dataDir = await siteAt("11.3");
    dirs.push(dataDir);
    let h = await Harness.start({
      dataDir,
      serverVersion: "11.4",
      upgradeFrom: "11.3",
      upgradeDelayMs: 60_000,
    });
    const started = await h.admin("upgrade", { runAsync: "true" });
    expect(started.json).toMatchObject({ upgradeStatus: "In Progress" });
    const second = await h.admin("upgrade", { runAsync: "true" });
    expect(second.json).toEqual({ status: "error", code: 403, messages: ["Upgrade in progress."] });
    await h.close({ keepDataDir: true });

    h = await Harness.start({ dataDir, serverVersion: "11.4", upgradeDelayMs: 10 });
    try {
      const status = await h.adminGet("/upgrade?f=json");
      expect(status.json).toMatchObject({ upgradeStatus: "LAST_ATTEMPT_FAILED" });
      expect((await h.admin("upgrade")).json).toEqual({ status: "success" });
      expect(await h.adminToken()).toEqual(expect.any(String));
    } finally {
      await h.close({ keepDataDir: true });
    }
  });

  it("answers an asynchronous run's result while polled, until the emulator restarts", async () => {
    const dataDir = await siteAt("11.3");
    dirs.push(dataDir);
    const h = await Harness.start({
      dataDir,
      serverVersion: "11.4",
      upgradeFrom: "11.3",
      upgradeDelayMs: 10,
    });
    try {
      await h.admin("upgrade", { runAsync: "true", enableDebug: "false" });
      // Polled as a client does, until the run has ended (how soon depends on the machine's load).
      let polled = await h.adminGet("/upgrade?runAsync=true&f=json");
      const deadline = Date.now() + 30_000;
      while (polled.json.upgradeStatus === "In Progress" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        polled = await h.adminGet("/upgrade?runAsync=true&f=json");
      }
      expect(polled.json).toMatchObject({
        upgradeStatus: "Success",
        upgradeFromVersion: "11.3.0",
        upgradeToVersion: "11.4.0",
      });
      expect(polled.json.stages).toHaveLength(7);
    } finally {
      await h.close({ keepDataDir: true });
    }
  });

  it("answers 404 in Mission Server's form when no upgrade is due, without a token", async () => {
    const h = await Harness.start({ serverType: "mission-server" });
    try {
      await h.createSite();
      const answer = await h.adminGet("/upgrade?f=json");
      expect(answer.json).toMatchObject({ error: { code: 404 } });
    } finally {
      await h.close();
    }
  });

  it("refuses to start without a site, or from a version not older", async () => {
    const empty = runTempDir("arcgis-emu-test-");
    dirs.push(empty);
    await expect(Harness.start({ dataDir: empty, upgradeFrom: "11.1" })).rejects.toThrow(
      /needs a data dir that holds a site/,
    );
    const dataDir = await siteAt("11.3");
    dirs.push(dataDir);
    await expect(
      Harness.start({ dataDir, serverVersion: "11.3", upgradeFrom: "11.3" }),
    ).rejects.toThrow(/must be older than the server version 11.3.0/);
    await expect(Harness.start({ dataDir, upgradeFrom: "eleven" })).rejects.toThrow(
      /must look like 11.2/,
    );
  });
});

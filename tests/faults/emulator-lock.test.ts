/**
 * One emulator per data dir, under the fault that broke it: many emulators started at the same
 * moment on one data dir (separate processes, and within one process). Exactly one may run; the
 * others must refuse with a message. A lock left by a killed emulator is taken over at once.
 */
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { startEmulator } from "../../emulator";
import { SuiteFigures } from "../../tools/harness/robustness-record";
import { runTempDir } from "../../tools/harness/temp";
import { buildEmulatorCli } from "../../tools/harness/spawn-emulator";

const figures = new SuiteFigures("faults-emulator-lock");
afterAll(() => figures.write());

const STARTS = 30;
const REPO = path.resolve(__dirname, "../..");

/** Runs the CLI until it prints its ready line or exits; resolves with what happened. */
function startCli(
  cli: string,
  dataDir: string,
): Promise<{ ready: boolean; stderr: string; stop: () => Promise<void> }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "--data-dir", dataDir, "--no-tls"], {
      env: { ...process.env, NODE_PATH: path.join(REPO, "node_modules") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    // "close", not "exit": a process can exit before its stderr pipe has been read to the end,
    // and the refusal message is what this test checks.
    const exited = new Promise<void>((done) => child.on("close", () => done()));
    const stop = async (): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    };
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      if (stdout.includes("\n")) resolve({ ready: true, stderr, stop });
    });
    child.on("close", () => resolve({ ready: false, stderr, stop }));
  });
}

/** A pid that belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid!;
}

describe("the data-dir lock", () => {
  let cli: string;
  let dataDir: string;
  beforeAll(async () => {
    cli = await buildEmulatorCli();
  });
  beforeEach(async () => {
    dataDir = runTempDir("arcgis-emu-lock-");
  });
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(`lets exactly one of ${STARTS} emulator processes started at once run on one data dir`, async () => {
    const results = await Promise.all(Array.from({ length: STARTS }, () => startCli(cli, dataDir)));
    try {
      const running = results.filter((r) => r.ready);
      const refused = results.filter((r) => !r.ready);
      expect(running).toHaveLength(1);
      expect(refused).toHaveLength(STARTS - 1);
      for (const r of refused) expect(r.stderr).toMatch(/is in use by another emulator/);
      figures.record(`${STARTS} processes started at once on one data dir`, {
        faultsInjected: STARTS - 1,
        faultsSurvived: refused.length,
        dataLost: running.length - 1,
      });
    } finally {
      await Promise.all(results.map((r) => r.stop()));
    }
  }, 120_000);

  it(`lets exactly one of ${STARTS} startEmulator() calls at once in one process run`, async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: STARTS }, () => startEmulator({ dataDir, quiet: true, tls: false })),
    );
    const running = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
    try {
      expect(running).toHaveLength(1);
      const reasons = outcomes.flatMap((o) => (o.status === "rejected" ? [String(o.reason)] : []));
      expect(reasons).toEqual(
        Array.from({ length: STARTS - 1 }, () =>
          expect.stringMatching(/in use by another emulator/),
        ),
      );
      figures.record(`${STARTS} starts at once in one process`, {
        faultsInjected: STARTS - 1,
        faultsSurvived: outcomes.filter((o) => o.status === "rejected").length,
        dataLost: running.length - 1,
      });
    } finally {
      await Promise.all(running.map((emu) => emu.close()));
    }
  });

  it("takes over the lock of a dead emulator at once, and refuses a live one's", async () => {
    const pidFile = path.join(dataDir, "emulator.pid");
    await fs.writeFile(pidFile, `${await deadPid()}\n`);
    const emu = await startEmulator({ dataDir, quiet: true, tls: false });
    try {
      expect((await fs.readFile(pidFile, "utf8")).trim()).toBe(String(process.pid));
      await expect(startEmulator({ dataDir, quiet: true, tls: false })).rejects.toThrow(
        `is in use by another emulator (process ${process.pid})`,
      );
    } finally {
      await emu.close();
    }
    await expect(fs.access(pidFile)).rejects.toThrow();
    figures.record("stale lock of a dead process", { faultsInjected: 1, faultsSurvived: 1 });
  });

  it("takes over an empty lock left by a crash between creating and writing it", async () => {
    const pidFile = path.join(dataDir, "emulator.pid");
    await fs.writeFile(pidFile, "");
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(pidFile, old, old);
    const emu = await startEmulator({ dataDir, quiet: true, tls: false });
    await emu.close();
    figures.record("empty stale lock", { faultsInjected: 1, faultsSurvived: 1 });
  });
});

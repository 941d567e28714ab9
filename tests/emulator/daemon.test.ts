/**
 * The emulator as a background process (emulator/process/daemon.ts), with real detached processes:
 * started, found again by its data dir, stopped, and then not found; the CLI's `--detach` and
 * `--stop`; and a data dir held by an emulator that was not started detached is left alone.
 */
import { execFile, spawn } from "node:child_process";
import * as fs2 from "node:fs";
import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import {
  DAEMON_FILE,
  DaemonError,
  findRunning,
  startDetached,
  stopDetached,
} from "../../emulator/process/daemon";
import { buildEmulatorCli, READY_LINE_KEYS } from "../../tools/harness/spawn-emulator";
import { runTempDir } from "../../tools/harness/temp";

const REPO = path.resolve(__dirname, "../..");
const run = promisify(execFile);
const env = { ...process.env, NODE_PATH: path.join(REPO, "node_modules") };
let root: string;
let cli: string;
const started: number[] = [];

/** Whether pid runs: a zombie (exited, not yet reaped) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = fs2.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
}

beforeAll(async () => {
  root = runTempDir("arcgis-daemon-");
  cli = await buildEmulatorCli();
}, 60_000);

afterAll(async () => {
  // Only when a test failed half-way: the detached emulators outlive this process otherwise.
  for (const pid of started) if (alive(pid)) process.kill(pid, "SIGKILL");
  await fs.rm(root, { recursive: true, force: true });
});

it("starts a detached emulator, finds it, stops it, and then finds none", async () => {
  const dataDir = path.join(root, "lifecycle");
  const emu = await startDetached({ dataDir, cli, env, args: ["--port", "0", "--quiet"] });
  started.push(emu.pid);
  expect(emu.pid).not.toBe(process.pid);
  expect(alive(emu.pid)).toBe(true);
  expect(emu.adminUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin$/);
  expect(emu.caCertFile).toBe(path.join(dataDir, "tls", "cert.pem"));
  expect(emu.dataDir).toBe(dataDir);

  const found = await findRunning(dataDir);
  expect(found).toEqual(emu);

  expect(await stopDetached(dataDir)).toBe(emu.pid);
  // Returned once the process has exited, not only released its data dir (a moment earlier).
  expect(alive(emu.pid)).toBe(false);
  expect(await fs.readdir(dataDir)).not.toContain("emulator.pid");
  expect(await fs.readdir(dataDir)).not.toContain("emulator.ready");
  expect(await findRunning(dataDir)).toBeUndefined();
  expect(await stopDetached(dataDir)).toBeUndefined();
}, 60_000);

it("the CLI's --detach prints the ready line and returns; --stop stops it", async () => {
  const dataDir = path.join(root, "cli");
  const detach = await run(
    process.execPath,
    [cli, "--detach", "--port", "0", "--data-dir", dataDir],
    {
      env,
    },
  );
  const ready = JSON.parse(detach.stdout) as { adminUrl: string };
  const emu = await findRunning(dataDir);
  expect(emu).toBeDefined();
  started.push(emu!.pid);
  expect(emu!.adminUrl).toBe(ready.adminUrl);
  expect(Object.keys(ready)).toEqual(READY_LINE_KEYS);

  const again = run(process.execPath, [cli, "--detach", "--data-dir", dataDir], { env });
  await expect(again).rejects.toMatchObject({ stderr: expect.stringContaining("already runs") });

  const stop = await run(process.execPath, [cli, "--stop", "--data-dir", dataDir], { env });
  expect(stop.stderr).toContain(`stopped the emulator (process ${emu!.pid})`);
  expect(await findRunning(dataDir)).toBeUndefined();
}, 60_000);

it("leaves alone a data dir held by an emulator it did not start", async () => {
  const dataDir = path.join(root, "foreign");
  const emu = await startEmulator({ dataDir, port: 0, quiet: true });
  try {
    await expect(findRunning(dataDir)).rejects.toBeInstanceOf(DaemonError);
    await expect(stopDetached(dataDir)).rejects.toThrow(/leaving it alone/);
    await expect(fs.access(path.join(dataDir, DAEMON_FILE))).rejects.toThrow();
  } finally {
    await emu.close();
  }
}, 30_000);

it("reports an emulator that exits before its ready line, with its log", async () => {
  const dataDir = path.join(root, "refused");
  await expect(
    startDetached({ dataDir, cli, env, args: ["--cert", "only-a-cert.pem"] }),
  ).rejects.toThrow(/exited \(1\)[^]*--cert and --key must be given together/);
}, 30_000);

it("never signals a process that got the recorded emulator's pid after it ended, even with an emulator answering", async () => {
  const dataDir = path.join(root, "reused-pid");
  const emu = await startDetached({ dataDir, cli, env, args: ["--port", "0", "--quiet"] });
  started.push(emu.pid);
  const unrelated = spawn("sleep", ["60"], { stdio: "ignore" });
  started.push(unrelated.pid!);
  // What the data dir says once the pid is reused: the same files, naming the other process.
  const recordFile = path.join(dataDir, DAEMON_FILE);
  const record = JSON.parse(await fs.readFile(recordFile, "utf8")) as { pid: number };
  await fs.writeFile(recordFile, JSON.stringify({ ...record, pid: unrelated.pid }));
  await fs.writeFile(path.join(dataDir, "emulator.pid"), `${unrelated.pid}\n`);

  await expect(stopDetached(dataDir)).rejects.toThrow(/pid was reused/);
  expect(alive(unrelated.pid!)).toBe(true);

  unrelated.kill("SIGKILL");
  await fs.writeFile(recordFile, JSON.stringify(record));
  await fs.writeFile(path.join(dataDir, "emulator.pid"), `${emu.pid}\n`);
  expect(await stopDetached(dataDir)).toBe(emu.pid);
}, 60_000);

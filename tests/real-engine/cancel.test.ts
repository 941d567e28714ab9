/**
 * A pipeline cancelled during `npm start`, with the real engine: SIGINT to the whole process group
 * (a terminal's Ctrl-C) or SIGTERM to it (what a CI runner sends) right after createNewSite
 * reaches the emulator. The next `npm start` must finish by itself: the outputs, exactly one
 * createNewSite, and no pending operation left in state.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { run } from "../../tools/harness/process";
import { runTempDir } from "../../tools/harness/temp";
import * as qs from "../../scripts/quickstart.cjs";

jest.setTimeout(300_000);

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built emulator, as npm start loads it
const daemon = require("../../dist/emulator/index.js") as typeof import("../../emulator/index");

const START = path.join(REPO_ROOT, "scripts", "start.mjs");
const DESTROY = path.join(REPO_ROOT, "scripts", "destroy.mjs");

interface Setup {
  tmp: string;
  flags: string[];
  env: NodeJS.ProcessEnv;
  emulator: import("../../emulator/index").DetachedEmulator;
  stack: string;
}

const setups: Setup[] = [];

afterAll(async () => {
  for (const s of setups) {
    await run(process.execPath, [DESTROY, ...s.flags.slice(1)], {
      cwd: REPO_ROOT,
      env: s.env,
      timeoutMs: 150_000,
    }).catch(() => undefined);
    await daemon.stopDetached(s.emulator.dataDir).catch(() => undefined);
    fs.rmSync(s.tmp, { recursive: true, force: true });
    fs.rmSync(path.join(REPO_ROOT, `Pulumi.${s.stack}.yaml`), { force: true });
  }
});

/** A quick start whose emulator takes `createDelayMs` to create the site, started beforehand. */
async function setup(name: string, createDelayMs: number): Promise<Setup> {
  const tmp = fs.realpathSync(runTempDir(`cancel-${name}-`));
  const dataDir = path.join(tmp, "emulator");
  const emulator = await daemon.startDetached({
    dataDir,
    args: ["--port", "0", "--seed", qs.SEED_FILE, "--create-delay", String(createDelayMs)],
  });
  // A stack of its own: its config file (Pulumi.<stack>.yaml in the repository) is then not the
  // one another suite's `npm start` writes at the same time.
  const stack = `cancel-${name}`;
  const flags = [
    "--skip-build",
    "--stack",
    stack,
    "--port",
    "0",
    "--state-dir",
    path.join(tmp, "state"),
    "--data-dir",
    dataDir,
    "--download-dir",
    path.join(tmp, "downloads"),
  ];
  const env = {
    ...process.env,
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_HOME: path.join(tmp, "pulumi-home"),
  };
  const s = { tmp, flags, env, emulator, stack };
  setups.push(s);
  return s;
}

/** The emulator's counters (its control endpoint). */
function stats(s: Setup): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    https
      .get(
        `${s.emulator.adminUrl.replace(/\/arcgis\/admin$/, "")}/__emulator/stats`,
        { ca: fs.readFileSync(s.emulator.caCertFile!) },
        (res) => {
          let body = "";
          res.setEncoding("utf8").on("data", (c: string) => (body += c));
          res.on("end", () => resolve(JSON.parse(body) as Record<string, number>));
        },
      )
      .on("error", reject);
  });
}

/** `npm start` in a process group of its own, signalled as a whole once createNewSite arrived. */
async function startAndSignal(
  s: Setup,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [START, ...s.flags], {
    cwd: REPO_ROOT,
    env: s.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (output += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (output += c));
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  const deadline = Date.now() + 200_000;
  while ((await stats(s)).createNewSiteRequests === 0) {
    if (Date.now() > deadline || child.exitCode !== null) {
      throw new Error(`createNewSite never arrived:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(-child.pid!, signal);
  return { code: await closed, output };
}

/** The pending operations the stack's state holds. */
function pendingOperations(s: Setup): unknown[] {
  const stacks = path.join(s.tmp, "state", ".pulumi", "stacks");
  const files = fs
    .readdirSync(stacks, { recursive: true })
    .map(String)
    .filter((f) => path.basename(f) === `${s.stack}.json`);
  expect(files).toHaveLength(1);
  const state = JSON.parse(fs.readFileSync(path.join(stacks, files[0]!), "utf8")) as {
    checkpoint: { latest?: { pending_operations?: unknown[] } };
  };
  return state.checkpoint.latest?.pending_operations ?? [];
}

it.each(["SIGINT", "SIGTERM"] as const)(
  "%s to npm start's process group during the creation: the create finishes and is recorded; the next npm start completes with one createNewSite",
  async (signal) => {
    const s = await setup(signal.toLowerCase(), 4_000);
    const interrupted = await startAndSignal(s, signal);
    // Pulumi's own graceful cancel: the signal reached the CLI with the rest of the group.
    expect(interrupted.output).toContain(
      `${signal === "SIGINT" ? "^C" : signal} received; cancelling`,
    );
    expect(interrupted.output).not.toContain("received; terminating");
    expect(interrupted.code).not.toBe(0);
    expect(pendingOperations(s)).toEqual([]);

    const again = await run(process.execPath, [START, ...s.flags], {
      cwd: REPO_ROOT,
      env: s.env,
      timeoutMs: 150_000,
    });
    expect(again.stderr).not.toMatch(/npm start failed/);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/siteState\s*: "created"/);
    expect((await stats(s)).createNewSiteRequests).toBe(1);
    expect(pendingOperations(s)).toEqual([]);
  },
  300_000,
);

/** Waits until every process that holds the stack's lock is gone (an orphaned CLI ending). */
async function lockHoldersGone(s: Setup): Promise<void> {
  const locks = path.join(s.tmp, "state", ".pulumi", "locks");
  const deadline = Date.now() + 120_000;
  const holders = () =>
    fs.existsSync(locks)
      ? fs
          .readdirSync(locks, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith(".json"))
          .map(
            (f) =>
              (JSON.parse(fs.readFileSync(path.join(locks, f), "utf8")) as { pid: number }).pid,
          )
      : [];
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (holders().some(alive)) {
    if (Date.now() > deadline) throw new Error("the process holding the stack never ended");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The dynamic-provider hosts started for this setup's stack (their PULUMI_HOME is its own). */
function providerHostsOf(s: Setup): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes("dynamic-provider")) continue;
      const environ = fs.readFileSync(`/proc/${entry}/environ`, "utf8");
      if (environ.includes(`PULUMI_HOME=${s.env.PULUMI_HOME}`)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

it("SIGKILL of npm start's whole group during the creation: the next npm start completes with one createNewSite", async () => {
  const s = await setup("sigkill", 4_000);
  let hosts: number[] = [];
  const watching = setInterval(() => {
    if (hosts.length === 0) hosts = providerHostsOf(s);
  }, 100);
  const killed = await startAndSignal(s, "SIGKILL");
  clearInterval(watching);
  expect(killed.code).toBe(null);
  // What a killed run leaves: the stack locked by a process that is gone, the Site's create
  // pending. The next npm start recovers from both by itself.
  await lockHoldersGone(s);
  // The provider host of the killed engine does not stay behind: it ends once its parent is gone.
  expect(hosts.length).toBeGreaterThan(0);
  const deadline = Date.now() + 15_000;
  while (providerHostsOf(s).some((pid) => hosts.includes(pid)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(providerHostsOf(s).filter((pid) => hosts.includes(pid))).toEqual([]);
  expect(pendingOperations(s)).not.toEqual([]);
  // The killed create goes on on the server. The next npm start finishes the killed run with
  // Pulumi's commands (pulumi cancel, refresh --clear-pending-creates) and adopts that site.
  const again = await run(process.execPath, [START, ...s.flags], {
    cwd: REPO_ROOT,
    env: s.env,
    timeoutMs: 150_000,
  });
  expect(`${again.stdout}${again.stderr}`).not.toMatch(/npm start failed/);
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("was killed; finishing it with pulumi cancel and refresh");
  expect(again.stderr).toMatch(/\$ pulumi refresh --clear-pending-creates/);
  expect(again.stdout).toMatch(/siteState\s*: "adopted"/);
  expect((await stats(s)).createNewSiteRequests).toBe(1);
  expect(pendingOperations(s)).toEqual([]);
  // The quick start's backend writes no `.attrs` sidecar, the file a kill can leave empty (below).
  const stored = fs.readdirSync(path.join(s.tmp, "state"), { recursive: true }).map(String);
  expect(stored.filter((f) => f.endsWith(".json"))).not.toEqual([]);
  expect(stored.filter((f) => f.endsWith(".attrs"))).toEqual([]);
}, 300_000);

it("a file backend's .attrs sidecar left empty by a kill fails every command with Pulumi's 'failed to load checkpoint: EOF'; deleting it recovers the stack (docs/troubleshooting.md)", async () => {
  const tmp = fs.realpathSync(runTempDir("cancel-attrs-"));
  try {
    fs.writeFileSync(path.join(tmp, "Pulumi.yaml"), "name: attrs\nruntime: yaml\n");
    fs.mkdirSync(path.join(tmp, "state"));
    const cli = (await qs.resolvePulumiCli({ log: () => undefined })) as { command: string };
    const env = {
      ...process.env,
      // A plain file backend, as users log in to one.
      PULUMI_BACKEND_URL: `file://${path.join(tmp, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "attrs",
      PULUMI_HOME: path.join(tmp, "pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    const pulumi = (...args: string[]) =>
      run(cli.command, args, { cwd: tmp, env, timeoutMs: 60_000 });
    expect((await pulumi("stack", "init", "dev")).code).toBe(0);
    const sidecar = path.join(tmp, "state", ".pulumi", "stacks", "attrs", "dev.json.attrs");
    fs.truncateSync(sidecar); // what a CLI killed in setAttrs, between create and write, leaves
    const failed = await pulumi("stack", "select", "dev");
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain("failed to load checkpoint: EOF");
    fs.rmSync(sidecar);
    expect((await pulumi("stack", "select", "dev")).code).toBe(0);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}, 120_000);

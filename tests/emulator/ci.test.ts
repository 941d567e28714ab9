/**
 * The emulator in CI, with real processes: it stops when the wrapper that started it (`npm run`,
 * killed with SIGKILL as a cancelled CI job is) is gone, it writes `--ready-file`, and its log
 * lines carry each request's result.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { Harness, SITE_ADMIN } from "../../tools/harness/emulator-http";
import { runTempDir } from "../../tools/harness/temp";

const CLI = path.join(REPO_ROOT, "dist", "emulator", "cli.js");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, probe: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readIfExists(file: string): string | undefined {
  try {
    const text = fs.readFileSync(file, "utf8");
    return text.endsWith("\n") ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The emulator's pid, from the lock file of its data dir. */
function emulatorPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, "emulator.pid"), "utf8").trim().split(/\s/)[0]);
}

const children: ChildProcess[] = [];
const pids: number[] = [];

afterAll(() => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("under npm run", () => {
  async function startUnderNpmRun(extraFlags: string[]) {
    const project = runTempDir("emu-npm-run-");
    const dataDir = path.join(project, "data");
    const readyFile = path.join(project, "ready.json");
    const command = [CLI, "--data-dir", dataDir, "--ready-file", readyFile, ...extraFlags]
      .map((a) => JSON.stringify(a))
      .join(" ");
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "ci", version: "0.0.0", scripts: { emulator: `node ${command}` } }),
    );
    const npmCli = process.env.npm_execpath;
    const [cmd, args] =
      npmCli !== undefined && npmCli.endsWith(".js")
        ? [process.execPath, [npmCli]]
        : ["npm", [] as string[]];
    const npm = spawn(cmd, [...args, "run", "-s", "emulator"], {
      cwd: project,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
      },
    });
    children.push(npm);
    const ready = await until("the ready file", () => readIfExists(readyFile));
    const pid = emulatorPid(dataDir);
    pids.push(pid);
    return { npm, ready, readyFile, pid };
  }

  it("writes the ready line to --ready-file, and stops when npm is killed (SIGKILL)", async () => {
    const { npm, ready, readyFile, pid } = await startUnderNpmRun([]);
    expect(JSON.parse(ready)).toMatchObject({
      adminUrl: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin$/),
      serverType: "mission-server",
    });
    expect(pid).not.toBe(npm.pid);
    expect(alive(pid)).toBe(true);

    npm.kill("SIGKILL");
    await until("the emulator to stop", () => (alive(pid) ? undefined : true), 15_000);
    // A stopped emulator leaves no ready file announcing a dead port.
    expect(fs.existsSync(readyFile)).toBe(false);
  }, 60_000);

  it("keeps running after npm is killed with --no-exit-with-parent", async () => {
    const { npm, pid } = await startUnderNpmRun(["--no-exit-with-parent"]);
    npm.kill("SIGKILL");
    await new Promise((r) => setTimeout(r, 3000));
    expect(alive(pid)).toBe(true);
    process.kill(pid, "SIGTERM");
    await until("the emulator to stop", () => (alive(pid) ? undefined : true), 15_000);
  }, 60_000);
});

describe("log lines", () => {
  it("carry the HTTP status and the error code of an error document", async () => {
    const lines: string[] = [];
    const h = await Harness.start({ createDelayMs: 0, quiet: false, log: (l) => lines.push(l) });
    try {
      await h.adminGet("/?f=json");
      await h.createSite();
      await h.admin("generateToken", { ...SITE_ADMIN, password: "wrong-password-1" });
      await h.admin("generateToken", SITE_ADMIN);
      await until("four request lines", () =>
        lines.filter((l) => l.includes(" -> ")).length >= 4 ? true : undefined,
      );
      const requests = lines
        .filter((l) => l.includes(" -> "))
        .map((l) => l.replace(/^arcgis-admin-emulator: /, "").replace(/ \(\d+ ms\)$/, ""));
      expect(requests).toEqual([
        "GET /arcgis/admin -> HTTP 200, error code 500",
        "POST /arcgis/admin/createNewSite -> HTTP 200",
        "POST /arcgis/admin/generateToken -> HTTP 200, error code 400",
        "POST /arcgis/admin/generateToken -> HTTP 200",
      ]);
    } finally {
      await h.close();
    }
  });
});

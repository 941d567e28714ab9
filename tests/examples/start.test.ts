/**
 * `npm start` and `npm run destroy` (scripts/start.mjs, scripts/destroy.mjs) when no Pulumi CLI
 * can be had (none installed, no Go to build the engine with, nothing in the engine cache): both
 * stop at once, non-zero, saying how to get one, having started and written nothing. And how the
 * CLI is found. The real flow, with the real engine, is tests/real-engine/start.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DAEMON_FILE } from "../../emulator/process/daemon";
import { REPO_ROOT } from "../../tools/harness/project";
import { run } from "../../tools/harness/process";
import { runTempDir } from "../../tools/harness/temp";
import * as qs from "../../scripts/quickstart.cjs";

const START = path.join(REPO_ROOT, "scripts", "start.mjs");
const DESTROY = path.join(REPO_ROOT, "scripts", "destroy.mjs");
const INSTALL_URL = "https://www.pulumi.com/docs/install/";

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

let tmp: string;

/**
 * Runs a script, ended after a bound that a build or a deploy would outlast: a script that
 * waited for either ends killed (no exit code), which is how "at once" is told here, not by a
 * duration a loaded machine could stretch.
 */
async function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Result> {
  const { code, stdout, stderr } = await run(process.execPath, [script, ...args], {
    cwd: REPO_ROOT,
    env,
    timeoutMs: 30_000,
  });
  return { code, stdout, stderr };
}

/**
 * An environment whose PATH holds only `dirs` (so neither `pulumi` nor `go` can be found), with
 * an empty engine cache.
 */
function envWithPath(...dirs: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.toUpperCase() === "PATH") delete env[key];
  delete env.GOROOT;
  const cache = path.join(tmp, "empty-engine-cache");
  return { ...env, PATH: dirs.join(path.delimiter), ARCGIS_ADMIN_ENGINE_CACHE: cache };
}

beforeAll(() => {
  tmp = fs.realpathSync(runTempDir("quickstart-start-"));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("without a Pulumi CLI", () => {
  it.each([
    ["npm start", START],
    ["npm run destroy", DESTROY],
  ])(
    "%s stops at once, non-zero, says how to install it, and starts nothing",
    async (what, script) => {
      const emptyBin = path.join(tmp, `empty-bin-${path.basename(script)}`);
      fs.mkdirSync(emptyBin);
      const dirs = ["state", "data", "downloads"].map((d) => path.join(tmp, `nocli-${what}-${d}`));
      const result = await runScript(
        script,
        ["--state-dir", dirs[0]!, "--data-dir", dirs[1]!, "--download-dir", dirs[2]!],
        envWithPath(emptyBin),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${what} needs the Pulumi CLI`);
      expect(result.stderr).toContain(INSTALL_URL);
      // Not npm's `pulumi` package: it downloads the CLI on first use, which fails offline.
      expect(result.stderr).not.toContain("npm install -g pulumi");
      expect(result.stderr).toContain("nothing was deployed");
      expect(result.stderr).toContain("no Go to build the engine with");
      expect(result.stdout).toBe("");
      for (const dir of dirs) expect(fs.existsSync(dir)).toBe(false);
    },
  );

  it("npm start with the default paths writes no state and starts no emulator", async () => {
    const { stateDir, dataDir } = qs.defaultPaths();
    const watched = [
      stateDir,
      path.join(dataDir, "emulator.pid"),
      path.join(dataDir, "state.json"),
    ];
    const before = watched.map((f: string) => fs.existsSync(f) && fs.statSync(f).mtimeMs);
    const emptyBin = path.join(tmp, "empty-bin-defaults");
    fs.mkdirSync(emptyBin);
    const result = await runScript(START, [], envWithPath(emptyBin));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(INSTALL_URL);
    expect(watched.map((f: string) => fs.existsSync(f) && fs.statSync(f).mtimeMs)).toEqual(before);
  });

  it("package.json runs these scripts", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(manifest.scripts.start).toBe("node scripts/start.mjs");
    expect(manifest.scripts.destroy).toBe("node scripts/destroy.mjs");
  });
});

describe("finding the Pulumi CLI", () => {
  it("takes `pulumi` from PATH, skipping files that are not executable", () => {
    const notExecutable = path.join(tmp, "find-a");
    const executable = path.join(tmp, "find-b");
    fs.mkdirSync(notExecutable);
    fs.mkdirSync(executable);
    fs.writeFileSync(path.join(notExecutable, "pulumi"), "not a program");
    fs.writeFileSync(path.join(executable, "pulumi"), "#!/bin/sh\n", { mode: 0o755 });
    const cli = qs.findPulumiCli({
      env: { PATH: [notExecutable, executable].join(path.delimiter) },
    });
    expect(cli).toMatchObject({ command: path.join(executable, "pulumi") });
  });

  it("finds nothing when there is none", () => {
    expect(qs.findPulumiCli({ env: { PATH: "" } })).toBeUndefined();
  });
});

describe("the emulator between npm start and npm run destroy", () => {
  it("is started, found, stopped and its data removed through the emulator's daemon module", async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, "dist", "emulator", "index.js"))) {
      throw new Error("dist/ is missing: run `npm run build` first (npm test does).");
    }
    expect(qs.EMULATOR_RECORD).toBe(DAEMON_FILE);
    const dataDir = path.join(tmp, "background");
    const emulator = await qs.startEmulatorInBackground({ dataDir, port: 0 });
    let stopped = false;
    try {
      expect(await qs.daemon().findRunning(dataDir)).toEqual(emulator);
      // Seeded as the quick start's stack config expects.
      const { plain } = qs.stackConfig(emulator, { downloadDir: tmp });
      expect(plain["arcgis-admin:adminUrl"]).toBe(emulator.adminUrl);
      expect(plain.portalId).toBe(qs.readSeed().portal.id);
      expect(await qs.daemon().stopDetached(dataDir)).toBe(emulator.pid);
      stopped = true;
      expect(await qs.daemon().findRunning(dataDir)).toBeUndefined();
      expect(qs.removeEmulatorData(dataDir)).toBe(true);
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally {
      // Only when the test failed half-way: the emulator outlives this process otherwise.
      if (!stopped) process.kill(emulator.pid, "SIGKILL");
    }
  }, 60_000);
});

describe("what npm start and npm run destroy do to their surroundings", () => {
  it("destroy removes only the emulator's own files from an operator's data dir, and keeps the dir", async () => {
    const dataDir = path.join(tmp, "operator-dir");
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, "notes.txt"), "the operator's own file");
    fs.writeFileSync(path.join(dataDir, "20261101-backup.agssite"), "a downloaded backup");
    const emulator = await qs.startEmulatorInBackground({ dataDir, port: 0 });
    try {
      expect(await qs.daemon().stopDetached(dataDir)).toBe(emulator.pid);
    } catch (error) {
      process.kill(emulator.pid, "SIGKILL");
      throw error;
    }
    expect(qs.removeEmulatorData(dataDir)).toBe(true);
    expect(fs.readdirSync(dataDir).sort()).toEqual(["20261101-backup.agssite", "notes.txt"]);
  }, 60_000);

  it("keeps the emulator's loopback traffic away from a proxy set for the internet", () => {
    const env = qs.pulumiEnv(
      { stateDir: path.join(tmp, "state") },
      { PATH: "/usr/bin", HTTPS_PROXY: "http://proxy.example.com:3128", NO_PROXY: "corp.example" },
    ) as NodeJS.ProcessEnv;
    for (const key of ["NO_PROXY", "no_proxy"]) {
      expect(env[key]!.split(",")).toEqual(
        expect.arrayContaining(["corp.example", "127.0.0.1", "localhost"]),
      );
    }
  });
});

/**
 * `npm start` and `npm run destroy` (scripts/start.mjs, scripts/destroy.mjs) without the real
 * Pulumi CLI, which cannot be installed here:
 * - with no CLI at all, both stop at once, non-zero, saying how to install one, having started
 *   and written nothing;
 * - with a fake `pulumi` on PATH (a script that records its arguments, stdin, cwd and
 *   environment), the exact command sequence, the background emulator (started, reused, stopped)
 *   and the failure paths.
 * The emulator is the real one (dist/emulator/cli.js, so dist/ must be built: `npm test` does),
 * on a free port, with every directory in a temporary folder.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../engine/harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const qs = require("../../scripts/quickstart.cjs");

const START = path.join(REPO_ROOT, "scripts", "start.mjs");
const DESTROY = path.join(REPO_ROOT, "scripts", "destroy.mjs");
const INSTALL_URL = "https://www.pulumi.com/docs/install/";

interface Call {
  args: string[];
  stdin: string | null;
  cwd: string;
  backend: string | undefined;
  passphrase: string | undefined;
  firstOnPath: string;
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

let tmp: string;

function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** An environment whose PATH holds only `dirs` (so no real `pulumi` can be found). */
function envWithPath(...dirs: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.toUpperCase() === "PATH") delete env[key];
  return { ...env, PATH: dirs.join(path.delimiter) };
}

/** Writes a fake `pulumi` into `dir`: it logs each call as a JSON line to `log`. */
function writeFakePulumi(dir: string, log: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const script = path.join(dir, "fake-pulumi.js");
  fs.writeFileSync(
    script,
    `const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
const secret = args[0] === "config" && args[1] === "set" && args.includes("--secret");
const stdin = secret ? fs.readFileSync(0, "utf8") : null;
const call = {
  args, stdin, cwd: process.cwd(),
  backend: process.env.PULUMI_BACKEND_URL,
  passphrase: process.env.PULUMI_CONFIG_PASSPHRASE,
  firstOnPath: (process.env.PATH || "").split(path.delimiter)[0],
};
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(call) + "\\n");
const failOn = process.env.FAKE_PULUMI_FAIL_ON;
if (failOn && args.join(" ").startsWith(failOn)) {
  console.error("fake pulumi: failing " + failOn);
  process.exit(3);
}
if (args[0] === "version") console.log("v3.999.0-fake");
if (args[0] === "stack" && args[1] === "output") {
  console.log(JSON.stringify({ siteAdminUrl: "https://127.0.0.1/arcgis/admin", siteState: "created" }));
}
if (args[0] === "stack" && args[1] === "ls") {
  const resourceCount = Number(process.env.FAKE_PULUMI_RESOURCES ?? "4");
  console.log(JSON.stringify([{ name: "quickstart", current: true, resourceCount }]));
}
`,
  );
  const shim = path.join(dir, "pulumi");
  fs.writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${script}" "$@"\n`);
  fs.chmodSync(shim, 0o755);
}

function readCalls(log: string): Call[] {
  if (!fs.existsSync(log)) return [];
  return fs
    .readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Call);
}

/** Whether a process runs (an exited one that init has not reaped yet does not count). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Linux: /proc/<pid>/stat is "pid (comm) state ...", and state Z is a zombie.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "quickstart-start-")));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("without a Pulumi CLI", () => {
  beforeAll(() => {
    const installed = qs.findPulumiCli({ env: { PATH: "" } });
    if (installed !== undefined) {
      throw new Error(`these tests need the pulumi npm package absent, found ${installed.source}`);
    }
  });

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
      expect(result.ms).toBeLessThan(3000);
      expect(result.stderr).toContain(`${what} needs the Pulumi CLI`);
      expect(result.stderr).toContain(INSTALL_URL);
      expect(result.stderr).toContain("npm install -g pulumi");
      expect(result.stderr).toContain("nothing was deployed");
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
      resolveFrom: tmp,
    });
    expect(cli).toMatchObject({ command: path.join(executable, "pulumi"), prefix: [] });
  });

  it("else runs the bin of the pulumi npm package with this Node", () => {
    const project = path.join(tmp, "find-npm");
    const pkg = path.join(project, "node_modules", "pulumi");
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "pulumi", version: "3.265.0", bin: { pulumi: "run.js" } }),
    );
    fs.writeFileSync(path.join(pkg, "run.js"), "");
    const cli = qs.findPulumiCli({ env: { PATH: "" }, resolveFrom: project });
    expect(cli).toMatchObject({ command: process.execPath, prefix: [path.join(pkg, "run.js")] });
    expect(cli.source).toContain("pulumi npm package 3.265.0");
  });

  it("finds nothing when neither is there", () => {
    expect(qs.findPulumiCli({ env: { PATH: "" }, resolveFrom: tmp })).toBeUndefined();
  });
});

describe("with a (fake) Pulumi CLI on PATH", () => {
  let fakeBin: string;
  let log: string;
  let dirs: { state: string; data: string; downloads: string };
  let flags: string[];
  let emulatorPid: number | undefined;

  const env = (extra: Record<string, string> = {}) => ({
    ...envWithPath(fakeBin, ...(process.env.PATH ?? "").split(path.delimiter)),
    ...extra,
  });
  const record = () =>
    JSON.parse(fs.readFileSync(path.join(dirs.data, qs.EMULATOR_RECORD), "utf8")) as {
      pid: number;
      ready: { adminUrl: string; sharingUrl: string; caCertFile: string; portalId: string };
    };

  beforeAll(() => {
    fakeBin = path.join(tmp, "fake-bin");
    log = path.join(tmp, "pulumi-calls.jsonl");
    writeFakePulumi(fakeBin, log);
    dirs = {
      state: path.join(tmp, "state"),
      data: path.join(tmp, "emulator"),
      downloads: path.join(tmp, "downloads"),
    };
    flags = [
      "--skip-build",
      "--port",
      "0",
      "--state-dir",
      dirs.state,
      "--data-dir",
      dirs.data,
      "--download-dir",
      dirs.downloads,
    ];
  });

  beforeEach(() => fs.rmSync(log, { force: true }));

  afterAll(() => {
    // Only if a test failed half-way: stop the emulator the script started (by its pid).
    if (emulatorPid !== undefined && processAlive(emulatorPid)) process.kill(emulatorPid);
  });

  it("npm start: emulator in the background, then the exact Pulumi command sequence", async () => {
    const result = await runScript(START, flags, env());
    expect(result.stderr).not.toMatch(/npm start failed/);
    expect(result.code).toBe(0);

    const { pid, ready } = record();
    emulatorPid = pid;
    expect(processAlive(pid)).toBe(true);
    expect(result.stderr).toContain(`Started the emulator (process ${pid}) at ${ready.adminUrl}`);
    const caCert = fs.readFileSync(ready.caCertFile, "utf8");

    const calls = readCalls(log);
    const secrets = {
      siteAdminPassword: qs.SITE_ADMIN.password,
      portalAdminPassword: "quickstart-Portal-1",
    };
    expect(calls.map((c) => c.args)).toEqual([
      ["version"],
      ["stack", "select", "--create", "quickstart"],
      [
        "config",
        "set-all",
        "--stack",
        "quickstart",
        ...Object.entries({
          adminUrl: ready.adminUrl,
          sharingUrl: ready.sharingUrl,
          portalId: ready.portalId,
          siteAdminUsername: "siteadmin",
          portalAdminUsername: "portaladmin",
          collaborationId: "quickstart-partners",
          downloadDir: dirs.downloads,
          caCert,
        }).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      ],
      ["config", "set", "--stack", "quickstart", "--secret", "siteAdminPassword"],
      ["config", "set", "--stack", "quickstart", "--secret", "portalAdminPassword"],
      ["up", "--yes", "--stack", "quickstart"],
      ["stack", "output", "--json", "--stack", "quickstart"],
    ]);
    // Secrets travel through stdin, never as arguments.
    expect(calls[3]!.stdin).toBe(secrets.siteAdminPassword);
    expect(calls[4]!.stdin).toBe(secrets.portalAdminPassword);
    for (const pw of Object.values(secrets)) {
      expect(calls.some((c) => c.args.some((a) => a.includes(pw)))).toBe(false);
    }
    for (const call of calls) {
      expect(call).toMatchObject({
        cwd: REPO_ROOT,
        backend: `file://${dirs.state}`,
        passphrase: qs.DEMO_PASSPHRASE,
        firstOnPath: path.dirname(process.execPath),
      });
    }
    expect(fs.statSync(dirs.state).isDirectory()).toBe(true);
    expect(result.stdout).toContain("Quick start deployed. Stack outputs:");
    expect(result.stdout).toContain("siteState: created");
    expect(fs.realpathSync(path.join(REPO_ROOT, "node_modules", "pulumi-arcgis-admin"))).toBe(
      fs.realpathSync(REPO_ROOT),
    );
  });

  it("npm start again: reuses the running emulator and repeats the sequence", async () => {
    const before = record();
    const result = await runScript(START, flags, env());
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Reusing the emulator (process ${before.pid})`);
    expect(record()).toEqual(before);
    const calls = readCalls(log).map((c) => c.args.slice(0, 2).join(" "));
    expect(calls).toEqual([
      "version",
      "stack select",
      "config set-all",
      "config set",
      "config set",
      "up --yes",
      "stack output",
    ]);
  });

  it("stops with a non-zero exit and no outputs when pulumi up fails", async () => {
    const result = await runScript(START, flags, env({ FAKE_PULUMI_FAIL_ON: "up" }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("npm start failed: `pulumi up --yes` failed (exit 3)");
    expect(result.stdout).not.toContain("deployed");
    expect(readCalls(log).at(-1)!.args[0]).toBe("up");
  });

  it("stops before building or starting anything when the CLI does not run", async () => {
    const data = path.join(tmp, "broken-cli-emulator");
    const result = await runScript(
      START,
      ["--port", "0", "--state-dir", path.join(tmp, "broken-cli-state"), "--data-dir", data],
      env({ FAKE_PULUMI_FAIL_ON: "version" }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("does not run (`pulumi version` exited 3)");
    expect(result.stderr).toContain(INSTALL_URL);
    expect(result.stderr).not.toContain("npm run build");
    expect(fs.existsSync(data)).toBe(false);
    expect(readCalls(log).map((c) => c.args)).toEqual([["version"]]);
  });

  it("npm run destroy: pulumi destroy, then stops the emulator and removes its data", async () => {
    const { pid } = record();
    const result = await runScript(DESTROY, flags.slice(1), env());
    expect(result.stderr).not.toMatch(/destroy failed/);
    expect(result.code).toBe(0);
    expect(readCalls(log).map((c) => c.args)).toEqual([
      ["stack", "ls", "--json"],
      ["destroy", "--yes", "--stack", "quickstart"],
    ]);
    expect(processAlive(pid)).toBe(false);
    expect(fs.existsSync(dirs.data)).toBe(false);
    expect(result.stdout).toContain("Quick start destroyed");
  });

  it("npm run destroy again: an empty stack needs no emulator and no destroy", async () => {
    const result = await runScript(DESTROY, flags.slice(1), env({ FAKE_PULUMI_RESOURCES: "0" }));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("No resources in stack quickstart");
    expect(result.stderr).not.toContain("emulator");
    expect(readCalls(log).map((c) => c.args)).toEqual([["stack", "ls", "--json"]]);
    expect(fs.existsSync(dirs.data)).toBe(false);
  });
});

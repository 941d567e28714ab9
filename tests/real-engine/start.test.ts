/**
 * `npm start` and `npm run destroy` (scripts/start.mjs, scripts/destroy.mjs) with the real
 * engine: the quick start deployed by a real `pulumi up` against the background emulator, a
 * second start that changes nothing, a destroy that leaves no resource and no emulator process,
 * and a second destroy with nothing to do. Every folder is a temporary one; the engine is the one
 * toolchain/engine.cjs built (no `pulumi` on PATH here).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { run } from "../../tools/harness/process";
import { countingCli as countingPulumi } from "../../tools/harness/counting-cli";
import { runTempDir } from "../../tools/harness/temp";
import * as qs from "../../scripts/quickstart.cjs";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const START = path.join(REPO_ROOT, "scripts", "start.mjs");
const DESTROY = path.join(REPO_ROOT, "scripts", "destroy.mjs");

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

let tmp: string;
let flags: string[];
let env: NodeJS.ProcessEnv;
let emulatorPid: number | undefined;

async function runScript(script: string, args: string[]): Promise<Result> {
  const { code, stdout, stderr } = await run(process.execPath, [script, ...args], {
    cwd: REPO_ROOT,
    env,
    timeoutMs: 150_000,
  });
  return { code, stdout, stderr };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
}

/** npm start's flags for folders of its own under tmp (`suffix` tells two sets apart). */
function startFlags(suffix: string): string[] {
  return [
    "--skip-build",
    "--port",
    "0",
    "--state-dir",
    path.join(tmp, `state${suffix}`),
    "--data-dir",
    path.join(tmp, `emulator${suffix}`),
    "--download-dir",
    path.join(tmp, `downloads${suffix}`),
  ];
}

beforeAll(() => {
  tmp = fs.realpathSync(runTempDir("quickstart-real-"));
  flags = startFlags("");
  env = {
    ...process.env,
    PATH: [path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_HOME: path.join(tmp, "pulumi-home"),
  };
  expect(qs.findPulumiCli({ env })).toBeUndefined();
});

afterAll(() => {
  // Only if a test failed half-way: stop the emulator the script started (by its pid).
  if (emulatorPid !== undefined && processAlive(emulatorPid)) process.kill(emulatorPid);
  fs.rmSync(tmp, { recursive: true, force: true });
});

it("npm start deploys the quick start with a real `pulumi up` and prints its outputs", async () => {
  const result = await runScript(START, flags);
  expect(result.stderr).not.toMatch(/npm start failed/);
  expect(result.code).toBe(0);
  expect(result.stderr).toMatch(
    /Pulumi CLI: .*\(the Pulumi engine v[\d.]+ built by toolchain\/engine\.cjs\)/,
  );
  // The engine's own output, then the summary.
  expect(result.stdout).toContain("Updating (quickstart):");
  expect(result.stdout).toMatch(/\+ 4 created/);
  expect(result.stdout).toMatch(/Outputs:\n/);
  expect(result.stdout).toMatch(/siteState\s*: "created"/);
  expect(result.stdout).toMatch(/collaborationName\s*: "Quick start partners"/);
  const record = JSON.parse(
    fs.readFileSync(path.join(tmp, "emulator", qs.EMULATOR_RECORD), "utf8"),
  ) as { pid: number };
  emulatorPid = record.pid;
  expect(processAlive(record.pid)).toBe(true);
  expect(result.stdout + result.stderr).not.toContain(qs.SITE_ADMIN.password);
}, 200_000);

/** The counting `pulumi` (tools/harness/counting-cli.ts) in front of the engine the first start used. */
async function countingCli(): Promise<{ env: NodeJS.ProcessEnv; commands: () => string[] }> {
  const cli = (await qs.resolvePulumiCli({ env, log: () => undefined })) as { command: string };
  const counting = countingPulumi(tmp, cli.command);
  return { env: { ...env, PATH: [counting.bin, env.PATH].join(path.delimiter) }, ...counting };
}

it("npm start again reuses the emulator and finds nothing to change, with the commands a user would type", async () => {
  const counting = await countingCli();
  const result = await run(process.execPath, [START, ...flags], {
    cwd: REPO_ROOT,
    env: counting.env,
    timeoutMs: 150_000,
  });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(`Reusing the emulator (process ${emulatorPid})`);
  expect(result.stdout).toMatch(/4 unchanged/);
  expect(result.stdout).not.toMatch(/[+~-] \d+ (created|updated|deleted|replaced)/);
  expect(result.stdout).toMatch(/collaborationName\s*: "Quick start partners"/);
  // The passwords are in the stack's config already; the plain values go with `up` (`--config`).
  // No killed run to finish: nothing else runs.
  expect(counting.commands()).toEqual(["stack select", "up --yes"]);
  const stackConfig = path.join(REPO_ROOT, "Pulumi.quickstart.yaml");
  expect(fs.readFileSync(stackConfig, "utf8")).toMatch(/arcgis-admin:adminUrl: https:/);
}, 300_000);

it("npm run destroy destroys everything and stops the emulator; a second destroy has nothing to do", async () => {
  const counting = await countingCli();
  const destroyed = await run(process.execPath, [DESTROY, ...flags.slice(1)], {
    cwd: REPO_ROOT,
    env: counting.env,
    timeoutMs: 150_000,
  });
  expect(destroyed.stderr).not.toMatch(/destroy failed/);
  expect(destroyed.code).toBe(0);
  expect(destroyed.stdout).toMatch(/- 4 deleted/);
  // `stack ls` tells whether the stack holds resources (else no emulator is needed).
  expect(counting.commands()).toEqual(["stack ls", "destroy --yes"]);
  expect(destroyed.stdout).toContain("Quick start destroyed");
  expect(processAlive(emulatorPid!)).toBe(false);
  expect(fs.existsSync(path.join(tmp, "emulator"))).toBe(false);

  const again = await runScript(DESTROY, flags.slice(1));
  expect(again.code).toBe(0);
  expect(again.stderr).toContain("No resources in stack quickstart");
  expect(again.stdout).not.toMatch(/deleted/);
}, 200_000);

it("a first npm start of a new stack sets its two secrets on stdin, then `pulumi up`", async () => {
  const counting = await countingCli();
  const stack = "quickstart-new";
  const newFlags = [...startFlags("-new"), "--stack", stack];
  const stackConfig = path.join(REPO_ROOT, `Pulumi.${stack}.yaml`);
  try {
    const result = await run(process.execPath, [START, ...newFlags], {
      cwd: REPO_ROOT,
      env: counting.env,
      timeoutMs: 150_000,
    });
    expect(result.stderr).not.toMatch(/npm start failed/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\+ 4 created/);
    // The secrets on stdin, one `config set` each; the plain config with `up` (`--config`); a
    // stack created now has no killed run to finish (no `stack export`).
    expect(counting.commands()).toEqual(["stack select", "config set", "config set", "up --yes"]);
    const file = fs.readFileSync(stackConfig, "utf8");
    expect(file).toMatch(/arcgis-admin:password:\n\s+secure: v1:/);
    expect(file).toMatch(/arcgis-admin:portalPassword:\n\s+secure: v1:/);
    expect(file).not.toContain(qs.SITE_ADMIN.password);
  } finally {
    const destroyed = await run(process.execPath, [DESTROY, ...newFlags.slice(1)], {
      cwd: REPO_ROOT,
      env,
      timeoutMs: 150_000,
    });
    fs.rmSync(stackConfig, { force: true });
    expect(destroyed.code).toBe(0);
  }
}, 300_000);

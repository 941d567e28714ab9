/**
 * scripts/pulumi-driver.cjs creating a new stack: `stack init` and the config commands run in one
 * shell started before the automation API loads. What that must keep: every value set exactly,
 * no secret on any command line, a failing command reported with the CLI's own message, and a
 * cancel that lets the command in flight finish and starts no further one.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RealStack, type RunResult } from "./support";

jest.setTimeout(180_000);

/** The program: each secret's SHA-256 (not the secret) and the plain value, as outputs. */
const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const crypto = require("node:crypto");
module.exports = () => {
  const config = new pulumi.Config();
  const out = { plain: config.require("plainValue") };
  for (const key of JSON.parse(config.require("secretKeys"))) {
    out[key] = pulumi.unsecret(config.requireSecret(key)).apply((v) => crypto.createHash("sha256").update(v).digest("hex"));
  }
  return out;
};
`;

let stack: RealStack;
let programDir: string;
/** The stacks of the tests (each with its own state folder), removed after the suite. */
const stacks: RealStack[] = [];

beforeAll(async () => {
  programDir = fs.mkdtempSync(path.join(os.tmpdir(), "driver-program-"));
  fs.writeFileSync(path.join(programDir, "index.cjs"), PROGRAM);
  stack = await RealStack.create("driver", undefined, { dir: programDir, entry: "index.cjs" });
});

afterAll(() => {
  fs.rmSync(programDir, { recursive: true, force: true });
  for (const s of [stack, ...stacks]) {
    if (s !== undefined) fs.rmSync(s.tmp, { recursive: true, force: true });
  }
});

/**
 * An engine root whose `pulumi` logs each command line (all its arguments) and then runs the real
 * one; the launcher is the real engine's.
 */
function recordingEngine(dir: string): { root: string; commands: () => string[] } {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin, { recursive: true });
  const log = path.join(dir, "commands.log");
  fs.writeFileSync(
    path.join(bin, "pulumi"),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${stack.engineInfo.bin}' "$@"\n`,
    { mode: 0o755 },
  );
  fs.copyFileSync(
    path.join(stack.engineInfo.root, "bin", "pulumi-resource-pulumi-nodejs"),
    path.join(bin, "pulumi-resource-pulumi-nodejs"),
  );
  fs.chmodSync(path.join(bin, "pulumi-resource-pulumi-nodejs"), 0o755);
  return {
    root: dir,
    commands: () =>
      fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : [],
  };
}

/**
 * Runs `up` through the driver for a new stack `name` (its own state folder, the suite's consumer
 * project), with the CLI of `engineRoot`; `onSpawn` may signal the driver.
 */
async function runDriver(
  name: string,
  engineRoot: string,
  config: Record<string, { value: string; secret?: boolean }>,
  onSpawn?: (pid: number) => void,
): Promise<RunResult> {
  const fresh = await RealStack.create(name, stack.consumer, {
    dir: programDir,
    entry: "index.cjs",
  });
  stacks.push(fresh);
  return fresh.run("up", { config, engineRoot, ...(onSpawn === undefined ? {} : { onSpawn }) });
}

const sha256 = (v: string): string => crypto.createHash("sha256").update(v).digest("hex");

it("sets every secret of a new stack exactly, more than the shell's seven pipes too, and none reaches a command line", async () => {
  const engine = recordingEngine(fs.mkdtempSync(path.join(stack.tmp, "engine-")));
  // Values a shell would change if one were ever in its script: quotes, $, a leading dash,
  // spaces, a backslash, a newline inside.
  const secrets = Array.from({ length: 10 }, (_, i) => [
    `secret${i}`,
    `-v${i} 'q' "d" $HOME \\x ${crypto.randomBytes(6).toString("hex")}\nline2`,
  ]);
  const config: Record<string, { value: string; secret?: boolean }> = {
    plainValue: { value: "plain value $HOME 'q'" },
    secretKeys: { value: JSON.stringify(secrets.map(([k]) => k)) },
  };
  for (const [k, v] of secrets) config[k!] = { value: v!, secret: true };

  const result = await runDriver("many-secrets", engine.root, config);
  expect(result.error).toBeUndefined();
  expect(result.ok).toBe(true);
  expect(result.outputs?.plain).toBe("plain value $HOME 'q'");
  for (const [k, v] of secrets) expect(result.outputs?.[k!]).toBe(sha256(v!));

  const commands = engine.commands();
  expect(
    commands.slice(0, secrets.length + 2).map((c) => c.split(" ").slice(0, 2).join(" ")),
  ).toEqual(["stack init", ...secrets.map(() => "config set"), "up --yes"]);
  const all = commands.join("\n");
  for (const [, v] of secrets) {
    expect(all).not.toContain(v!.split("\n")[0]!.slice(-12));
  }
  const stackConfig = fs.readFileSync(
    path.join(stack.consumer.dir, "Pulumi.many-secrets.yaml"),
    "utf8",
  );
  for (const [, v] of secrets) expect(stackConfig).not.toContain(v!.split("\n")[0]!.slice(-12));
  expect(stackConfig.match(/secure:/g)?.length).toBe(secrets.length);
});

it("reports a failing `stack init` with the CLI's own message", async () => {
  const engine = recordingEngine(fs.mkdtempSync(path.join(stack.tmp, "engine-")));
  const result = await runDriver("not a stack name!", engine.root, {
    plainValue: { value: "x" },
    secretKeys: { value: "[]" },
    secret0: { value: "never-set-anywhere", secret: true },
  });
  expect(result.ok).toBe(false);
  expect(result.error).toMatch(/^pulumi stack init failed \(exit \d+\): /);
  expect(result.error).toContain("a stack name may only contain");
  expect(result.error).not.toContain("__PULUMI_DRIVER_FAILED__");
  // Nothing after the failed command.
  expect(engine.commands().map((c) => c.split(" ").slice(0, 2).join(" "))).toEqual(["stack init"]);
});

it("on a cancel while the stack is created, lets the command in flight finish, starts no further one and no `up`", async () => {
  const engine = recordingEngine(fs.mkdtempSync(path.join(stack.tmp, "engine-")));
  const log = path.join(engine.root, "commands.log");
  const config: Record<string, { value: string; secret?: boolean }> = {
    plainValue: { value: "x" },
    secretKeys: { value: "[]" },
  };
  for (let i = 0; i < 7; i++) config[`secret${i}`] = { value: `never-set-${i}`, secret: true };
  const result = await runDriver("cancelled", engine.root, config, (pid) => {
    // SIGINT (Ctrl-C) once `stack init` has started. The driver's thread takes it once the
    // automation API has loaded (a `require` blocks it meanwhile): during `stack init` or one of
    // the first config commands.
    const poll = setInterval(() => {
      if (fs.existsSync(log)) {
        clearInterval(poll);
        process.kill(pid, "SIGINT");
      }
    }, 5);
  });
  expect(result.ok).toBe(false);
  expect(result.error).toContain("cancelled before the stack's config was set");
  const started = engine.commands().map((c) => c.split(" ").slice(0, 2).join(" "));
  expect(started[0]).toBe("stack init");
  expect(started).not.toContain("up --yes");
  const configSets = started.filter((c) => c === "config set").length;
  expect(configSets).toBeLessThan(7);
  // Each command that started had ended before the driver answered: the stack is there, and
  // every `config set` that started has written its value.
  const stackConfig = fs.readFileSync(
    path.join(stack.consumer.dir, "Pulumi.cancelled.yaml"),
    "utf8",
  );
  expect(stackConfig).toContain("encryptionsalt");
  expect(stackConfig.match(/secure:/g)?.length ?? 0).toBe(configSets);
});

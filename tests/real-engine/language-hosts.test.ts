/**
 * The language hosts `npm run engine` installs beside the CLI (toolchain/language-hosts.cjs), as a
 * user meets them: a program that fails shows its own error once and the run fails; a Python
 * program gets its config and secrets from the engine and its outputs reach the stack; a host
 * whose CLI was killed stops with its program, as Pulumi's own hosts do. (A Node.js
 * program's config, secrets, outputs and TypeScript: tests/real-engine/docs-commands.test.ts;
 * Ctrl-C: tests/real-engine/cancel.test.ts.)
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { CliProject } from "../../tools/harness/cli-project";
import { runTempDir } from "../../tools/harness/temp";
import * as pythonSdk from "../../toolchain/python-sdk.cjs";
import * as hosts from "../../toolchain/language-hosts.cjs";

jest.setTimeout(180_000);

const dirs: string[] = [];
const projects: CliProject[] = [];

afterAll(async () => {
  for (const project of projects) await project.cleanup();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A project folder of its own with these files, run through the CLI. */
async function project(
  files: Record<string, string>,
  { nodeModules = false } = {},
): Promise<CliProject> {
  const dir = fs.realpathSync(runTempDir("language-host-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  // The repository's own node_modules stands for an `npm install` of @pulumi/pulumi.
  if (nodeModules)
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
  const created = await CliProject.inRepo(dir);
  projects.push(created);
  await created.mustCli(["stack", "init", "dev"]);
  return created;
}

describe("Python", () => {
  let venv: string;
  beforeAll(async () => {
    const python = await pythonSdk.ensurePythonSdk();
    await hosts.ensureLanguageHosts();
    venv = path.dirname(path.dirname(python));
  }, 180_000);

  it("runs the program in its virtualenv with the stack's config and secrets, and keeps its outputs", async () => {
    const p = await project({
      "Pulumi.yaml": `name: py\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\n`,
      "__main__.py": [
        "import sys, pulumi",
        "config = pulumi.Config()",
        'pulumi.export("greeting", config.require("greeting"))',
        'pulumi.export("secretLength", config.require_secret("token").apply(len))',
        'pulumi.export("python", sys.prefix)',
        "",
      ].join("\n"),
    });
    await p.mustCli(["config", "set", "greeting", "hello"]);
    await p.mustCli(["config", "set", "--secret", "token"], undefined, "py-Secret-Value-1");
    // The preview is not what this checks: one run of the program is enough.
    const up = await p.deploy("up", [], { skipPreview: true });
    expect(up.changeSummary).toEqual({ create: 1 });
    const outputs = up.outputs!;
    expect(outputs).toMatchObject({ greeting: "hello", secretLength: "[secret]" });
    expect(fs.realpathSync(outputs.python as string)).toBe(fs.realpathSync(venv));
    for (const text of p.storedTexts()) expect(text.includes("py-Secret-Value-1")).toBe(false);
  });

  it("shows a failing program's own error and fails the run", async () => {
    const p = await project({
      "Pulumi.yaml": `name: pyfail\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\n`,
      "__main__.py": 'raise ValueError("the program says no")\n',
    });
    const up = await p.cli(["up", "--yes"]);
    expect(up.code).not.toBe(0);
    expect(up.stdout + up.stderr).toContain("ValueError: the program says no");
  });
});

describe("Node.js", () => {
  it("shows a failing program's own error once and fails the run", async () => {
    const p = await project(
      {
        "Pulumi.yaml": "name: jsfail\nruntime: nodejs\nmain: index.js\n",
        "index.js": 'require("@pulumi/pulumi");\nthrow new Error("the program says no");\n',
      },
      { nodeModules: true },
    );
    const up = await p.cli(["up", "--yes"]);
    expect(up.code).not.toBe(0);
    const shown = up.stdout + up.stderr;
    expect(shown.split("Error: the program says no").length - 1).toBe(1);
    // The SDK reported it (exit 32, "bail"): no second line about an exit code.
    expect(shown).not.toContain("Program exited with non-zero exit code");
  });

  it("tells what to do when the project has no @pulumi/pulumi", async () => {
    const p = await project({
      "Pulumi.yaml": "name: nosdk\nruntime: nodejs\nmain: index.js\n",
      "index.js": "",
    });
    const up = await p.cli(["up", "--yes"]);
    expect(up.code).not.toBe(0);
    expect(up.stdout + up.stderr).toContain("run `npm install` there");
  });
});

/** Whether a process is alive (a zombie counts as ended). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The parent of a process, from /proc. */
function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a killed CLI", () => {
  let venv: string;
  beforeAll(async () => {
    venv = path.dirname(path.dirname(await pythonSdk.ensurePythonSdk()));
    await hosts.ensureLanguageHosts();
  }, 180_000);

  // The hosts ask the engine every ARCGIS_ADMIN_HOST_HEALTHCHECK_MS (five minutes unless set).
  it.each([
    {
      runtime: "nodejs",
      files: {
        "Pulumi.yaml": "name: waits\nruntime: nodejs\nmain: index.js\n",
        "index.js":
          'require("fs").writeFileSync(process.env.MARKER, String(process.pid));\nsetTimeout(() => {}, 120_000);\n',
      },
      nodeModules: true,
    },
    {
      runtime: "python",
      files: () => ({
        "Pulumi.yaml": `name: pywaits\nruntime:\n  name: python\n  options:\n    virtualenv: ${venv}\n`,
        "__main__.py":
          "import os, time\nopen(os.environ['MARKER'], 'w').write(str(os.getpid()))\ntime.sleep(120)\n",
      }),
      nodeModules: false,
    },
  ])("leaves no $runtime host or program running once the engine is gone", async (c) => {
    const p = await project(typeof c.files === "function" ? c.files() : c.files, {
      nodeModules: c.nodeModules,
    });
    const marker = path.join(p.tmp, "program.pid");
    const cli = spawn(p.engineInfo.bin, ["up", "--yes", "--non-interactive"], {
      cwd: p.dir,
      env: { ...p.env(), ARCGIS_ADMIN_HOST_HEALTHCHECK_MS: "300", MARKER: marker },
      stdio: "ignore",
    });
    const ended = new Promise((resolve) => cli.on("close", resolve));
    await until(
      () => fs.existsSync(marker) && fs.readFileSync(marker, "utf8") !== "",
      "the program",
    );
    const program = Number(fs.readFileSync(marker, "utf8"));
    const host = parentOf(program);
    // While the engine answers, its health checks keep the host running.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(alive(host)).toBe(true);
    cli.kill("SIGKILL");
    await ended;
    await until(() => !alive(host) && !alive(program), "the host and its program to stop", 20_000);
  });
});

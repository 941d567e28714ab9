/**
 * The Python quick start (examples/quickstart-python) through the real engine, from the packed
 * package: the plugin's schema as the engine gets it from the installed plugin
 * (`pulumi package get-schema`), the Python SDK generated from it (tools/sdkgen) and built into a
 * wheel, the wheel installed beside Pulumi's Python SDK (the cached virtualenv of
 * scripts/python-sdk.cjs), and the example's own driver (Pulumi's Python automation API, the
 * program inline) run against the emulator seeded as `npm start` seeds it: up, up unchanged, a new
 * backup limit that replaces the backup (replace_on_changes on an input the provider only updates
 * in state), refresh, destroy. The state holds the plugin's type tokens and no plain password.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../engine/harness";
import { collaborationExists, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { RealStack } from "./support";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const qs = require("../../scripts/quickstart.cjs") as { SEED_FILE: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const sdkgen = require("../../scripts/sdkgen.cjs") as {
  ensureSdkgen(options?: { log?: (line: string) => void }): Promise<{ bin: string }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const pythonSdk = require("../../scripts/python-sdk.cjs") as {
  ensurePythonSdk(options?: { log?: (line: string) => void }): Promise<string>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- tooling in plain CommonJS
const sdk = require("../../scripts/sdk.cjs") as {
  generate(sdkgen: string, language: "python" | "go", schemaFile: string, out: string): void;
  buildWheel(python: string, sdkDir: string, dist: string): string;
};

jest.setTimeout(300_000);

const PROJECT = "arcgis-admin-quickstart-python";
const SITE_PASSWORD = "py-Quickstart-Site-1";
const PORTAL_ADMIN = { username: "portaladmin", password: "quickstart-Portal-1" };
const SEED_PORTAL = "QUICKSTARTHOST";
const COLLABORATION = "quickstart-partners";

let emu: TestEmulator;
let stack: RealStack;
let python: string;
let env: NodeJS.ProcessEnv;
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Run {
  output: string;
  changes: Record<string, number>;
  outputs?: Record<string, unknown> | undefined;
}

/** Runs the example's driver (`python quickstart.py <args>`) in its folder; throws when it fails. */
function quickstart(args: string[], stdin = ""): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [stack.program, ...args], {
      cwd: path.dirname(stack.program),
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (output += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (output += c));
    child.stdin.end(stdin);
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`quickstart.py ${args.join(" ")} exited ${code}:\n${output}`));
        return;
      }
      const line = (label: string) => {
        const match = new RegExp(`^${label}: (.*)$`, "m").exec(output);
        return match === null ? undefined : (JSON.parse(match[1]!) as Record<string, unknown>);
      };
      resolve({
        output,
        changes: (line("Changes") ?? {}) as Record<string, number>,
        outputs: line("Outputs"),
      });
    });
  });
}

/** The stack's checkpoint in the file backend. */
function checkpoint(): {
  text: string;
  resources: Array<{ type: string; urn: string; outputs?: Record<string, unknown> }>;
} {
  const file = path.join(stack.backendDir, ".pulumi", "stacks", PROJECT, "dev.json");
  const text = fs.readFileSync(file, "utf8");
  const parsed = JSON.parse(text) as {
    checkpoint: { latest?: { resources?: ReturnType<typeof checkpoint>["resources"] } };
  };
  return { text, resources: parsed.checkpoint.latest?.resources ?? [] };
}

/** Every file under a folder, as text. */
function textsUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name)).toString("utf8"));
}

/** Runs a command to its end; throws with its output when it fails. */
function mustRun(command: string, args: string[], runEnv: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: runEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${stdout}${stderr}`)),
    );
  });
}

beforeAll(async () => {
  const [generator, venvPython] = await Promise.all([
    sdkgen.ensureSdkgen({ log }),
    pythonSdk.ensurePythonSdk({ log }),
    startTestEmulator({ seed: qs.SEED_FILE }).then((e) => (emu = e)),
    RealStack.create("dev", undefined, {
      dir: path.join(REPO_ROOT, "examples", "quickstart-python"),
      entry: "quickstart.py",
    }).then((s) => (stack = s)),
  ]);
  python = venvPython;
  // The engine, the installed package's plugin launcher, and the Node.js that runs it.
  const pluginBin = path.join(stack.consumer.dir, "node_modules", "pulumi-arcgis-admin", "bin");
  const site = path.join(stack.tmp, "site-packages");
  env = {
    ...stack.env(),
    PATH: [
      path.join(stack.engineInfo.root, "bin"),
      pluginBin,
      path.dirname(process.execPath),
      process.env.PATH ?? "",
    ].join(path.delimiter),
    PYTHONPATH: site,
    PYTHONDONTWRITEBYTECODE: "1",
  };
  // The schema as the engine gets it from the installed plugin, the SDK and its wheel from it.
  const schemaFile = path.join(stack.tmp, "schema.json");
  fs.writeFileSync(
    schemaFile,
    await mustRun(
      stack.engineInfo.bin,
      ["package", "get-schema", path.join(pluginBin, "pulumi-resource-arcgis-admin")],
      env,
    ),
  );
  const sdkDir = path.join(stack.tmp, "sdk", "python");
  sdk.generate(generator.bin, "python", schemaFile, sdkDir);
  const wheel = sdk.buildWheel(venvPython, sdkDir, path.join(stack.tmp, "sdk", "dist"));
  const { version } = JSON.parse(
    fs.readFileSync(path.join(pluginBin, "..", "package.json"), "utf8"),
  ) as { version: string };
  expect(path.basename(wheel)).toBe(`pulumi_arcgis_admin-${version}-py3-none-any.whl`);
  await mustRun(
    venvPython,
    ["-m", "pip", "install", "--no-deps", "--disable-pip-version-check", "--target", site, wheel],
    env,
  );
}, 280_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
});

it("deploys, keeps, replaces on a new backup limit, refreshes and destroys the Python quick start", async () => {
  const settings = {
    "arcgis-admin:adminUrl": emu.adminUrl,
    "arcgis-admin:username": "siteadmin",
    "arcgis-admin:password": { secret: SITE_PASSWORD },
    "arcgis-admin:caCert": emu.caCert!,
    "arcgis-admin:sharingUrl": emu.sharingUrl,
    "arcgis-admin:portalUsername": PORTAL_ADMIN.username,
    "arcgis-admin:portalPassword": { secret: PORTAL_ADMIN.password },
    collaborationId: COLLABORATION,
  };
  await quickstart(["config"], JSON.stringify(settings));

  const created = await quickstart(["up"]);
  expect(created.changes).toEqual({ create: 4 });
  expect(created.outputs).toMatchObject({
    siteState: "created",
    collaborationRole: "host",
    collaborationName: "Quick start partners",
  });
  expect(fs.existsSync(created.outputs!.backupFile as string)).toBe(true);
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 1 });

  const state = checkpoint();
  expect(new Set(state.resources.map((r) => r.type))).toEqual(
    new Set([
      "pulumi:pulumi:Stack",
      "pulumi:providers:arcgis-admin",
      "arcgis-admin:index:Site",
      "arcgis-admin:index:SiteExport",
      "arcgis-admin:index:Collaboration",
    ]),
  );
  // Passwords: only their ciphertext, in the state, the backend and the stack's config file.
  const site = state.resources.find((r) => r.type === "arcgis-admin:index:Site")!;
  expect(JSON.stringify(site.outputs?.password)).toContain("ciphertext");
  for (const text of [
    ...textsUnder(stack.backendDir),
    ...textsUnder(path.dirname(stack.program)).filter((t) => t.includes("encryptionsalt")),
  ]) {
    // includes(), not toContain(): a failure must not print the whole state.
    expect(text.includes(SITE_PASSWORD)).toBe(false);
    expect(text.includes(PORTAL_ADMIN.password)).toBe(false);
  }

  const again = await quickstart(["up"]);
  expect(again.changes).toEqual({ same: 4 });
  expect(emu.stats()).toMatchObject({ exportsCompleted: 1 });

  // The limit alone only updates state; replace_on_changes makes it a new backup.
  await quickstart(["config"], JSON.stringify({ backupMaxBytes: "100000000" }));
  const replaced = await quickstart(["up"]);
  expect(replaced.changes).toEqual({ replace: 1, same: 3 });
  expect(replaced.output).toMatch(/\+-\s+arcgis-admin:index:SiteExport site-backup replaced/);
  expect(emu.stats()).toMatchObject({ sitesCreated: 1, exportsCompleted: 2 });
  expect(replaced.outputs!.backupFile).not.toBe(created.outputs!.backupFile);

  const refreshed = await quickstart(["refresh"]);
  expect(refreshed.changes).toEqual({ same: 4 });

  const destroyed = await quickstart(["destroy"]);
  expect(destroyed.changes).toEqual({ delete: 4 });
  expect(checkpoint().resources).toEqual([]);
  expect(await collaborationExists(emu, PORTAL_ADMIN, COLLABORATION, SEED_PORTAL)).toBe(false);
}, 280_000);

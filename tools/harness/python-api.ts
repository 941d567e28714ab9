/**
 * Runs Esri's ArcGIS API for Python (`arcgis` 2.4.4 from PyPI, unmodified, in the virtualenv
 * toolchain/python-api.cjs installs once into the cache) against an emulator started in this
 * process. Each script in ./scripts runs named steps and prints one line `RESULT {...}`: per
 * step, `{ok: <result>}` or `{error: "<Type>: <text>"}`.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { REPO_ROOT } from "./project";
import type { EmulatorSeedInput } from "../../emulator";
import * as installer from "../../toolchain/python-api.cjs";

/** How long the first run may take to install the virtualenv (about a minute on a fast line). */
export const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** How long one script may take (imports of arcgis take seconds). */
export const SCRIPT_TIMEOUT_MS = 120_000;

/** The portal administrator of the seeded portal. */
export const PORTAL_ADMIN = { username: "gisadmin", password: "Portal-Admin-Pass-1" };
/** The primary site administrator the federation script creates. */
export const SITE_ADMIN = { username: "siteadmin", password: "Site-Admin-Pass-1" };

let python: Promise<string> | undefined;

/** The virtualenv's python (installed on first use; progress on stderr). */
export function pythonApi(): Promise<string> {
  python ??= installer.ensurePythonApi({
    log: (line) => process.stderr.write(`python-api: ${line}\n`),
  });
  return python;
}

/** One step's outcome. */
export type StepResult = { ok: unknown } | { error: string };

/** What a script printed, and the emulator's request paths while it ran (without queries). */
export interface ScriptRun {
  results: Record<string, StepResult>;
  paths: string[];
  stderr: string;
}

/** Runs `scripts/<name>.py` against the emulator; rejects when it prints no RESULT line. */
export async function runScript(
  emu: TestEmulator,
  name: string,
  args: string[] = [],
  user = PORTAL_ADMIN,
): Promise<ScriptRun> {
  const py = await pythonApi();
  const before = emu.requestLog().length;
  const portalUrl = emu.sharingUrl.replace(/\/sharing\/rest$/, "");
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>(
    (resolve, reject) => {
      execFile(
        py,
        [path.join(REPO_ROOT, "tests", "python-api", "scripts", `${name}.py`), ...args],
        {
          timeout: SCRIPT_TIMEOUT_MS,
          maxBuffer: 16 * 1024 * 1024,
          env: {
            ...process.env,
            PYTHONDONTWRITEBYTECODE: "1",
            EMU_PORTAL_URL: portalUrl,
            EMU_ADMIN_URL: emu.adminUrl,
            EMU_PORTAL_USER: user.username,
            EMU_PORTAL_PASSWORD: user.password,
            EMU_SITE_USER: SITE_ADMIN.username,
            EMU_SITE_PASSWORD: SITE_ADMIN.password,
          },
        },
        (error, out, err) => {
          const line = out.split("\n").find((l) => l.startsWith("RESULT "));
          if (line === undefined) {
            reject(
              new Error(`${name}.py printed no result (${error?.message ?? "exit 0"}):\n${err}`),
            );
          } else resolve({ stdout: line, stderr: err });
        },
      );
    },
  );
  const results = JSON.parse(stdout.slice("RESULT ".length)) as Record<string, StepResult>;
  const paths = emu
    .requestLog()
    .slice(before)
    .map((entry) => `${entry.method} ${entry.url.split("?")[0] ?? ""}`);
  return { results, paths, stderr };
}

/** The result of a step that must have succeeded (fails the test with the step's error). */
export function ok(run: ScriptRun, step: string): unknown {
  const result = run.results[step];
  if (result === undefined) throw new Error(`step ${step} did not run`);
  if ("error" in result) throw new Error(`step ${step} failed: ${result.error}`);
  return result.ok;
}

/** The error text of a step that must have failed. */
export function failure(run: ScriptRun, step: string): string {
  const result = run.results[step];
  if (result === undefined) throw new Error(`step ${step} did not run`);
  if (!("error" in result)) {
    throw new Error(`step ${step} succeeded: ${JSON.stringify(result.ok)}`);
  }
  return result.error;
}

/** An emulator (Mission Server, TLS) whose portal is seeded with the given users. */
export async function startPortal(
  seed: EmulatorSeedInput | undefined = undefined,
): Promise<TestEmulator> {
  return startTestEmulator({
    createDelayMs: 50,
    exportDelayMs: 50,
    seed: seed ?? {
      portal: { id: "PYAPIPORTAL1", users: [{ ...PORTAL_ADMIN, role: "org_admin" }] },
    },
  });
}

/**
 * For a describe block: installs the library (once) and starts the portal before its tests,
 * closes it after them. Returns the running emulator's getter.
 */
export function usePortal(seed?: EmulatorSeedInput): () => TestEmulator {
  let emu: TestEmulator | undefined;
  beforeAll(async () => {
    await pythonApi();
    emu = await startPortal(seed);
  }, INSTALL_TIMEOUT_MS);
  afterAll(() => emu?.close());
  return () => {
    if (emu === undefined) throw new Error("the portal did not start (see beforeAll)");
    return emu;
  };
}

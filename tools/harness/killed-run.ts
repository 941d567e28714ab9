/**
 * What the killed-run suites share: emulators and stacks closed after the file, a `pulumi up`
 * SIGKILLed once its create's call reached the server, and the documented recovery.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeDispatchers } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { REPO_ROOT } from "./project";
import { RealStack } from "./real-stack";
import type { ConfigValue, RunResult } from "./stack-types";
import { until } from "./until";

export const PORTAL = { username: "portaladmin", password: "emulator-Admin-1" };
export const SITE_PASSWORD = "killed-Run-Pass-3";

const emulators: TestEmulator[] = [];
const stacks: RealStack[] = [];

/** Closes what this file started; call once per test file. */
export function closeAfterAll(): void {
  afterAll(async () => {
    for (const stack of stacks) await stack.cleanup();
    for (const emu of emulators) await emu.close();
    await closeDispatchers();
  });
}

export async function emulator(
  options: Parameters<typeof startTestEmulator>[0],
): Promise<TestEmulator> {
  const emu = await startTestEmulator(options);
  emulators.push(emu);
  return emu;
}

export async function stack(name: string, program?: string): Promise<RealStack> {
  const created = await RealStack.create(name);
  if (program !== undefined)
    fs.copyFileSync(path.join(REPO_ROOT, "tests", "real-engine", program), created.program);
  stacks.push(created);
  return created;
}

export function requests(emu: TestEmulator, suffix: string): number {
  return emu.requestLog().filter((r) => r.url.split("?")[0]!.endsWith(suffix)).length;
}

/**
 * Starts `pulumi up` (with `env` added to its environment) and SIGKILLs its CLI once `sent` holds
 * (the create's call has reached the server); resolves once the killed CLI has ended.
 */
export async function killedUp(
  s: RealStack,
  config: Record<string, ConfigValue>,
  sent: () => boolean | Promise<boolean>,
  env: NodeJS.ProcessEnv = {},
): Promise<RunResult> {
  let pid = 0;
  const running = s.run("up", { config, env, onSpawn: (p) => (pid = p), timeoutMs: 120_000 });
  await until(async () => pid !== 0 && (await sent()), "the create's call");
  process.kill(pid, "SIGKILL");
  return running;
}

/** The documented recovery: the stale lock, then the pending creates. */
export async function recover(s: RealStack): Promise<void> {
  const cancel = await s.cli(["cancel", "--yes"]);
  expect(cancel.code).toBe(0);
  await clearPendingCreates(s);
}

/** The recovery's second step: a refresh that drops the pending creates. */
export async function clearPendingCreates(s: RealStack): Promise<void> {
  const refresh = await s.cli([
    "refresh",
    "--clear-pending-creates",
    "--yes",
    "--skip-preview",
    "--non-interactive",
  ]);
  expect(`${refresh.stdout}${refresh.stderr}`).not.toMatch(/error:/);
  expect(refresh.code).toBe(0);
}

export async function pendingOperations(s: RealStack): Promise<unknown[]> {
  const exported = await s.run("export");
  return (exported.state?.deployment["pending_operations"] as unknown[] | undefined) ?? [];
}

export function federationProgramConfig(
  servers: Array<{ name: string; emu: TestEmulator; adminUrl?: string }>,
  portal: { sharingUrl: string; caCert?: string },
): Record<string, ConfigValue> {
  return {
    servers: {
      value: JSON.stringify(
        servers.map(({ name, emu, adminUrl }) => ({
          name,
          serverType: "mission-server",
          adminUrl: adminUrl ?? emu.adminUrl,
          ...(emu.caCert === undefined ? {} : { caCert: emu.caCert }),
        })),
      ),
    },
    sharingUrl: { value: portal.sharingUrl },
    ...(portal.caCert === undefined ? {} : { portalCaCert: { value: portal.caCert } }),
    portalUsername: { value: PORTAL.username },
    portalPassword: { value: PORTAL.password, secret: true },
    sitePassword: { value: SITE_PASSWORD, secret: true },
  };
}

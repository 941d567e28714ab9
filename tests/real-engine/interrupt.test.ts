/**
 * Ctrl-C (SIGINT to the CLI, what the terminal sends) during a site creation under the real
 * engine, followed by another `pulumi up`.
 */
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { RealStack, type ConfigValue } from "./support";

const stacks: RealStack[] = [];
const emulators: TestEmulator[] = [];

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  for (const emu of emulators) await emu.close();
});

async function siteStack(name: string, createDelayMs: number) {
  const emu = await startTestEmulator({ createDelayMs });
  emulators.push(emu);
  const stack = await RealStack.create(name);
  stacks.push(stack);
  const config: Record<string, ConfigValue> = {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: "site-Slow-Create-1", secret: true },
    siteOnly: { value: "true" },
  };
  return { emu, stack, config };
}

it("after a Ctrl-C during a creation, the next `pulumi up` sends no second createNewSite and the stack is consistent", async () => {
  const { emu, stack, config } = await siteStack("interrupted", 8_000);
  const interrupted = await stack.run("up", {
    config,
    abortOnText: "Waiting for site creation",
    timeoutMs: 120_000,
  });
  // The engine cancels gracefully: it lets the running create finish and records it.
  expect(interrupted.ok).toBe(false);
  expect(interrupted.output).toContain("^C received; cancelling");
  expect(interrupted.output).toMatch(/site created \(\d+s\)/);
  expect(interrupted.output).toContain("error: update canceled");
  expect(emu.stats().createNewSiteRequests).toBe(1);
  const again = await stack.mustRun("up", { timeoutMs: 120_000 });
  expect(again.changeSummary).toEqual({ same: 2 });
  expect(emu.stats().createNewSiteRequests).toBe(1);
  const refreshed = await stack.mustRun("refresh");
  expect(refreshed.changeSummary).toEqual({ same: 2 });
  const preview = await stack.mustRun("preview", { options: { expectNoChanges: true } });
  expect(preview.changeSummary).toEqual({ same: 2 });
}, 300_000);

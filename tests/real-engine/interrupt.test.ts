/**
 * Ctrl-C (SIGINT to the CLI, what the terminal sends) during a site creation under the real
 * engine, followed by another `pulumi up`.
 */
import { siteStacks } from "../../tools/harness/site-stacks";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const sites = siteStacks();
afterAll(() => sites.close());

it("after a Ctrl-C during a creation, the next `pulumi up` sends no second createNewSite and the stack is consistent", async () => {
  const { emu, stack, config } = await sites.create("interrupted", 8_000);
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

/**
 * A site creation of more than a minute through the real engine: the user sees progress while
 * `pulumi up` runs.
 */
import { siteStacks } from "../../tools/harness/site-stacks";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const sites = siteStacks();
afterAll(() => sites.close());

const PROGRESS =
  /Waiting for site creation on https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin: .*\((?:(\d+)m)?(\d+)s of at most 60m00s\)/;

it("shows progress lines while a creation of more than a minute runs under `pulumi up`", async () => {
  const { emu, stack, config } = await sites.create("slow", 65_000);
  const up = await stack.mustRun("up", { config, timeoutMs: 150_000 });
  expect(up.changeSummary).toEqual({ create: 2 });
  expect(up.ms).toBeGreaterThan(65_000);
  // Lines printed while the update ran (the Diagnostics summary repeats them at the end).
  const summaryAt = up.lines.findIndex((l) => l.text.startsWith("Diagnostics:"));
  const live = up.lines.slice(0, summaryAt).filter((l) => PROGRESS.test(l.text));
  const elapsed = live.map((l) => {
    const [, m, s] = PROGRESS.exec(l.text)!;
    return Number(m ?? 0) * 60 + Number(s);
  });
  expect(elapsed.filter((s) => s >= 15).length).toBeGreaterThanOrEqual(4);
  expect(Math.max(...elapsed)).toBeGreaterThanOrEqual(60);
  // They arrived as the creation went on, not all at the end.
  expect(live[live.length - 1]!.ms - live[0]!.ms).toBeGreaterThan(45_000);
  expect(emu.stats().createNewSiteRequests).toBe(1);
}, 200_000);

/**
 * Through the real engine, `pulumi up` fails in seconds on mistakes that waiting cannot fix,
 * instead of waiting out timeouts.serverReadyMs (15 minutes by default, as here): an http:// URL
 * on the emulator's https port, and an admin URL whose path answers 404. The message names
 * adminUrl and what to do, without a stack trace.
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { RunResult } from "../../tools/harness/stack-types";

// A test here runs the pulumi CLI once; on a loaded machine CLI start-up alone can take seconds.
jest.setTimeout(300_000);

let emu: TestEmulator;
const stacks: RealStack[] = [];

beforeAll(async () => {
  emu = await startTestEmulator();
}, 60_000);

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  await emu?.close();
});

/**
 * How long the Site's create took, from the engine's "creating" line to its "creating failed"
 * line as they arrived: the provider's part, apart from the CLI's start-up, which a loaded machine
 * stretches.
 */
function createMs(up: RunResult): number {
  const started = up.lines.find((l) => /Site site creating/.test(l.text));
  const failed = up.lines.find((l) => /Site site \*\*creating failed\*\*/.test(l.text));
  if (started === undefined || failed === undefined) throw new Error(`no create in:\n${up.output}`);
  return failed.ms - started.ms;
}

/** `pulumi up` of the Site alone against `adminUrl`, with the default time limits. */
async function upAgainst(name: string, adminUrl: string) {
  const stack = await RealStack.create(name);
  stacks.push(stack);
  return stack.run("up", {
    config: {
      adminUrl: { value: adminUrl },
      caCert: { value: emu.caCert! },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: "site-Fail-Fast-1", secret: true },
      siteOnly: { value: "true" },
    },
    timeoutMs: 120_000,
  });
}

it("fails within 10 s on an http:// adminUrl on the emulator's https port, saying to use https", async () => {
  const http = emu.adminUrl.replace(/^https:/, "http:");
  const up = await upAgainst("plainhttp", http);
  expect(up.ok).toBe(false);
  expect(createMs(up)).toBeLessThan(10_000);
  // Nowhere near timeouts.serverReadyMs, even with the CLI's start-up on a loaded machine.
  expect(up.cliMs).toBeLessThan(60_000);
  expect(up.output).toContain(
    `adminUrl is an http:// URL on a port that speaks https: set adminUrl to ${emu.adminUrl}.`,
  );
  expect(up.output).not.toContain("site-Fail-Fast-1");
  expect(up.output).not.toMatch(/^\s+at .*\.js:\d+:\d+\)?$/m);
  expect(emu.stats().createNewSiteRequests).toBe(0);
});

it("fails within 10 s on an adminUrl whose path answers 404, naming adminUrl", async () => {
  const typo = emu.adminUrl.replace("/arcgis/admin", "/arcgis/admn");
  const up = await upAgainst("pathtypo", typo);
  expect(up.ok).toBe(false);
  expect(createMs(up)).toBeLessThan(10_000);
  expect(up.cliMs).toBeLessThan(60_000);
  expect(up.output).toContain(
    `Nothing answers at adminUrl (${typo}, HTTP 404): check the path of adminUrl`,
  );
  expect(up.output).not.toMatch(/^\s+at .*\.js:\d+:\d+\)?$/m);
  expect(emu.stats().createNewSiteRequests).toBe(0);
});

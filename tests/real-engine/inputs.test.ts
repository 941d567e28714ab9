/**
 * What `pulumi preview` shows about inputs, through the real engine: every problem of bad inputs
 * at once, before anything is sent; and a warning that names a plain-http server URL.
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const LEAKED = "site-Leaked-Secret-3";
let emu: TestEmulator;
let plain: TestEmulator;
const stacks: RealStack[] = [];

beforeAll(async () => {
  emu = await startTestEmulator();
  plain = await startTestEmulator({ tls: false });
}, 60_000);

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  await emu?.close();
  await plain?.close();
});

async function stackNamed(name: string): Promise<RealStack> {
  const stack = await RealStack.create(name);
  stacks.push(stack);
  return stack;
}

it("fails preview on bad inputs, listing every problem with its path, and sends nothing", async () => {
  const stack = await stackNamed("badinputs");
  const preview = await stack.run("preview", {
    config: {
      adminUrl: { value: emu.adminUrl },
      caCert: { value: emu.caCert! },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: "site-Bad-Inputs-1", secret: true },
      siteOnly: { value: "true" },
      siteExtra: {
        value: JSON.stringify({
          directories: [
            {
              name: "arcgissystem",
              physicalPath: "D:\\\\arcgis\\\\system",
              directoryType: "BOGUS",
            },
          ],
          logSettings: {
            logLevel: "LOUD",
            logDir: "D:\\\\logs",
            maxErrorReportsCount: 10,
            maxLogFileAge: 90,
          },
          runAsnc: true,
          // The wrong type, so that check fails on a secret (Site makes password one): the
          // engine must not print its value.
          password: [LEAKED],
        }),
      },
    },
  });
  expect(preview.ok).toBe(false);
  expect(preview.output).not.toContain(LEAKED);
  expect(preview.error).not.toContain(LEAKED);
  const problems = [
    "directories[0].directoryType: must be one of JOBS, OUTPUT, SYSTEM",
    "logSettings.logLevel: must be one of OFF",
    "runAsnc: unknown property",
    "password: must be a string, not a list",
  ];
  for (const problem of problems) {
    expect(preview.output).toContain(`resource 'site' has a problem: ${problem}`);
  }
  expect(emu.requestLog()).toEqual([]);
}, 180_000);

it("warns at preview that a plain-http adminUrl sends the password unencrypted, naming the field", async () => {
  const stack = await stackNamed("plainhttp");
  const preview = await stack.run("preview", {
    config: {
      adminUrl: { value: plain.adminUrl },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: "site-Plain-Http-1", secret: true },
      siteOnly: { value: "true" },
    },
  });
  expect(preview.ok).toBe(true);
  // Once, sent to the engine's log by the dynamic-provider host (under the stack: the host does not
  // pass the resource's URN); tests/real-engine/messages.test.ts has `--diff` and the plugin.
  const warnings = (preview.diagnostics ?? []).filter((d) =>
    /^adminUrl http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin is plain http: the password/.test(
      d.message,
    ),
  );
  expect(warnings).toEqual([expect.objectContaining({ urn: "", severity: "warning" })]);
  expect(preview.output).toMatch(
    /warning: adminUrl http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin is plain http/,
  );
}, 180_000);

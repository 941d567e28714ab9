/**
 * A site of two machines through the real Pulumi engine (the `pulumi` CLI, a local file backend,
 * local-kms for the secrets), from the packed package installed in a consumer project,
 * against two emulated machines of this process: preview (nothing sent), up (createNewSite on the
 * first, joinSite on the second), up again (no changes), refresh after an unregister done out of
 * band, up (joins again), destroy (unregisters; the site is left running) and destroy again.
 */
import * as path from "node:path";
import { createAdminSession, listMachines, unregisterMachine } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const SITE_PASSWORD = "site-Machine-Pass-81";

let first: TestEmulator;
let second: TestEmulator;
let stack: RealStack;
let config: Record<string, ConfigValue>;

function siteSession() {
  return createAdminSession({
    adminUrl: first.adminUrl,
    username: "siteadmin",
    password: SITE_PASSWORD,
    tls: { caCert: first.caCert! },
  });
}

function requests(emu: TestEmulator, suffix: string): number {
  return emu.requestLog().filter((r) => r.url.split("?")[0]!.endsWith(suffix)).length;
}

beforeAll(async () => {
  first = await startTestEmulator({ machineName: "gis1", createDelayMs: 200 });
  // One CA for both machines: the program's single caCert trusts both.
  const certFile = first.caCertFile!;
  second = await startTestEmulator({
    machineName: "gis2",
    joinDelayMs: 300,
    joinPollAfterSeconds: 1,
    tls: { certFile, keyFile: path.join(path.dirname(certFile), "key.pem") },
  });
  stack = await RealStack.create("machines");
  config = {
    adminUrl: { value: first.adminUrl },
    caCert: { value: first.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    siteOnly: { value: "true" },
    secondAdminUrl: { value: second.adminUrl },
    secondMachineName: { value: "gis2" },
  };
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  await second?.close();
  await first?.close();
});

it("creates, keeps, refreshes, joins again and unregisters the second machine", async () => {
  const preview = await stack.mustRun("preview", { config });
  expect(preview.changeSummary).toMatchObject({ create: 3 });
  expect(requests(second, "/joinSite")).toBe(0);
  expect(requests(first, "/createNewSite")).toBe(0);

  const up = await stack.mustRun("up", { config });
  expect(up.outputs).toMatchObject({
    siteState: "created",
    secondState: "joined",
    secondMachines: ["gis1", "gis2"],
  });
  expect(await listMachines(siteSession())).toEqual(["gis1", "gis2"]);

  const again = await stack.mustRun("up", { config, options: { expectNoChanges: true } });
  expect(again.changeSummary).toEqual({ same: 3 });
  expect(requests(second, "/joinSite")).toBe(1);

  // The password is in the state and the backend only encrypted.
  for (const { file, text } of stack.backendFiles()) {
    expect({ file, leaked: text.includes(SITE_PASSWORD) }).toEqual({ file, leaked: false });
  }

  await unregisterMachine(siteSession(), "gis2");
  const refreshed = await stack.mustRun("refresh", { config });
  expect(refreshed.changeSummary).toEqual({ delete: 1, same: 2 });

  const rejoined = await stack.mustRun("up", { config });
  expect(rejoined.changeSummary).toEqual({ create: 1, same: 2 });
  expect(requests(second, "/joinSite")).toBe(2);

  await stack.mustRun("destroy", { config });
  expect(await listMachines(siteSession())).toEqual(["gis1"]);
  expect(requests(first, "/machines/gis2/unregister")).toBe(2);
  const destroyedAgain = await stack.mustRun("destroy", { config });
  expect(destroyedAgain.ok).toBe(true);
  expect(requests(first, "/machines/gis2/unregister")).toBe(2);
}, 300_000);

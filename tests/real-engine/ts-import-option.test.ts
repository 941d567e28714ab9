/**
 * The `import` resource option on the TypeScript class `Site` (a dynamic resource) through the real
 * engine, from the packed package. The engine's Read for an import carries only the id, without
 * the serialized provider a dynamic resource's host needs (tried: the host fails with "code must
 * be a string, not undefined" and a stack trace), so the class refuses the option with a message
 * that names what works: `adoptExisting: true`, which brings the existing site under the stack,
 * or `pulumi import` through the plugin (docs/import.md).
 */
import { closeDispatchers, createNewSite } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";

jest.setTimeout(300_000);

const PASSWORD = "ts-Import-Pass-1";
let emu: TestEmulator;
let stack: RealStack | undefined;
let config: Record<string, ConfigValue>;

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 20 });
  await createNewSite(
    emu.adminUrl,
    { serverType: "mission-server", username: "siteadmin", password: PASSWORD, runAsync: false },
    { tls: { caCert: emu.caCert! } },
  );
  stack = await RealStack.create("ts-import");
  config = {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: PASSWORD, secret: true },
    siteOnly: { value: "true" },
  };
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
  await closeDispatchers();
});

it("refuses the import option on a Site class, naming adoptExisting, which adopts the site", async () => {
  const imported = await stack!.run("up", {
    config: { ...config, siteOptions: { value: JSON.stringify({ import: emu.adminUrl }) } },
  });
  expect(imported.ok).toBe(false);
  const said = `${imported.output}\n${imported.error ?? ""}`;
  expect(said).toMatch(/Site "site": the import option does not work .*set adoptExisting: true/);
  expect(said).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1 });

  const adopted = await stack!.run("up", {
    config: {
      ...config,
      siteOptions: { value: "{}" },
      siteExtra: { value: JSON.stringify({ adoptExisting: true }) },
    },
  });
  expect(adopted.ok).toBe(true);
  const exported = await stack!.run("export");
  const site = stateResources(exported.state).find((r) => r.urn.endsWith("::site"))!;
  expect(site.outputs).toMatchObject({ state: "adopted" });
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1 });
});

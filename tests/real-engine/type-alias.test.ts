/**
 * Upgrading from a version whose resources all had Pulumi's default dynamic type
 * (`pulumi-nodejs:dynamic:Resource`) to the per-resource type tokens, through the real engine:
 * with the alias CHANGELOG.md gives, the stack keeps its site (no create, no delete); without it, the
 * engine would replace it.
 */
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

let emu: TestEmulator;
let stack: RealStack | undefined;

beforeAll(async () => {
  emu = await startTestEmulator({ createDelayMs: 200 });
}, 60_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
});

function config(extra: Record<string, ConfigValue>): Record<string, ConfigValue> {
  return {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: "site-Alias-Pass-1", secret: true },
    siteOnly: { value: "true" },
    ...extra,
  };
}

async function siteInState(s: RealStack) {
  const exported = await s.mustRun("export");
  return stateResources(exported.state).filter((r) => r.urn.endsWith("::site"));
}

it("keeps a site created under the old type when the alias is given", async () => {
  stack = await RealStack.create("alias");
  await stack.mustRun("up", { config: config({ legacyType: { value: "true" } }) });
  const before = await siteInState(stack);
  expect(before.map((r) => r.type)).toEqual(["pulumi-nodejs:dynamic:Resource"]);

  // Without the alias, the engine sees a new resource and an old one: a replacement.
  const unaliased = await stack.mustRun("preview", {
    config: config({ legacyType: { value: "false" }, siteOptions: { value: "{}" } }),
  });
  expect(unaliased.changeSummary).toMatchObject({ create: 1, delete: 1 });

  const aliases = JSON.stringify({ aliases: [{ type: "pulumi-nodejs:dynamic:Resource" }] });
  const upgraded = await stack.mustRun("up", {
    config: config({ legacyType: { value: "false" }, siteOptions: { value: aliases } }),
  });
  expect(upgraded.changeSummary).toEqual({ same: 2 });
  const after = await siteInState(stack);
  expect(after.map((r) => [r.type, r.id])).toEqual([
    ["pulumi-nodejs:dynamic/arcgis-admin:Site", before[0]!.id],
  ]);
  expect(after[0]!.outputs?.createdAt).toBe(before[0]!.outputs?.createdAt);
  expect(emu.stats()).toMatchObject({ createNewSiteRequests: 1, sitesCreated: 1 });
}, 240_000);

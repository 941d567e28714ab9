/**
 * The provider plugin through the real engine, from the packed package: a Site declared by its
 * type token `arcgis-admin:index:Site` (tests/real-engine/plugin-program.cjs) is created by the
 * plugin that the engine finds on PATH (the packed package's bin/pulumi-resource-arcgis-admin),
 * left alone by a second `up`, shown as a replacement naming the changed key when an input that
 * defines the site changes, and destroyed; the password, which comes from the provider's
 * configuration, is never plain in state.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";

jest.setTimeout(300_000);

const PASSWORD = "plugin-Site-Pass-1";

let emu: TestEmulator;
let stack: RealStack | undefined;
const savedPath = process.env.PATH;

beforeAll(async () => {
  emu = await startTestEmulator();
}, 60_000);

afterAll(async () => {
  process.env.PATH = savedPath;
  await stack?.cleanup();
  await emu?.close();
});

function config(configStore: string): Record<string, ConfigValue> {
  return {
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    configStore: { value: configStore },
    "arcgis-admin:username": { value: "siteadmin" },
    "arcgis-admin:password": { value: PASSWORD, secret: true },
  };
}

/** Every file under a folder, read as text. */
function textsUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8"));
}

it("creates, keeps, replaces on a defining change and destroys a Site through the plugin", async () => {
  stack = await RealStack.create("plugin", undefined, {
    dir: path.join(__dirname, "plugin-program"),
    entry: "index.cjs",
  });
  // The engine finds the plugin on PATH: the launcher of the installed package.
  const bin = path.join(stack.consumer.dir, "node_modules", "pulumi-arcgis-admin", "bin");
  expect(fs.existsSync(path.join(bin, "pulumi-resource-arcgis-admin"))).toBe(true);
  process.env.PATH = [bin, savedPath].join(path.delimiter);

  const created = await stack.mustRun("up", { config: config("/data/config-store") });
  expect(created.changeSummary).toMatchObject({ create: 2 });
  expect(created.outputs).toMatchObject({ state: "created" });
  expect(emu.stats()).toMatchObject({ sitesCreated: 1 });

  const exported = await stack.mustRun("export");
  const sites = stateResources(exported.state).filter((r) => r.urn.endsWith("::site"));
  expect(sites.map((r) => r.type)).toEqual(["arcgis-admin:index:Site"]);
  // The password came from the provider's configuration: in state, only its ciphertext.
  expect(JSON.stringify(exported.state)).not.toContain(PASSWORD);
  expect(textsUnder(stack.backendDir).some((t) => t.includes(PASSWORD))).toBe(false);
  expect(JSON.stringify(sites[0]!.outputs?.password)).toContain("ciphertext");

  const again = await stack.mustRun("up", { config: config("/data/config-store") });
  expect(again.changeSummary).toEqual({ same: 2 });

  // A change of what defines the site: a replacement, with the changed key named.
  const changed = await stack.mustRun("preview", {
    config: config("/data/other-store"),
    options: { diff: true },
  });
  expect(changed.changeSummary).toMatchObject({ replace: 1 });
  expect(changed.output).toMatch(/configStoreConnection/);
  expect(changed.output).toMatch(/\+-\s*arcgis-admin:index:Site/);

  await stack.mustRun("destroy", { config: config("/data/config-store") });
  const after = await stack.mustRun("export");
  expect(stateResources(after.state).filter((r) => r.urn.endsWith("::site"))).toEqual([]);
}, 280_000);

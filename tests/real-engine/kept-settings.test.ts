/**
 * `restoreOnDestroy` of LogSettings and SystemProperties through the real Pulumi CLI, on the
 * dynamic path and through the provider plugin: destroy puts back only what the server still
 * holds as this stack wrote it. Three servers in one stack: an operator changes the first and
 * `pulumi refresh` reads it, an operator changes the second and no refresh follows, the third is
 * left as the stack wrote it. Destroy leaves both operators' values and restores the third.
 * Then a stack written by the package before the stack recorded what it wrote (the last commit
 * before that record, packed from git), destroyed after upgrading the package: nothing is
 * restored, and destroy says which settings it leaves and why. The rule's cases one by one:
 * tests/resources/kept-settings.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  editLogSettings,
  getLogSettings,
  getSystemProperties,
  updateSystemProperties,
  type AdminSession,
} from "../../provider/client";
import { startTestSite, type TestEmulator } from "../../tools/harness/emulator";
import { consumerOfRelease, upgradePackage } from "../../tools/harness/package-upgrade";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";

jest.setTimeout(300_000);

/** The last commit whose package did not record what it wrote (writtenSettings, …). */
const BEFORE_THE_RECORD = "a2d789f";
const PASSWORD = "kept-Settings-Pass-7";
const BEFORE = { logLevel: "WARNING", WebContextURL: "https://original.example.com/server" };
const STACK = { logLevel: "SEVERE", WebContextURL: "https://stack.example.com/server" };
const OPERATOR = { logLevel: "DEBUG", WebContextURL: "https://operator.example.com/server" };

const emulators: TestEmulator[] = [];
const stacks: RealStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  for (const emu of emulators) {
    await emu.close();
    fs.rmSync(emu.dataDir, { recursive: true, force: true });
  }
  await closeDispatchers();
});

/** A server with a site, its WebContextURL set by someone before the stack. */
async function server(): Promise<{ emu: TestEmulator; session: AdminSession }> {
  const { emu, session } = await startTestSite(PASSWORD, { serverType: "mission-server" });
  emulators.push(emu);
  await set(session, BEFORE);
  return { emu, session };
}

/** Sets both settings, as an operator (or whoever was first) would by hand. */
async function set(session: AdminSession, values: typeof BEFORE): Promise<void> {
  await editLogSettings(session, {
    ...(await getLogSettings(session)),
    logLevel: values.logLevel,
  });
  await updateSystemProperties(session, {
    ...(await getSystemProperties(session)),
    WebContextURL: values.WebContextURL,
  });
}

async function held(session: AdminSession): Promise<typeof BEFORE> {
  return {
    logLevel: String((await getLogSettings(session)).logLevel),
    WebContextURL: String((await getSystemProperties(session)).WebContextURL),
  };
}

function config(
  targets: Record<string, TestEmulator>,
  viaPlugin: boolean,
): Record<string, ConfigValue> {
  return {
    targets: {
      value: JSON.stringify(
        Object.entries(targets).map(([name, emu]) => ({
          name,
          adminUrl: emu.adminUrl,
          caCert: emu.caCert!,
        })),
      ),
    },
    logLevel: { value: STACK.logLevel },
    webContextUrl: { value: STACK.WebContextURL },
    viaPlugin: { value: String(viaPlugin) },
    "arcgis-admin:username": { value: "siteadmin" },
    "arcgis-admin:password": { value: PASSWORD, secret: true },
  };
}

async function keptStack(name: string, existing?: RealStack["consumer"]): Promise<RealStack> {
  const stack = await RealStack.create(name, existing, {
    dir: path.join(__dirname, "kept-settings-program"),
    entry: "index.cjs",
  });
  stacks.push(stack);
  return stack;
}

/** Every message the engine showed in an operation. */
function said(result: RunResult): string {
  return (result.diagnostics ?? []).map((d) => d.message).join("\n");
}

describe.each([
  ["the dynamic path", false],
  ["the provider plugin", true],
] as const)("%s", (_path, viaPlugin) => {
  it("an operator's change, refreshed or not, is left by destroy; a value as the stack wrote it is restored", async () => {
    const refreshed = await server();
    const unrefreshed = await server();
    const untouched = await server();
    const targets = { refreshed: refreshed.emu, unrefreshed: unrefreshed.emu, kept: untouched.emu };
    const stack = await keptStack(viaPlugin ? "kept-plugin" : "kept-dynamic");
    // The engine finds the plugin on PATH: the launcher of the installed package.
    const bin = path.join(stack.consumer.dir, "node_modules", "pulumi-arcgis-admin", "bin");
    const env = viaPlugin ? { PATH: [bin, process.env.PATH].join(path.delimiter) } : {};
    const options = { config: config(targets, viaPlugin), env };

    const up = await stack.mustRun("up", options);
    expect(up.changeSummary).toMatchObject({ create: 7 });
    expect(up.outputs).toMatchObject({
      kept: {
        writtenSettings: { logLevel: STACK.logLevel },
        writtenProperties: { WebContextURL: STACK.WebContextURL },
      },
    });
    for (const { session } of [refreshed, unrefreshed, untouched]) {
      expect(await held(session)).toEqual(STACK);
    }

    await set(refreshed.session, OPERATOR);
    await set(unrefreshed.session, OPERATOR);
    const state = (await stack.mustRun("export", options)).state;
    const targetsOfRefresh = stateResources(state)
      .filter((r) => /::refreshed-(logs|props)$/.test(r.urn))
      .flatMap((r) => ["--target", r.urn]);
    expect(targetsOfRefresh).toHaveLength(4);
    const refresh = await stack.cli(
      ["refresh", "--yes", "--non-interactive", ...targetsOfRefresh],
      options,
    );
    expect(refresh.code).toBe(0);

    const destroy = await stack.mustRun("destroy", options);
    expect(await held(refreshed.session)).toEqual(OPERATOR);
    expect(await held(unrefreshed.session)).toEqual(OPERATOR);
    expect(await held(untouched.session)).toEqual(BEFORE);
    const text = said(destroy);
    expect(text).toContain(
      `Left logLevel (now "DEBUG", not the "SEVERE" this stack wrote: someone else changed it since) of the log settings of ${refreshed.emu.adminUrl}`,
    );
    expect(text).toContain(
      `Left WebContextURL (now "${OPERATOR.WebContextURL}", not the "${STACK.WebContextURL}" this stack wrote`,
    );
    expect(text).toContain(`Restored logLevel of the log settings of ${untouched.emu.adminUrl}`);
  });
});

it("a stack written before the package recorded what it wrote: destroy after the upgrade restores nothing and says so", async () => {
  const target = await server();
  // The package as it was, installed in the consumer project the stack runs in.
  const consumer = await consumerOfRelease(BEFORE_THE_RECORD);
  const stack = await keptStack("kept-older", consumer);
  const options = { config: config({ older: target.emu }, false) };
  const up = await stack.mustRun("up", options);
  expect(up.changeSummary).toMatchObject({ create: 3 });
  // That package has no record to show.
  expect(JSON.stringify(up.outputs)).not.toContain("written");
  expect(await held(target.session)).toEqual(STACK);

  // The upgrade: the package of this tree in place of the older one, as `npm install` would.
  await upgradePackage(consumer);

  const destroy = await stack.mustRun("destroy", options);
  expect(await held(target.session)).toEqual(STACK);
  const text = said(destroy);
  for (const key of ["logLevel", "WebContextURL"]) {
    expect(text).toMatch(
      new RegExp(`Left ${key} \\(now [^)]*; the stack's state was written by an earlier version`),
    );
  }
});

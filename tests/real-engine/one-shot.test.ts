/**
 * The one-shot guards of SiteImport and LogSettings through the real Pulumi engine, from the
 * packed package (issue defects 2 and 4):
 * - a checksum added to the same archive, and another spelling of the site's URL, are updates of
 *   state: importSite is never sent a second time for the same archive on the same site;
 * - a forced `pulumi up --replace` of a LogSettings with `restoreOnDestroy` leaves the declared
 *   settings on the server (the old resource is deleted first, then the new one writes), where a
 *   create-before-delete replacement would end with the old one's restore undoing the new one.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { closeDispatchers, createAdminSession, getLogSettings } from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { archiveOf } from "../../tools/harness/site-stacks";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s.
jest.setTimeout(300_000);

const PASSWORD = "one-Shot-Pass-72";

let emu: TestEmulator;
let stack: RealStack;
let folder: string;
let archive: string;
let config: Record<string, ConfigValue>;

afterAll(() => closeDispatchers());

const serverLevel = async (): Promise<unknown> =>
  (
    await getLogSettings(
      createAdminSession({
        adminUrl: emu.adminUrl,
        username: "siteadmin",
        password: PASSWORD,
        tls: { caCert: emu.caCert! },
      }),
    )
  ).logLevel;

const importRequests = () =>
  emu.requestLog().filter((r) => r.method === "POST" && r.url.includes("/importSite")).length;

const edits = () =>
  emu.requestLog().filter((r) => r.method === "POST" && r.url.includes("/logs/settings/edit"))
    .length;

async function stateOf(name: string): Promise<{ urn: string; outputs?: Record<string, unknown> }> {
  const exported = await stack.mustRun("export");
  return stateResources(exported.state).find((r) => r.urn.endsWith(`::${name}`))!;
}

beforeAll(async () => {
  folder = runTempDir("real-engine-one-shot-");
  archive = await archiveOf("mission-server", folder);
  emu = await startTestEmulator({ createDelayMs: 50, importDelayMs: 50 });
  stack = await RealStack.create("one-shot");
  fs.copyFileSync(path.join(__dirname, "restore-program.cjs"), stack.program);
  config = {
    serverType: { value: "mission-server" },
    adminUrl: { value: emu.adminUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: PASSWORD, secret: true },
    archive: { value: archive },
    logLevel: { value: "WARNING" },
    restoreOnDestroy: { value: "true" },
  };
  await stack.mustRun("up", { config });
  expect(importRequests()).toBe(1);
  expect(await serverLevel()).toBe("WARNING");
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
  if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
});

it("a checksum added to the same archive and a trailing slash on the site's URL restore nothing again", async () => {
  const sha = createHash("sha256").update(fs.readFileSync(archive)).digest("hex");
  const edited = {
    archiveSha256: { value: sha },
    adminUrlSuffix: { value: "/" },
  };
  const preview: RunResult = await stack.mustRun("preview", {
    config: edited,
    options: { diff: true },
  });
  // State-only updates: no replacement is announced for either resource.
  expect(preview.changeSummary?.replace ?? 0).toBe(0);
  expect(preview.output).not.toContain("(replace)");
  const up = await stack.mustRun("up");
  expect(up.changeSummary?.replace ?? 0).toBe(0);
  expect(importRequests()).toBe(1);
  expect(emu.stats()).toMatchObject({ importsStarted: 1, itemsUploaded: 1 });
  expect((await stateOf("restore")).outputs).toMatchObject({ archiveSha256: sha });
  // The restore did not run again: the declared level is still the one LogSettings wrote.
  expect(await serverLevel()).toBe("WARNING");
});

it("a forced replacement of LogSettings with restoreOnDestroy leaves the declared level on the server, and state agrees", async () => {
  const logs = await stateOf("logs");
  const before = edits();
  const replaced = await stack.mustRun("up", { options: { replace: [logs.urn] } });
  expect(replaced.changeSummary).toMatchObject({ replace: 1 });
  // Deleted first (restoring INFO), then created (recording INFO, writing WARNING).
  expect(await serverLevel()).toBe("WARNING");
  expect(edits() - before).toBe(2);
  const after = await stateOf("logs");
  expect(after.outputs).toMatchObject({
    logLevel: "WARNING",
    previousSettings: { logLevel: "INFO" },
    serverLogSettings: { logLevel: "WARNING" },
  });
  expect(importRequests()).toBe(1);
});

it("destroy restores the pre-stack level once and imports nothing", async () => {
  await stack.mustRun("destroy");
  expect(await serverLevel()).toBe("INFO");
  expect(importRequests()).toBe(1);
});

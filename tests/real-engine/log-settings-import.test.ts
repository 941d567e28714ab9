/**
 * LogSettings and SiteImport through the real Pulumi engine, from the packed package, against the
 * emulator of every product: on each product's fresh machine a Site, a SiteImport restoring a local
 * archive of another machine of the same product (uploaded first), and a LogSettings applied
 * after it. One stack declares the four products' resources, so each `pulumi` run below covers
 * every product (tests/real-engine/products-program.cjs). Preview with unknowns, up, up again, an
 * in-place update shown as exactly that field, refresh with drift, destroy (restoring the
 * previous log settings) and destroy again.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  closeDispatchers,
  createAdminSession,
  editLogSettings,
  getLogSettings,
  type ServerType,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { archiveOf } from "../../tools/harness/site-stacks";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const PASSWORD = "restore-Secret-Pass-81";
const PRODUCTS: ServerType[] = [
  "mission-server",
  "arcgis-server",
  "notebook-server",
  "video-server",
];
/** Resources per product (Site, SiteImport, LogSettings) and the stack itself. */
const ALL = 3 * PRODUCTS.length + 1;

afterAll(() => closeDispatchers());

describe(`LogSettings and SiteImport on ${PRODUCTS.join(", ")} through the real engine`, () => {
  const emulators = new Map<ServerType, TestEmulator>();
  let stack: RealStack;
  let folder: string;
  let config: Record<string, ConfigValue>;
  const printed: string[] = [];

  const run = async (...args: Parameters<RealStack["run"]>): Promise<RunResult> => {
    const result = await stack.run(...args);
    printed.push(result.output, result.error ?? "", result.stderr);
    return result;
  };
  const mustRun = async (...args: Parameters<RealStack["run"]>): Promise<RunResult> => {
    const result = await run(...args);
    if (!result.ok) throw new Error(`pulumi ${args[0]} failed:\n${result.output}\n${result.error}`);
    return result;
  };
  const sessionOf = (serverType: ServerType) => {
    const emu = emulators.get(serverType)!;
    return createAdminSession({
      adminUrl: emu.adminUrl,
      username: "siteadmin",
      password: PASSWORD,
      tls: { caCert: emu.caCert! },
    });
  };
  const serverLevels = async () =>
    Object.fromEntries(
      await Promise.all(
        PRODUCTS.map(async (p) => [p, (await getLogSettings(sessionOf(p))).logLevel] as const),
      ),
    );
  const every = <T>(value: T) => Object.fromEntries(PRODUCTS.map((p) => [p, value]));
  const stats = (key: "createNewSiteRequests" | "importsStarted" | "itemsUploaded") =>
    Object.fromEntries(PRODUCTS.map((p) => [p, emulators.get(p)!.stats()[key]]));
  const edits = () =>
    Object.fromEntries(
      PRODUCTS.map((p) => [
        p,
        emulators
          .get(p)!
          .requestLog()
          .filter((r) => r.method === "POST" && r.url.includes("/logs/settings/edit")).length,
      ]),
    );
  const added = (after: Record<string, number>, before: Record<string, number>) =>
    Object.fromEntries(PRODUCTS.map((p) => [p, after[p]! - before[p]!]));
  const outputsOf = (up: RunResult, name: string) =>
    Object.fromEntries(PRODUCTS.map((p) => [p, up.outputs?.[`${p}-${name}`]]));

  beforeAll(async () => {
    folder = runTempDir("real-engine-restore-");
    // The archives made and the emulators started side by side: each product's are its own.
    const products = await Promise.all(
      PRODUCTS.map(async (serverType) => {
        const own = fs.mkdirSync(path.join(folder, serverType), { recursive: true })!;
        const archive = await archiveOf(serverType, own);
        const emu = await startTestEmulator({ serverType, createDelayMs: 100, importDelayMs: 100 });
        emulators.set(serverType, emu);
        return { serverType, adminUrl: emu.adminUrl, caCert: emu.caCert!, archive };
      }),
    );
    stack = await RealStack.create("restore-products");
    fs.copyFileSync(path.join(__dirname, "products-program.cjs"), stack.program);
    config = {
      products: { value: JSON.stringify(products) },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: PASSWORD, secret: true },
      logLevel: { value: "WARNING" },
      restoreOnDestroy: { value: "true" },
    };
  }, 240_000);

  afterAll(async () => {
    await stack?.cleanup();
    for (const emu of emulators.values()) await emu.close();
    if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
  });

  it("previews the sites, the restores and the log settings with the values known only after apply unknown, sending nothing", async () => {
    const preview = await mustRun("preview", { config });
    expect(preview.changeSummary).toEqual({ create: ALL });
    for (const p of PRODUCTS) {
      expect(preview.output).toMatch(new RegExp(`${p}-fingerprint\\s*:\\s*\\[unknown\\]`));
      expect(preview.output).toMatch(new RegExp(`${p}-previousLogLevel\\s*:\\s*\\[unknown\\]`));
    }
    expect(stats("createNewSiteRequests")).toEqual(every(0));
    expect(stats("importsStarted")).toEqual(every(0));
    expect(stats("itemsUploaded")).toEqual(every(0));
    expect(edits()).toEqual(every(0));
  });

  it("check() stops a preview with a log level that does not exist, naming it", async () => {
    const bad = await run("preview", { config: { ...config, logLevel: { value: "LOUD" } } });
    expect(bad.ok).toBe(false);
    expect(`${bad.output}\n${bad.error}`).toMatch(/logLevel: must be one of OFF, SEVERE/);
    expect(stats("createNewSiteRequests")).toEqual(every(0));
    expect(stats("importsStarted")).toEqual(every(0));
    // Back to the config of the stack, for the next steps.
    await mustRun("preview", { config });
  });

  it("up restores each archive once (uploaded once), then applies the declared log level", async () => {
    const up = await mustRun("up");
    expect(up.changeSummary).toEqual({ create: ALL });
    expect(outputsOf(up, "outcome")).toEqual(every("imported"));
    for (const p of PRODUCTS) {
      expect(up.outputs?.[`${p}-fingerprint`]).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    // The restore brought the archive's INFO; LogSettings recorded it, then wrote WARNING.
    expect(outputsOf(up, "previousLogLevel")).toEqual(every("INFO"));
    expect(outputsOf(up, "logLevel")).toEqual(every("WARNING"));
    expect(await serverLevels()).toEqual(every("WARNING"));
    for (const emu of emulators.values()) {
      expect(emu.stats()).toMatchObject({
        itemsUploaded: 1,
        importsStarted: 1,
        importsCompleted: 1,
      });
    }
  });

  it("up again changes nothing and sends no import or edit", async () => {
    const before = edits();
    const again = await mustRun("up", { options: { expectNoChanges: true } });
    expect(again.changeSummary).toEqual({ same: ALL });
    expect(stats("itemsUploaded")).toEqual(every(1));
    expect(stats("importsStarted")).toEqual(every(1));
    expect(edits()).toEqual(before);
  });

  it("a changed logLevel is an in-place update of that field alone, written once", async () => {
    const before = edits();
    const diff = await mustRun("preview", {
      config: { logLevel: { value: "SEVERE" } },
      options: { diff: true },
    });
    const n = PRODUCTS.length;
    expect(diff.changeSummary).toEqual({ update: n, same: ALL - n });
    expect(diff.output).toMatch(/~\s*logLevel\s*:\s*"WARNING"\s*=>\s*"SEVERE"/);
    const changedLines = diff.output.split("\n").filter((l) => /^\s*[~+-]\s+[\w-]+\s*:\s/.test(l));
    // Each resource's logLevel, and the stack outputs that show it: nothing else changes.
    expect(changedLines.length).toBeGreaterThan(0);
    expect(changedLines.filter((l) => !/logLevel\b/.test(l))).toEqual([]);
    const up = await mustRun("up");
    expect(up.changeSummary).toEqual({ update: n, same: ALL - n });
    expect(outputsOf(up, "logLevel")).toEqual(every("SEVERE"));
    expect(outputsOf(up, "previousLogLevel")).toEqual(every("INFO"));
    expect(await serverLevels()).toEqual(every("SEVERE"));
    expect(added(edits(), before)).toEqual(every(1));
    expect(stats("importsStarted")).toEqual(every(1));
  });

  it("refresh reports a level changed behind the stack's back, and up writes the declared one back", async () => {
    // Behind one product's back: the others stay as declared.
    const [changed, ...others] = PRODUCTS;
    const session = sessionOf(changed!);
    await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "DEBUG" });
    const refreshed = await mustRun("refresh");
    expect(refreshed.changeSummary).toEqual({ update: 1, same: ALL - 1 });
    const exported = await mustRun("export");
    const logs = stateResources(exported.state).find((r) => r.urn.endsWith(`::logs-${changed}`))!;
    expect(logs.outputs).toMatchObject({
      logLevel: "DEBUG",
      serverLogSettings: { logLevel: "DEBUG" },
    });
    for (const p of others) {
      const other = stateResources(exported.state).find((r) => r.urn.endsWith(`::logs-${p}`))!;
      expect(other.outputs).toMatchObject({ logLevel: "SEVERE" });
    }
    const diff = await mustRun("preview", { options: { diff: true } });
    expect(diff.changeSummary).toEqual({ update: 1, same: ALL - 1 });
    expect(diff.output).toMatch(/~\s*logLevel\s*:\s*"DEBUG"\s*=>\s*"SEVERE"/);
    const up = await mustRun("up");
    expect(up.changeSummary).toEqual({ update: 1, same: ALL - 1 });
    expect(await serverLevels()).toEqual(every("SEVERE"));
    expect(stats("importsStarted")).toEqual(every(1));
  });

  it("keeps the password only encrypted in state and never prints it", async () => {
    const exported = await mustRun("export");
    expect(JSON.stringify(exported.state)).not.toContain(PASSWORD);
    for (const p of PRODUCTS) {
      for (const name of [`logs-${p}`, `restore-${p}`]) {
        const resource = stateResources(exported.state).find((r) => r.urn.endsWith(`::${name}`))!;
        expect(resource.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
      }
    }
    expect(printed.join("\n")).not.toContain(PASSWORD);
  });

  it("destroy restores the previous log settings and imports nothing; a second destroy finds nothing", async () => {
    const destroyed = await mustRun("destroy");
    expect(destroyed.changeSummary).toEqual({ delete: ALL });
    expect(await serverLevels()).toEqual(every("INFO"));
    expect(stats("importsStarted")).toEqual(every(1));
    const exported = await mustRun("export");
    expect(stateResources(exported.state)).toEqual([]);
    const again = await mustRun("destroy");
    expect(again.changeSummary ?? {}).toEqual({});
    expect(again.output).not.toMatch(/- \d+ deleted/);
  });
});

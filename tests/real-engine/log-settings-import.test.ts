/**
 * LogSettings and SiteImport through the real Pulumi engine, from the packed package, against the
 * emulator of every product: a fresh machine's Site, a SiteImport restoring a local archive of
 * another machine of the same product (uploaded first), and a LogSettings applied after it.
 * Preview with unknowns, up, up again, an in-place update shown as exactly that field, refresh
 * with drift, destroy (restoring the previous log settings) and destroy again.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  closeDispatchers,
  createAdminSession,
  editLogSettings,
  getLogSettings,
  type ServerType,
} from "../../provider/client";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { archiveOf, RealStack, stateResources, type ConfigValue, type RunResult } from "./support";

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

afterAll(() => closeDispatchers());

describe.each(PRODUCTS)(
  "LogSettings and SiteImport on %s through the real engine",
  (serverType) => {
    let emu: TestEmulator;
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
      if (!result.ok)
        throw new Error(`pulumi ${args[0]} failed:\n${result.output}\n${result.error}`);
      return result;
    };
    const serverLevel = async () =>
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
    const edits = () =>
      emu.requestLog().filter((r) => r.method === "POST" && r.url.includes("/logs/settings/edit"))
        .length;

    beforeAll(async () => {
      folder = fs.mkdtempSync(path.join(os.tmpdir(), "real-engine-restore-"));
      const archive = await archiveOf(serverType, folder);
      emu = await startTestEmulator({ serverType, createDelayMs: 100, importDelayMs: 100 });
      stack = await RealStack.create(`restore-${serverType}`);
      fs.copyFileSync(path.join(__dirname, "restore-program.cjs"), stack.program);
      config = {
        serverType: { value: serverType },
        adminUrl: { value: emu.adminUrl },
        caCert: { value: emu.caCert! },
        siteUsername: { value: "siteadmin" },
        sitePassword: { value: PASSWORD, secret: true },
        archive: { value: archive },
        logLevel: { value: "WARNING" },
        restoreOnDestroy: { value: "true" },
      };
    }, 240_000);

    afterAll(async () => {
      await stack?.cleanup();
      await emu?.close();
      if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
    });

    it("previews the site, the restore and the log settings with the values known only after apply unknown, sending nothing", async () => {
      const preview = await mustRun("preview", { config });
      expect(preview.changeSummary).toEqual({ create: 4 });
      expect(preview.output).toMatch(/fingerprint\s*:\s*\[unknown\]/);
      expect(preview.output).toMatch(/previousLogLevel\s*:\s*\[unknown\]/);
      expect(emu.stats()).toMatchObject({
        createNewSiteRequests: 0,
        importsStarted: 0,
        itemsUploaded: 0,
      });
      expect(edits()).toBe(0);
    });

    it("check() stops a preview with a log level that does not exist, naming it", async () => {
      const bad = await run("preview", { config: { ...config, logLevel: { value: "LOUD" } } });
      expect(bad.ok).toBe(false);
      expect(`${bad.output}\n${bad.error}`).toMatch(/logLevel: must be one of OFF, SEVERE/);
      expect(emu.stats()).toMatchObject({ createNewSiteRequests: 0, importsStarted: 0 });
      // Back to the config of the stack, for the next steps.
      await mustRun("preview", { config });
    });

    it("up restores the archive once (uploaded once), then applies the declared log level", async () => {
      const up = await mustRun("up");
      expect(up.changeSummary).toEqual({ create: 4 });
      expect(up.outputs?.outcome).toBe("imported");
      expect(up.outputs?.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
      // The restore brought the archive's INFO; LogSettings recorded it, then wrote WARNING.
      expect(up.outputs?.previousLogLevel).toBe("INFO");
      expect(up.outputs?.logLevel).toBe("WARNING");
      expect(await serverLevel()).toBe("WARNING");
      expect(emu.stats()).toMatchObject({
        itemsUploaded: 1,
        importsStarted: 1,
        importsCompleted: 1,
      });
    });

    it("up again changes nothing and sends no import or edit", async () => {
      const before = edits();
      const again = await mustRun("up", { options: { expectNoChanges: true } });
      expect(again.changeSummary).toEqual({ same: 4 });
      expect(emu.stats()).toMatchObject({ itemsUploaded: 1, importsStarted: 1 });
      expect(edits()).toBe(before);
    });

    it("a changed logLevel is an in-place update of that field alone, written once", async () => {
      const before = edits();
      const diff = await mustRun("preview", {
        config: { logLevel: { value: "SEVERE" } },
        options: { diff: true },
      });
      expect(diff.changeSummary).toEqual({ update: 1, same: 3 });
      expect(diff.output).toMatch(/~\s*logLevel\s*:\s*"WARNING"\s*=>\s*"SEVERE"/);
      const changedLines = diff.output.split("\n").filter((l) => /^\s*[~+-]\s+\w+\s*:/.test(l));
      // The resource's logLevel, and the stack output that shows it: nothing else changes.
      expect(changedLines.length).toBeGreaterThan(0);
      expect(changedLines.filter((l) => !/\blogLevel\b/.test(l))).toEqual([]);
      const up = await mustRun("up");
      expect(up.changeSummary).toEqual({ update: 1, same: 3 });
      expect(up.outputs?.logLevel).toBe("SEVERE");
      expect(up.outputs?.previousLogLevel).toBe("INFO");
      expect(await serverLevel()).toBe("SEVERE");
      expect(edits() - before).toBe(1);
      expect(emu.stats().importsStarted).toBe(1);
    });

    it("refresh reports a level changed behind the stack's back, and up writes the declared one back", async () => {
      const session = createAdminSession({
        adminUrl: emu.adminUrl,
        username: "siteadmin",
        password: PASSWORD,
        tls: { caCert: emu.caCert! },
      });
      await editLogSettings(session, { ...(await getLogSettings(session)), logLevel: "DEBUG" });
      const refreshed = await mustRun("refresh");
      expect(refreshed.changeSummary).toEqual({ update: 1, same: 3 });
      const exported = await mustRun("export");
      const logs = stateResources(exported.state).find((r) => r.urn.endsWith("::logs"))!;
      expect(logs.outputs).toMatchObject({
        logLevel: "DEBUG",
        serverLogSettings: { logLevel: "DEBUG" },
      });
      const diff = await mustRun("preview", { options: { diff: true } });
      expect(diff.changeSummary).toEqual({ update: 1, same: 3 });
      expect(diff.output).toMatch(/~\s*logLevel\s*:\s*"DEBUG"\s*=>\s*"SEVERE"/);
      const up = await mustRun("up");
      expect(up.changeSummary).toEqual({ update: 1, same: 3 });
      expect(await serverLevel()).toBe("SEVERE");
      expect(emu.stats().importsStarted).toBe(1);
    });

    it("keeps the password only encrypted in state and never prints it", async () => {
      const exported = await mustRun("export");
      expect(JSON.stringify(exported.state)).not.toContain(PASSWORD);
      for (const name of ["logs", "restore"]) {
        const resource = stateResources(exported.state).find((r) => r.urn.endsWith(`::${name}`))!;
        expect(resource.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
      }
      expect(printed.join("\n")).not.toContain(PASSWORD);
    });

    it("destroy restores the previous log settings and imports nothing; a second destroy finds nothing", async () => {
      const destroyed = await mustRun("destroy");
      expect(destroyed.changeSummary).toEqual({ delete: 4 });
      expect(await serverLevel()).toBe("INFO");
      expect(emu.stats().importsStarted).toBe(1);
      const exported = await mustRun("export");
      expect(stateResources(exported.state)).toEqual([]);
      const again = await mustRun("destroy");
      expect(again.changeSummary ?? {}).toEqual({});
      expect(again.output).not.toMatch(/- \d+ deleted/);
    });
  },
);

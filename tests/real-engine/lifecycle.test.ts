/**
 * The quick start's resources through the real Pulumi engine (the `pulumi` CLI, a local file
 * backend, local-kms for the secrets), from the packed package installed in a consumer
 * project, against a real emulator: preview, up, up again, a rejected change, secrets in the
 * state file and in the engine's output, destroy and destroy again.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { stateResources } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";

// A test here runs the pulumi CLI up to four times; on a loaded machine one run can take 30 s
// or more, so the default 60 s per test would fail a test that is only slow.
jest.setTimeout(300_000);

const SITE_PASSWORD = "site-Secret-Pass-71";
const PORTAL_PASSWORD = "portal-Secret-Pass-72";
const CONNECTION_SECRET = "azure-Conn-Secret-73";
/** An emulator token: base64url JSON claims, a dot, a signature. */
const TOKEN_PATTERN = /eyJ[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/;

let emu: TestEmulator;
let stack: RealStack;
let downloadDir: string;
let config: Record<string, ConfigValue>;
/** Everything the engine printed in this file's runs. */
const printed: string[] = [];

async function run(...args: Parameters<RealStack["run"]>): Promise<RunResult> {
  const result = await stack.run(...args);
  printed.push(result.output, result.error ?? "", result.stderr);
  return result;
}

async function mustRun(...args: Parameters<RealStack["run"]>): Promise<RunResult> {
  const result = await run(...args);
  if (!result.ok) throw new Error(`pulumi ${args[0]} failed:\n${result.output}\n${result.error}`);
  return result;
}

beforeAll(async () => {
  emu = await startTestEmulator({
    createDelayMs: 300,
    seed: portalSeed([{ username: "gisadmin", password: PORTAL_PASSWORD, role: "org_admin" }]),
  });
  stack = await RealStack.create("lifecycle");
  downloadDir = runTempDir("real-engine-downloads-");
  config = {
    adminUrl: { value: emu.adminUrl },
    sharingUrl: { value: emu.sharingUrl },
    caCert: { value: emu.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    portalUsername: { value: "gisadmin" },
    portalPassword: { value: PORTAL_PASSWORD, secret: true },
    connectionSecret: { value: CONNECTION_SECRET, secret: true },
    collaborationId: { value: "hosted1" },
    downloadDir: { value: downloadDir },
  };
}, 240_000);

afterAll(async () => {
  await stack?.cleanup();
  await emu?.close();
  if (downloadDir !== undefined) fs.rmSync(downloadDir, { recursive: true, force: true });
});

describe("pulumi preview of a new stack", () => {
  it("plans every resource with the values known only after apply shown as unknown, and sends nothing", async () => {
    const preview = await mustRun("preview", { config });
    expect(preview.changeSummary).toEqual({ create: 4 });
    expect(preview.output).toMatch(/\+ 4 to create/);
    // The site's state and the export's file exist only once applied.
    expect(preview.output).toMatch(/siteState\s*:\s*\[unknown\]/);
    expect(preview.output).toMatch(/backupFile\s*:\s*\[unknown\]/);
    expect(preview.output).toMatch(/backupSha256\s*:\s*\[unknown\]/);
    expect(emu.stats().createNewSiteRequests).toBe(0);
    expect(emu.stats().exportsStarted).toBe(0);
  });
});

describe("pulumi up", () => {
  let up: RunResult;

  beforeAll(async () => {
    up = await mustRun("up");
  }, 120_000);

  it("creates the site, downloads the export and confirms the collaboration", () => {
    expect(up.changeSummary).toEqual({ create: 4 });
    expect(up.output).toMatch(/\+ 4 created/);
    expect(up.outputs?.siteState).toBe("created");
    expect(up.outputs?.collaborationName).toBe("Regional partners");
    const file = up.outputs?.backupFile as string;
    expect(path.dirname(file)).toBe(downloadDir);
    expect(fs.existsSync(file)).toBe(true);
    expect(emu.stats().createNewSiteRequests).toBe(1);
    expect(emu.stats().exportsCompleted).toBe(1);
  });

  it("finds nothing to change the second time (and sends no createNewSite or export)", async () => {
    const again = await mustRun("up", { options: { expectNoChanges: true } });
    expect(again.changeSummary).toEqual({ same: 4 });
    expect(again.output).toMatch(/4 unchanged/);
    expect(emu.stats().createNewSiteRequests).toBe(1);
    expect(emu.stats().exportsStarted).toBe(1);
  });

  it("fails `preview --diff` on a changed site-defining input, naming it, as docs/site.md promises", async () => {
    const directories = [
      { name: "arcgissystem", physicalPath: "/srv/arcgis/system", directoryType: "SYSTEM" },
    ];
    const changed = await run("preview", {
      config: { siteExtra: { value: JSON.stringify({ directories }) } },
      options: { diff: true },
    });
    expect(changed.ok).toBe(false);
    const shown = `${changed.output}\n${changed.error}`;
    expect(shown).toMatch(/Cannot change directories/);
    expect(shown).toMatch(/createNewSite cannot run on it again/);
    // A problem the user can fix, shown without a JavaScript stack trace.
    expect(shown).not.toContain("    at ");
    expect(emu.stats().createNewSiteRequests).toBe(1);
    // Back to the deployed config, for the next tests.
    await mustRun("preview", {
      config: { siteExtra: { value: "{}" } },
      options: { expectNoChanges: true },
    });
  });

  it("takes a rotated password as an update of state, never a replacement", async () => {
    const rotated = await run("preview", {
      config: { sitePassword: { value: "rotated-Not-On-Server-1", secret: true } },
      options: { diff: true },
    });
    expect(rotated.ok).toBe(true);
    expect(rotated.changeSummary?.update).toBeGreaterThanOrEqual(1);
    expect(rotated.changeSummary).not.toHaveProperty("replace");
    expect(rotated.changeSummary).not.toHaveProperty("delete");
    expect(rotated.output).not.toContain("rotated-Not-On-Server-1");
    await mustRun("preview", {
      config: { sitePassword: { value: SITE_PASSWORD, secret: true } },
      options: { expectNoChanges: true },
    });
  });
});

describe("secrets", () => {
  it("stores passwords and the connection secret only encrypted in `pulumi stack export`", async () => {
    const exported = await mustRun("export");
    const text = JSON.stringify(exported.state);
    for (const secret of [SITE_PASSWORD, PORTAL_PASSWORD, CONNECTION_SECRET]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(TOKEN_PATTERN);
    const site = stateResources(exported.state).find((r) => r.urn.endsWith("::site"))!;
    // Encrypted, not dropped: the secret sentinel with a ciphertext.
    expect(site.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
    expect(site.outputs?.configStoreConnection).toMatchObject({ ciphertext: expect.any(String) });
    const collaboration = stateResources(exported.state).find((r) => r.urn.endsWith("::partners"))!;
    expect(collaboration.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
    const backup = stateResources(exported.state).find((r) => r.urn.endsWith("::backup"))!;
    expect(backup.outputs?.password).toMatchObject({ ciphertext: expect.any(String) });
  });

  it("leaves no password, token or connection secret in plain text in the backend's files", () => {
    const files = stack.backendFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const { file, text } of files) {
      for (const secret of [SITE_PASSWORD, PORTAL_PASSWORD, CONNECTION_SECRET]) {
        if (text.includes(secret)) throw new Error(`${file} holds a secret in plain text`);
      }
      expect(text).not.toMatch(TOKEN_PATTERN);
    }
    // The stack's config file (Pulumi.<stack>.yaml) keeps them encrypted too.
    const stackConfig = fs.readFileSync(
      path.join(stack.projectDir, "Pulumi.lifecycle.yaml"),
      "utf8",
    );
    for (const secret of [SITE_PASSWORD, PORTAL_PASSWORD, CONNECTION_SECRET]) {
      expect(stackConfig).not.toContain(secret);
    }
    // With the harness's KMS key (tools/harness/kms.ts), not a passphrase.
    expect(stackConfig).toMatch(/^secretsprovider: awskms:\/\/alias\//m);
    expect(stackConfig).not.toMatch(/^encryptionsalt:/m);
  });

  it("never prints one in the engine's output", () => {
    const all = printed.join("\n");
    expect(all.length).toBeGreaterThan(1000);
    for (const secret of [SITE_PASSWORD, PORTAL_PASSWORD, CONNECTION_SECRET]) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toMatch(TOKEN_PATTERN);
  });
});

describe("pulumi destroy", () => {
  it("deletes the collaboration and empties the stack; a second destroy finds nothing to do", async () => {
    const deletes = () =>
      emu
        .requestLog()
        .filter((r) => r.method === "POST" && r.url.endsWith("/collaborations/hosted1/delete"));
    const destroyed = await mustRun("destroy");
    expect(destroyed.changeSummary).toEqual({ delete: 4 });
    expect(destroyed.output).toMatch(/- 4 deleted/);
    expect(deletes()).toHaveLength(1);
    const exported = await mustRun("export");
    expect(stateResources(exported.state)).toEqual([]);
    const again = await mustRun("destroy");
    expect(again.changeSummary ?? {}).toEqual({});
    expect(again.output).not.toMatch(/- \d+ deleted/);
    expect(deletes()).toHaveLength(1);
  });
});

/**
 * The wording of the errors as the engine shows them (issue 38, item 5), through the real
 * `pulumi` CLI on both paths: a TypeScript program (Pulumi's dynamic-provider host) and a Pulumi
 * YAML program (the plugin). tests/plugin/wording.test.ts holds each sentence exactly; this
 * suite proves that what the user reads in the CLI's output says it once, names the input and
 * carries no runtime's words, and that `preview --diff` never prints a certificate's PEM.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { X509Certificate } from "node:crypto";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { CliProject, type CliResult } from "../../tools/harness/cli-project";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue, RunResult } from "../../tools/harness/stack-types";
import { engineEventsOf, type Diagnostic } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";

jest.setTimeout(300_000);

const SITE_PASSWORD = "wording-Engine-Site-1";
const PORTAL = { username: "gisadmin", password: "wording-Engine-Portal-1" };
const WRONG = "wording-Engine-Wrong-9";

let emu: TestEmulator;
/** A machine of its own for the certificate test (the portal test leaves a site on `emu`). */
let other: TestEmulator;
let downloadDir: string;
const stacks: RealStack[] = [];
let project: CliProject | undefined;

beforeAll(async () => {
  emu = await startTestEmulator({
    createDelayMs: 50,
    seed: portalSeed([{ ...PORTAL, role: "org_admin" }]),
  });
  other = await startTestEmulator({ createDelayMs: 50 });
  downloadDir = runTempDir("wording-downloads-");
}, 60_000);

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  await project?.cleanup();
  await emu?.close();
  await other?.close();
  if (downloadDir !== undefined) fs.rmSync(downloadDir, { recursive: true, force: true });
});

/** Everything the CLI printed: its display, its stderr and the engine's diagnostic events. */
function printed(result: { output?: string; stdout?: string; stderr: string }): string {
  return `${result.output ?? result.stdout ?? ""}\n${result.stderr}`;
}

/** How many times `text` occurs in `within`. */
function count(within: string, text: string): number {
  return within.split(text).length - 1;
}

/** No validator's or runtime's words, no stack trace. */
function expectNoRuntimeWords(text: string): void {
  expect(text).not.toMatch(/Invalid input|expected string|received (undefined|null)/);
  expect(text).not.toMatch(/Node\.js|--use-system-ca/);
  expect(text).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
}

/** The diagnostics' messages that contain `text`. */
function diagnosticsWith(result: RunResult, text: string): string[] {
  return (result.diagnostics ?? []).map((d) => d.message).filter((m) => m.includes(text));
}

function siteConfig(
  extra: Record<string, ConfigValue> = {},
  on: TestEmulator = emu,
): Record<string, ConfigValue> {
  return {
    adminUrl: { value: on.adminUrl },
    caCert: { value: on.caCert! },
    siteUsername: { value: "siteadmin" },
    sitePassword: { value: SITE_PASSWORD, secret: true },
    siteOnly: { value: "true" },
    ...extra,
  };
}

async function stackNamed(name: string): Promise<RealStack> {
  const stack = await RealStack.create(name);
  stacks.push(stack);
  return stack;
}

describe("dynamic resources (TypeScript), as the CLI prints them", () => {
  it("a missing password: required, where it can come from, once, in no validator's words", async () => {
    const stack = await stackNamed("wording-missing");
    const before = emu.requestLog().length;
    const preview = await stack.run("preview", {
      config: siteConfig({ siteExtra: { value: JSON.stringify({ password: null }) } }),
    });
    expect(preview.ok).toBe(false);
    // The program's own class says it (before any provider runs), in its own words.
    const said = diagnosticsWith(preview, "password is required");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^Site "site": password is required\. Give it as the argument password/,
    );
    expect(said[0]).toContain("stack config arcgis-admin:password");
    expect(said[0]).toContain("ARCGIS_ADMIN_PASSWORD");
    expectNoRuntimeWords(printed(preview));
    expect(emu.requestLog().slice(before)).toEqual([]);
  });

  it("a refused portal password names the inputs that hold it, once, and never the password", async () => {
    const stack = await stackNamed("wording-portal");
    const up = await stack.run("up", {
      config: {
        ...siteConfig({ siteOnly: { value: "false" } }),
        sharingUrl: { value: emu.sharingUrl },
        portalUsername: { value: PORTAL.username },
        portalPassword: { value: WRONG, secret: true },
        collaborationId: { value: "hosted1" },
        downloadDir: { value: downloadDir },
      },
    });
    expect(up.ok).toBe(false);
    const said = diagnosticsWith(up, "refused the username");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/check the arguments username and password/);
    expect(said[0]).toContain("arcgis-admin:portalPassword");
    // Said once: one diagnostic, and within it each sentence once.
    expect(count(said[0]!, "Waiting cannot change this")).toBe(1);
    expect(count(said[0]!, "refused the username")).toBe(1);
    expect(printed(up)).not.toMatch(/generateToken on/);
    expect(printed(up)).not.toContain(WRONG);
    expectNoRuntimeWords(printed(up));
    await stack.mustRun("destroy");
  });

  it("`preview --diff` names a changed CA certificate by its fingerprint, never its PEM", async () => {
    const stack = await stackNamed("wording-ca");
    await stack.mustRun("up", { config: siteConfig({}, other) });
    const bundle = `${other.caCert!.trim()}\n${other.caCert!.trim()}\n`;
    const preview = await stack.mustRun("preview", {
      config: siteConfig({ caCert: { value: bundle } }, other),
      options: { diff: true },
    });
    const fingerprint = new X509Certificate(other.caCert!).fingerprint256;
    expect(diagnosticsWith(preview, `tls.caCert changes from SHA-256 ${fingerprint}`)).toHaveLength(
      1,
    );
    // What the provider says names fingerprints only, and the CLI's own `--diff` display shows the
    // certificate as a secret: check hands it back marked so.
    const shown = (preview.diagnostics ?? []).filter((d) => d.severity !== "debug");
    for (const d of shown) expect(d.message).not.toContain("BEGIN CERTIFICATE");
    expect(printed(preview)).toMatch(/caCert\s*:\s*\[secret\]/);
    expect(printed(preview)).not.toContain("BEGIN CERTIFICATE");
    expect(printed(preview)).not.toContain("MII");
    await stack.mustRun("destroy");
  });
});

/** `pulumi <op>` in the YAML project, failing or not, with the engine's diagnostics. */
async function yamlRun(op: "preview" | "up"): Promise<CliResult & { diagnostics: Diagnostic[] }> {
  const events = path.join(project!.dir, `events-${op}-${Date.now()}.jsonl`);
  const args = [op, ...(op === "up" ? ["--yes"] : []), "--event-log", events];
  const result = await project!.cli(args, 240_000);
  expect(result.code).not.toBe(0);
  return { ...result, diagnostics: engineEventsOf(events).diagnostics };
}

describe("the plugin (Pulumi YAML), as the CLI prints it", () => {
  it("a missing password and an untrusted certificate, each once, without Node.js's advice", async () => {
    project = await CliProject.yaml("arcgis-wording-yaml", [
      "  site:",
      "    type: arcgis-admin:index:Site",
      "    properties:",
      `      adminUrl: ${emu.adminUrl}`,
      "      username: siteadmin",
    ]);
    const missing = await yamlRun("preview");
    const said = (missing.diagnostics ?? [])
      .map((d) => d.message)
      .filter((m) => m.includes("password: is required"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("Set it as the resource's property password");
    expect(said[0]).not.toMatch(/argument/);
    expectNoRuntimeWords(printed(missing));

    // The password from secret stack config beside the username property, as in a TypeScript
    // program; then the emulator's self-signed CA is not trusted (no tls.caCert given).
    await project.mustCli(
      ["config", "set", "--secret", "arcgis-admin:password"],
      undefined,
      SITE_PASSWORD,
    );
    const untrusted = await yamlRun("up");
    const trust = (untrusted.diagnostics ?? [])
      .map((d) => d.message)
      .filter((m) => m.includes("is not trusted"));
    expect(trust).toHaveLength(1);
    expect(trust[0]).toContain("tls.caCert");
    expectNoRuntimeWords(printed(untrusted));
    expect(printed(untrusted)).not.toContain(SITE_PASSWORD);
  });
});

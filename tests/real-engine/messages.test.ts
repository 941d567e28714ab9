/**
 * What the resources tell the user, through the real engine, on both paths: read from the
 * engine's own output (its event log's diagnostic events, which carry the URN the display groups
 * them by, and the CLI's display).
 *
 * - Dynamic resources (a TypeScript program, Pulumi's dynamic-provider host): each message reaches
 *   the engine's log once, as a message of its own (not a `[runtime]` line of the host's stdout),
 *   under the stack, since the host does not tell a provider which resource a step is for.
 * - The plugin (a Pulumi YAML program): each message is filed under the URN of its resource.
 * - A plain-http adminUrl is warned about exactly once per run, by `preview --diff` too, though
 *   two resources check it (a Site, and a SiteExport given the Site's adminUrl).
 *
 * The YAML and Python quick starts check their destroy's messages too
 * (quickstart-yaml.test.ts, quickstart-python.test.ts).
 */
import * as fs from "node:fs";
import { portalSeed, startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import { CliProject } from "../../tools/harness/cli-project";
import { RealStack } from "../../tools/harness/real-stack";
import type { ConfigValue } from "../../tools/harness/stack-types";
import type { Diagnostic } from "../../tools/harness/engine-events";
import { runTempDir } from "../../tools/harness/temp";

jest.setTimeout(300_000);

const SITE_PASSWORD = "messages-Site-Pass-1";
const PORTAL = { username: "gisadmin", password: "messages-Portal-1" };
const PLAIN_HTTP = /adminUrl http:\/\/127\.0\.0\.1:\d+\/arcgis\/admin is plain http: the password/;

let emu: TestEmulator;
let plain: TestEmulator;
let downloadDir: string;
const stacks: RealStack[] = [];
let project: CliProject | undefined;

beforeAll(async () => {
  emu = await startTestEmulator({
    createDelayMs: 100,
    exportDelayMs: 20,
    seed: portalSeed([{ ...PORTAL, role: "org_admin" }]),
  });
  plain = await startTestEmulator({
    tls: false,
    createDelayMs: 100,
    exportDelayMs: 20,
    seed: portalSeed([{ ...PORTAL, role: "org_admin" }]),
  });
  downloadDir = runTempDir("real-engine-messages-");
}, 60_000);

afterAll(async () => {
  for (const stack of stacks) await stack.cleanup();
  await project?.cleanup();
  await emu?.close();
  await plain?.close();
  if (downloadDir !== undefined) fs.rmSync(downloadDir, { recursive: true, force: true });
});

/** The diagnostics whose text matches. */
function matching(diagnostics: Diagnostic[] | undefined, pattern: RegExp): Diagnostic[] {
  return (diagnostics ?? []).filter((d) => pattern.test(d.message));
}

/**
 * The lines of the CLI's display that match, on stdout and stderr: with `--diff`, the display
 * prints warnings on stderr, and nothing under a resource's heading.
 */
function linesMatching(printed: { stdout: string; stderr: string }, pattern: RegExp): string[] {
  return `${printed.stdout}\n${printed.stderr}`.split("\n").filter((line) => pattern.test(line));
}

/** The URN's type and name: `arcgis-admin:index:Site::site`. */
function typeAndName(urn: string): string {
  return urn.split("::").slice(2).join("::");
}

describe("dynamic resources (TypeScript)", () => {
  it("destroy tells, once each and through the engine's log, what each resource did", async () => {
    const stack = await RealStack.create("messages");
    stacks.push(stack);
    const config: Record<string, ConfigValue> = {
      adminUrl: { value: emu.adminUrl },
      sharingUrl: { value: emu.sharingUrl },
      caCert: { value: emu.caCert! },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: SITE_PASSWORD, secret: true },
      portalUsername: { value: PORTAL.username },
      portalPassword: { value: PORTAL.password, secret: true },
      collaborationId: { value: "hosted1" },
      downloadDir: { value: downloadDir },
    };
    await stack.mustRun("up", { config });
    const destroyed = await stack.mustRun("destroy");
    for (const pattern of [
      /^The site at https:\/\/127\.0\.0\.1:\d+\/arcgis\/admin was left running/,
      /^Deleted the collaboration/,
      /^Kept the site export /,
    ]) {
      // A message of its own (the host's stdout would make it `info: [runtime] ...`), once, under
      // the stack: the dynamic-provider host does not give a step its resource's URN.
      const found = matching(destroyed.diagnostics, pattern);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ urn: "", severity: "info" });
      expect(
        linesMatching(
          { stdout: destroyed.output, stderr: destroyed.stderr },
          new RegExp(pattern.source.slice(1)),
        ),
      ).not.toEqual([]);
    }
    expect(destroyed.output).not.toContain("[runtime]");
    expect(destroyed.output).not.toContain(SITE_PASSWORD);
  });

  it("warns of a plain-http adminUrl once per run, at `preview --diff` and at `up`", async () => {
    const stack = await RealStack.create("plainhttp");
    stacks.push(stack);
    // The Site and the SiteExport (given the Site's adminUrl) both check the URL.
    const config: Record<string, ConfigValue> = {
      adminUrl: { value: plain.adminUrl },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: "messages-Plain-Http-1", secret: true },
      sharingUrl: { value: plain.sharingUrl },
      portalUsername: { value: PORTAL.username },
      portalPassword: { value: PORTAL.password, secret: true },
      collaborationId: { value: "hosted1" },
      downloadDir: { value: downloadDir },
    };
    const preview = await stack.mustRun("preview", { config, options: { diff: true } });
    expect(matching(preview.diagnostics, PLAIN_HTTP)).toEqual([
      expect.objectContaining({ urn: "", severity: "warning" }),
    ]);
    expect(linesMatching({ stdout: preview.output, stderr: preview.stderr }, PLAIN_HTTP)).toEqual([
      expect.stringMatching(/^warning: adminUrl/),
    ]);

    // check, then create (the SiteExport's check once the Site's adminUrl is known): one warning.
    const up = await stack.mustRun("up");
    expect(matching(up.diagnostics, PLAIN_HTTP)).toHaveLength(1);
    // A run whose site exists (both resources' checks see the URL): check, then diff.
    const again = await stack.mustRun("preview", { options: { diff: true } });
    expect(matching(again.diagnostics, PLAIN_HTTP)).toHaveLength(1);
    expect(linesMatching({ stdout: again.output, stderr: again.stderr }, PLAIN_HTTP)).toHaveLength(
      1,
    );
    await stack.mustRun("destroy");
  });
});

describe("the plugin (Pulumi YAML)", () => {
  it("files the plain-http warning of `preview --diff` once, under its resource", async () => {
    project = await CliProject.yaml("arcgis-messages-yaml", [
      "  site:",
      "    type: arcgis-admin:index:Site",
    ]);
    await project.mustCli([
      "config",
      "set-all",
      ...["--plaintext", `arcgis-admin:adminUrl=${plain.adminUrl}`],
      ...["--plaintext", "arcgis-admin:username=siteadmin"],
    ]);
    await project.setSecrets({ "arcgis-admin:password": "messages-Yaml-Http-1" });
    const preview = await project.deploy("preview", ["--diff"]);
    const found = matching(preview.diagnostics, PLAIN_HTTP);
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe("warning");
    expect(typeAndName(found[0]!.urn)).toBe("arcgis-admin:index:Site::site");
    expect(linesMatching(preview, PLAIN_HTTP)).toEqual([
      expect.stringMatching(/^warning: adminUrl/),
    ]);
    expect(preview.stdout).not.toContain("[runtime]");
  });
});

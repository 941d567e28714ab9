/**
 * Ctrl-C during the wait for a server that does not answer (nothing listens at `adminUrl`), before
 * anything was sent, through the real CLI:
 *
 * - The plugin (a Pulumi YAML program): the engine's Cancel ends the wait at once. `pulumi up`
 *   ends within 10 s of the SIGINT, says nothing was sent, leaves no pending operation, and the
 *   next `pulumi up` against a server that answers creates the site.
 * - Dynamic resources (a TypeScript program): Pulumi's dynamic-provider host ignores Cancel, so the
 *   first waiting message says how long the wait lasts, which input shortens it, that Ctrl-C
 *   twice is safe while nothing was sent, and the recovery; pressed twice, the recovery it names
 *   leaves no pending operation and the next `pulumi up` creates the site.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CliProject } from "../../tools/harness/cli-project";
import { startTestEmulator, type TestEmulator } from "../../tools/harness/emulator";
import {
  clearPendingCreates,
  closeAfterAll,
  pendingOperations,
  stack,
} from "../../tools/harness/killed-run";
import { closedPort, closedPortToBindLater } from "../../tools/harness/servers";
import type { ConfigValue } from "../../tools/harness/stack-types";
import { until } from "../../tools/harness/until";

jest.setTimeout(300_000);

const SITE_PASSWORD = "cancel-Wait-Pass-1";

let emu: TestEmulator;
let project: CliProject | undefined;

beforeAll(async () => {
  emu = await startTestEmulator({ tls: false, createDelayMs: 100 });
}, 60_000);

closeAfterAll();
afterAll(async () => {
  await project?.cleanup();
  await emu?.close();
});

/** An administrative root where nothing listens. */
async function deadAdminUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/arcgis/admin`;
}

describe("the plugin (Pulumi YAML)", () => {
  it("Ctrl-C during the wait for a server that does not answer ends `pulumi up` within 10 s with no pending operation; the next `pulumi up` creates the site", async () => {
    project = await CliProject.yaml("arcgis-cancel-yaml", [
      "  site:",
      "    type: arcgis-admin:index:Site",
    ]);
    // The server of this port starts after the cancel: `pulumi up` again once it answers.
    const port = await closedPortToBindLater();
    const dead = `http://127.0.0.1:${port}/arcgis/admin`;
    await project.mustCli([
      "config",
      "set-all",
      ...["--plaintext", `arcgis-admin:adminUrl=${dead}`],
      ...["--plaintext", "arcgis-admin:username=siteadmin"],
    ]);
    await project.setSecrets({ "arcgis-admin:password": SITE_PASSWORD });

    const events = path.join(project.tmp, "cancelled-up.jsonl");
    let pid = 0;
    const running = project.cli(
      ["up", "--yes", "--skip-preview", "--event-log", events],
      120_000,
      undefined,
      (p) => (pid = p),
    );
    // The wait's first message reached the engine: the create is waiting, nothing was sent.
    await until(
      () => fs.existsSync(events) && fs.readFileSync(events, "utf8").includes("to answer: "),
      "the first message of the wait",
      120_000,
    );
    const signalled = Date.now();
    process.kill(pid, "SIGINT");
    const up = await running;
    const afterSignalMs = Date.now() - signalled;
    const printed = `${up.stdout}\n${up.stderr}`;
    expect(up.code).not.toBe(0);
    expect(printed).toContain("Ctrl-C stops this wait at once");
    expect(printed).toContain("^C received; cancelling");
    expect(printed).toContain(`Cancelled while waiting for ${dead} to answer`);
    expect(printed).toContain("nothing was sent to it, and nothing was created");
    expect(afterSignalMs).toBeLessThan(10_000);
    const state = await project.exportState();
    expect(state.deployment["pending_operations"] ?? []).toEqual([]);

    const late = await startTestEmulator({ tls: false, createDelayMs: 100, port });
    try {
      const again = await project.deploy("up", [], { skipPreview: true });
      expect(again.changeSummary).toMatchObject({ create: 1 });
      expect(late.stats().createNewSiteRequests).toBe(1);
    } finally {
      await late.close();
    }
  });
});

describe("dynamic resources (TypeScript)", () => {
  it("the first waiting message says how long, which input shortens it, that Ctrl-C twice is safe, and the recovery, which leaves no pending operation", async () => {
    const s = await stack("cancel-wait");
    const config: Record<string, ConfigValue> = {
      adminUrl: { value: await deadAdminUrl() },
      siteUsername: { value: "siteadmin" },
      sitePassword: { value: SITE_PASSWORD, secret: true },
      siteOnly: { value: "true" },
      siteExtra: { value: JSON.stringify({ timeouts: { serverReadyMs: 240_000 } }) },
    };
    const up = await s.run("up", {
      config,
      abortOnText: "to answer: ",
      abortTwice: true,
      timeoutMs: 180_000,
    });
    expect(up.ok).toBe(false);
    const first = (up.diagnostics ?? []).find((d) => d.message.includes("to answer: "));
    expect(first?.message).toContain("This wait lasts up to 4m00s");
    expect(first?.message).toContain("timeouts.serverReadyMs; set it lower to give up sooner");
    expect(first?.message).toContain(
      "pressing Ctrl-C twice stops `pulumi up` at once and is safe while nothing has been sent",
    );
    expect(first?.message).toContain(
      "then run `pulumi refresh --clear-pending-creates --yes` before the next `pulumi up`",
    );
    // The second Ctrl-C ended the CLI long before the wait's limit.
    expect(up.output).toContain("received; terminating");
    expect(up.cliMs).toBeLessThan(120_000);

    // What the message names, and nothing more, brings the stack back.
    expect(await pendingOperations(s)).toHaveLength(1);
    // The CLI released its lock: the refresh alone clears the pending create.
    await clearPendingCreates(s);
    expect(await pendingOperations(s)).toEqual([]);
    const again = await s.run("up", {
      config: { ...config, adminUrl: { value: emu.adminUrl }, siteExtra: { value: "{}" } },
      timeoutMs: 180_000,
    });
    expect(again.ok).toBe(true);
    expect(emu.stats().createNewSiteRequests).toBe(1);
  });
});

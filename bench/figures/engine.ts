/**
 * Figure 6: `pulumi up` of the quick start's resources through the real Pulumi engine (the CLI
 * that toolchain/engine.cjs builds), against the time the emulator itself spends creating the site
 * and exporting it.
 */
import * as fs from "node:fs";
import { portalSeed, startTestEmulator } from "../../tools/harness/emulator";
import { RealStack } from "../../tools/harness/real-stack";
import type { ProviderSetup } from "../lib/provider";
import { table, type FigureResult } from "../lib/report";
import { median, ms, range } from "../lib/stats";
import { runTempDir } from "../../tools/harness/temp";

const CREATE_DELAY_MS = 1000;
const EXPORT_DELAY_MS = 500;

interface Run {
  /** Every CLI command of the first deployment: stack init, config, up, stack output. */
  upMs: number;
  /** The `pulumi up` process alone. */
  upCliMs: number;
  engineSeconds: number;
  noopMs: number;
  destroyMs: number;
}

/** The engine's own "Duration: Ns" line. */
function engineDuration(output: string): number {
  const match = /Duration: (?:(\d+)m)?(\d+)s/.exec(output);
  return match === null ? Number.NaN : Number(match[1] ?? 0) * 60 + Number(match[2]);
}

/**
 * Runs figure 6.
 *
 * @param runs - measured runs.
 * @param warmUps - runs before them that are not counted (0 in a quick run).
 * @param destroy - end each run with `pulumi destroy`, timed (a quick run leaves the stack and
 *   its emulator to be deleted: its destroy is in no summary row).
 */
export async function engineFigure(
  setup: ProviderSetup,
  runs: number,
  warmUps = 1,
  destroy = true,
): Promise<Omit<FigureResult, "figure" | "otherCores" | "durationMs">> {
  const results: Run[] = [];
  let version = "";
  for (let i = 0; i < runs + warmUps; i++) {
    const emu = await startTestEmulator({
      createDelayMs: CREATE_DELAY_MS,
      exportDelayMs: EXPORT_DELAY_MS,
      seed: portalSeed([{ username: "gisadmin", password: "bench-Portal-1", role: "org_admin" }]),
    });
    const downloads = runTempDir("bench-engine-");
    // A new user's stack: the passphrase, as the quick start says.
    const stack = (await RealStack.create(`bench${i}`, setup.consumer)).usePassphrase();
    version = stack.engineInfo.version;
    try {
      const up = await stack.mustRun("up", {
        config: {
          adminUrl: { value: emu.adminUrl },
          sharingUrl: { value: emu.sharingUrl },
          caCert: { value: emu.caCert! },
          siteUsername: { value: "siteadmin" },
          sitePassword: { value: "bench-Site-1", secret: true },
          portalUsername: { value: "gisadmin" },
          portalPassword: { value: "bench-Portal-1", secret: true },
          collaborationId: { value: "hosted1" },
          downloadDir: { value: downloads },
        },
      });
      const noop = await stack.mustRun("up");
      const destroyed = destroy ? await stack.mustRun("destroy") : undefined;
      // The first run warms the machine's caches (node modules, the CLI binary): not counted.
      if (i >= warmUps) {
        results.push({
          upMs: up.ms,
          upCliMs: up.cliMs,
          engineSeconds: engineDuration(up.output),
          noopMs: noop.ms,
          destroyMs: destroyed?.ms ?? Number.NaN,
        });
      }
    } finally {
      // The consumer belongs to the whole benchmark: remove only this stack's own folders.
      fs.rmSync(stack.tmp, { recursive: true, force: true });
      fs.rmSync(downloads, { recursive: true, force: true });
      await emu.close();
    }
  }
  const work = CREATE_DELAY_MS + EXPORT_DELAY_MS;
  const up = median(results.map((r) => r.upMs));
  const noop = median(results.map((r) => r.noopMs));
  const upRange = range(results.map((r) => r.upMs));
  return {
    title: "`pulumi up` of the quick start through the real engine",
    summary: [
      {
        figure: `6. \`pulumi up\` of the quick start (real engine v${version}): wall time vs the emulator's own work`,
        measured: `${ms(up)} vs ${ms(work)} (${(up / work).toFixed(2)}x; ${ms(up - work)} more)`,
        target: "",
        met: null,
      },
      {
        figure:
          "6. The same `pulumi up` alone (its own CLI process, the stack created and configured)",
        measured: ms(median(results.map((r) => r.upCliMs))),
        target: "",
        met: null,
      },
      {
        figure: "6. A second `pulumi up` (no changes): wall time",
        measured: ms(noop),
        target: "",
        met: null,
      },
    ],
    details: [
      `Method: ${runs} measured run${runs === 1 ? "" : "s"} after ${warmUps === 0 ? "no" : warmUps} warm-up${warmUps === 1 ? "" : "s"}; each run a fresh emulator (TLS, createDelayMs ${CREATE_DELAY_MS}, exportDelayMs ${EXPORT_DELAY_MS}: the emulator's own work for the quick start is ${ms(work)}, createNewSite then exportSite, which a deployment must wait for in sequence) and a new stack with a local file backend in a consumer project where the packed package is installed. The program is tools/harness/program.cjs in a project folder of its own (Pulumi.yaml \`main: program.cjs\`), run by the real CLI with the Node.js language host beside it, as a user runs it (tools/harness/real-stack.ts, RealStack). Wall time of \`pulumi up\`: from the first CLI command of the run to the last, as a user who types them waits: \`pulumi stack init\`, \`pulumi config set-all\` and one \`pulumi config set --secret\` per secret (the value on stdin), \`pulumi up --yes --skip-preview\`, then \`pulumi stack output --json\`; it includes each command's CLI start-up, the language host and the program, the engine's plan, the dynamic-provider host's start, four resources (the stack, Site, SiteExport with its download, Collaboration; Site and Collaboration in parallel) and writing the state. \`pulumi up\` alone: its own CLI process, spawn to exit. The second \`pulumi up\`: its CLI process and the \`stack output\` after it (the config is set already); \`pulumi destroy\`: its own CLI process. The engine's own \`Duration\` line is reported too.`,
      "",
      ...table(
        [
          "Run",
          "`pulumi up` wall (with stack init and config)",
          "`pulumi up` alone",
          "engine's `Duration`",
          "second `pulumi up` (no changes)",
          "`pulumi destroy`",
        ],
        results.map((r, i) => [
          String(i + 1),
          ms(r.upMs),
          ms(r.upCliMs),
          `${r.engineSeconds} s`,
          ms(r.noopMs),
          Number.isNaN(r.destroyMs) ? "not run" : ms(r.destroyMs),
        ]),
      ),
      "",
      `Median \`pulumi up\`: ${ms(up)} (range ${ms(upRange.min)} to ${ms(upRange.max)}), of which the emulator worked ${ms(work)}; the rest (${ms(up - work)}) is the fixed cost of a Pulumi deployment of a Node.js program (a no-change \`pulumi up\` alone takes ${ms(noop)}) plus the provider's requests (runAsync false, the default: createNewSite answers when the site is ready, no polling).`,
    ],
    misses: [],
  };
}

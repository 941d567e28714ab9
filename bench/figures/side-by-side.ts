/**
 * Figure 7: Esri's Ansible create_site flow against our Site, side by side on the same emulator
 * build (ArcGIS Server), at several creation delays, runs interleaved: time, requests, and how
 * long after the server finished each one returned.
 */
import { performance } from "node:perf_hooks";
import { ansibleArcgisServerCreateSite } from "../../tests/conformance/cases/ansible-arcgis-server-create-site";
import { ansibleArcgisServerCreateSiteFlow } from "../../tests/conformance/flows/ansible-arcgis-server-create-site";
import type { Host } from "../../tests/engine/harness";
import { startBenchEmulator, type BenchEmulator } from "../lib/emulators";
import {
  createThroughHost,
  newsFor,
  startConfiguredHost,
  type ProviderSetup,
} from "../lib/provider";
import { startRawClient, type RawClient } from "../lib/raw";
import type { FigureResult, SummaryRow } from "../lib/report";
import { table } from "../lib/report";
import { median, ms, num, range } from "../lib/stats";

const TARGET_RATIO = 1.5;
const TARGET_REQUESTS = 6;

/** The account and site configuration both sides create (the Ansible case's own values). */
const SITE = ansibleArcgisServerCreateSite.client;

interface Run {
  /** From the first request sent to the answer read, ms. */
  wallMs: number;
  requests: number;
  /** Returned minus the emulator's completion, ms. */
  afterMs: number;
  /** The requests as the emulator received them: `GET admin/`. */
  timeline: string;
}

interface DelayResult {
  delayMs: number;
  ansible: Run[];
  ours: Run[];
}

function timeline(bench: BenchEmulator): string {
  return bench.emu
    .requestLog()
    .map((r) => `${r.method} ${r.url.replace(/^\/arcgis\//, "").replace(/\?.*$/, "")}`)
    .join(" → ");
}

/** The moment the emulator finished, as epoch ms with sub-millisecond resolution. */
function finishedEpoch(bench: BenchEmulator): number {
  const at = bench.sitesCreatedAt[0];
  if (at === undefined) throw new Error("the emulator never reported the site as created");
  return performance.timeOrigin + at;
}

async function ansibleRun(raw: RawClient, delayMs: number): Promise<Run> {
  const bench = await startBenchEmulator({ createDelayMs: delayMs, serverType: "arcgis-server" });
  try {
    if (SITE.operation !== "createNewSite") throw new Error("the Ansible case is not a creation");
    const r = await raw.ansibleCreateSite(bench, {
      username: SITE.input.username,
      password: SITE.input.password,
    });
    return {
      wallMs: r.returnedEpochMs - r.startedEpochMs,
      requests: bench.emu.requestLog().length,
      afterMs: r.returnedEpochMs - finishedEpoch(bench),
      timeline: timeline(bench),
    };
  } finally {
    await bench.close();
  }
}

async function ourRun(
  setup: ProviderSetup,
  host: Host,
  delayMs: number,
  name: string,
): Promise<Run> {
  const bench = await startBenchEmulator({ createDelayMs: delayMs, serverType: "arcgis-server" });
  try {
    if (SITE.operation !== "createNewSite") throw new Error("the Ansible case is not a creation");
    const news = newsFor(setup.registrations.site, bench, {
      serverType: "arcgis-server",
      ...SITE.input,
    });
    const t = await createThroughHost(host, news, name, setup.registrations.site, false);
    const at = bench.sitesCreatedAt[0];
    if (at === undefined) throw new Error("the emulator never reported the site as created");
    return {
      wallMs: t.checkMs + t.createMs,
      requests: bench.emu.requestLog().length,
      afterMs: t.createdAt - at,
      timeline: timeline(bench),
    };
  } finally {
    await bench.close();
  }
}

/**
 * Runs figure 7.
 *
 * @param delays - creation delays with the runs of each side at that delay.
 */
export async function sideBySide(
  setup: ProviderSetup,
  delays: ReadonlyArray<{ delayMs: number; runs: number }>,
): Promise<Omit<FigureResult, "figure" | "otherCores" | "durationMs">> {
  const host = await startConfiguredHost(setup);
  const raw = startRawClient();
  const results: DelayResult[] = [];
  try {
    // Warm-up of both sides (module loading, the host's provider, undici in the child).
    await ansibleRun(raw, 0);
    await ourRun(setup, host, 0, "warm-up");
    for (const { delayMs, runs } of delays) {
      const result: DelayResult = { delayMs, ansible: [], ours: [] };
      for (let i = 0; i < runs; i++) {
        // Alternate which side goes first, so that drift in machine load hits both alike.
        if (i % 2 === 0) {
          result.ansible.push(await ansibleRun(raw, delayMs));
          result.ours.push(await ourRun(setup, host, delayMs, `site-${delayMs}-${i}`));
        } else {
          result.ours.push(await ourRun(setup, host, delayMs, `site-${delayMs}-${i}`));
          result.ansible.push(await ansibleRun(raw, delayMs));
        }
      }
      results.push(result);
    }
  } finally {
    await raw.close();
    await host.close();
  }

  const summary: SummaryRow[] = [];
  const rows: string[][] = [];
  for (const r of results) {
    const label = `${r.delayMs / 1000} s`;
    const wall = {
      ansible: median(r.ansible.map((x) => x.wallMs)),
      ours: median(r.ours.map((x) => x.wallMs)),
    };
    const ratio = wall.ours / wall.ansible;
    const requests = {
      ansible: median(r.ansible.map((x) => x.requests)),
      ours: median(r.ours.map((x) => x.requests)),
    };
    const after = {
      ansible: median(r.ansible.map((x) => x.afterMs)),
      ours: median(r.ours.map((x) => x.afterMs)),
    };
    summary.push({
      figure: `7. Delay ${label}: Site through the provider vs Ansible's create_site, median wall time`,
      measured: `${ms(wall.ours)} vs ${ms(wall.ansible)} (${num(ratio)}x)`,
      target: r.delayMs === 0 ? `≤ ${TARGET_RATIO}x` : "",
      met: r.delayMs === 0 ? ratio <= TARGET_RATIO : null,
    });
    summary.push({
      figure: `7. Delay ${label}: requests (ours vs Ansible) / returned after the server finished`,
      measured: `${num(requests.ours, 0)} vs ${num(requests.ansible, 0)} / ${ms(after.ours)} vs ${ms(after.ansible)}`,
      target: `≤ ${TARGET_REQUESTS} requests`,
      met: requests.ours <= TARGET_REQUESTS,
    });
    for (const [side, runs] of [
      ["Ansible create_site (replayed)", r.ansible],
      ["Site through the provider", r.ours],
    ] as const) {
      const w = range(runs.map((x) => x.wallMs));
      rows.push([
        label,
        side,
        String(runs.length),
        `${ms(median(runs.map((x) => x.wallMs)))} (${ms(w.min)} to ${ms(w.max)})`,
        num(median(runs.map((x) => x.requests)), 0),
        ms(median(runs.map((x) => x.afterMs))),
      ]);
    }
  }
  const last = results.at(-1)!;
  const misses: string[] = [];
  for (const row of summary.filter((s) => s.met === false)) {
    misses.push(
      `- ${row.figure}: ${row.measured}. The provider's requests are listed above: after createNewSite's answer it proves readiness (token, health check) and reads its outputs one request after the other, with a second token. What would close it: at most 6 requests (one token, readiness and the output reads in parallel), returning within one round trip of the server's answer.`,
    );
  }
  return {
    title: "Side by side: Esri's Ansible create_site flow and our Site",
    summary,
    details: [
      `Method: both sides create the same ArcGIS Server site (the account, config store, four directories and log settings of the conformance case ${ansibleArcgisServerCreateSite.name}) on a fresh emulator each run (serverType arcgis-server, TLS with its own CA, the creation delay of the row), runs of the two sides interleaved with the first side alternating, after one warm-up of each. *Ansible*: the request sequence of Esri's \`arcgis.server.create_site\` module (${ansibleArcgisServerCreateSiteFlow.sources.map((s) => ("path" in s ? `${s.repository} ${s.path} at ${s.commit.slice(0, 7)}` : s.url)).join("; ")}), recorded as the conformance flow ${ansibleArcgisServerCreateSiteFlow.name} and replayed with plain undici in a separate Node process, one new connection per request as Python's urllib opens them; it ends with createNewSite's synchronous answer (runAsync False) and sends nothing after it. Python's own start-up and Ansible's module packaging are not counted: this is the flow's HTTP cost only. *Ours*: Check and Create of a Site (runAsync false, the default) through the warm dynamic-provider host, the packed package (bench/lib/provider.ts). Wall time: first request to last answer, as each side measures it. Requests: the emulator's request log of the run. *Returned after the server finished*: the side's return minus the moment the emulator made the site ready (both on the same clock: performance.timeOrigin + performance.now()).`,
      "",
      ...table(
        [
          "Delay",
          "Side",
          "Runs",
          "Median wall time (min to max)",
          "Requests",
          "Returned after the server finished (median)",
        ],
        rows,
      ),
      "",
      `Requests at ${last.delayMs / 1000} s (last run of each side):`,
      "",
      `- Ansible: ${last.ansible.at(-1)?.timeline ?? ""}`,
      `- Ours: ${last.ours.at(-1)?.timeline ?? ""}`,
    ],
    misses,
  };
}

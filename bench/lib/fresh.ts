/**
 * Figure 7 as a user's process pays it: each run a fresh process on each side, against a fresh
 * emulator at zero creation delay. Esri's side is Esri's own client code (the ArcGIS API for
 * Python, bench/esri-create-site.py); ours is a fresh dynamic-provider host (the real one, as the
 * engine starts it) whose first calls are the Site's Check and Create.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { ansibleArcgisServerCreateSite } from "../../tests/conformance/cases/ansible-arcgis-server-create-site";
import { startEngineLogServer, type EngineLogServer } from "../../tools/harness/engine-log-server";
import { pythonApi } from "../../tools/harness/python-api";
import { urn } from "../../tools/harness/property-values";
import { ARCGIS_VERSION } from "../../toolchain/python-api.cjs";
import { requestTimeline, startBenchEmulator, type BenchEmulator } from "./emulators";
import { newsFor, type ProviderSetup } from "./provider";
import { table, type FigureResult, type SummaryRow } from "./report";
import { median, ms, num, range } from "./stats";

/** Ours may take this many times Esri's time from the call to its return. */
const TARGET_RATIO = 1.5;
/** Requests ours may send. */
const TARGET_REQUESTS = 6;

/** The site both sides create (the conformance case's own values, as the warm rows). */
const SITE = ansibleArcgisServerCreateSite.client;

/** One fresh-process run of one side. */
export interface FreshRun {
  /** Module loading before the call: Python's imports of `arcgis`, or the host's start-up. */
  importMs: number;
  /** From the call to its return, ms. */
  callMs: number;
  /** From the call to the first request the emulator received, ms (the log's resolution: 1 ms). */
  firstRequestMs: number;
  /** The gaps between consecutive requests' arrival, ms. */
  gapsMs: number[];
  requests: number;
  /** The requests as the emulator received them: `GET admin/`. */
  timeline: string;
}

/** Epoch ms of each request's arrival, from the emulator's log. */
function arrivals(bench: BenchEmulator): number[] {
  return bench.emu.requestLog().map((r) => Date.parse(r.at));
}

function runOf(
  bench: BenchEmulator,
  importMs: number,
  calledEpochMs: number,
  callMs: number,
): FreshRun {
  const at = arrivals(bench);
  if (at.length === 0) throw new Error("the emulator received no request");
  return {
    importMs,
    callMs,
    firstRequestMs: at[0]! - calledEpochMs,
    gapsMs: at.slice(1).map((t, i) => t - at[i]!),
    requests: at.length,
    timeline: requestTimeline(bench),
  };
}

function siteInput(): Record<string, unknown> {
  if (SITE.operation !== "createNewSite") throw new Error("the Ansible case is not a creation");
  return SITE.input;
}

/**
 * One run of Esri's side: a fresh `python3` of the ArcGIS API for Python's virtualenv runs
 * bench/esri-create-site.py against a fresh emulator.
 */
export async function esriFreshRun(): Promise<FreshRun> {
  const python = await pythonApi();
  const bench = await startBenchEmulator({ createDelayMs: 0, serverType: "arcgis-server" });
  try {
    const caFile = bench.emu.caCertFile;
    if (caFile === null) throw new Error("the bench emulator has no TLS");
    const input = siteInput();
    const site = {
      adminUrl: bench.emu.adminUrl,
      caFile,
      username: input.username,
      password: input.password,
      configStoreConnection: input.configStoreConnection,
      directories: input.directories,
      logSettings: input.logSettings,
    };
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        python,
        [path.join(__dirname, "..", "esri-create-site.py")],
        { env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", BENCH_SITE: JSON.stringify(site) } },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      );
    });
    const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
    if (line === undefined) throw new Error(`esri-create-site.py printed no result: ${stdout}`);
    const result = JSON.parse(line.slice("RESULT ".length)) as {
      importMs: number;
      calledEpochMs: number;
      returnedEpochMs: number;
      answer: unknown;
    };
    if (bench.sitesCreatedAt.length === 0) {
      throw new Error(`Esri's call created no site: ${JSON.stringify(result.answer)}`);
    }
    return runOf(
      bench,
      result.importMs,
      result.calledEpochMs,
      result.returnedEpochMs - result.calledEpochMs,
    );
  } finally {
    await bench.close();
  }
}

/**
 * One run of ours: a fresh dynamic-provider host in the consumer project (the packed package),
 * configured as the engine does and given an engine that takes its log messages, whose first calls are the Site's Check and Create, timed in
 * this process from sending Check to Create's answer.
 *
 * @param engine - the engine's Log service the host is given (engine-log-server.ts).
 * @param env - extra environment of the host (a profile's NODE_OPTIONS).
 */
export async function ourFreshRun(
  setup: ProviderSetup,
  engine: EngineLogServer,
  env: Record<string, string> = {},
): Promise<FreshRun> {
  const bench = await startBenchEmulator({ createDelayMs: 0, serverType: "arcgis-server" });
  try {
    const news = newsFor(setup.registrations.site, bench, {
      serverType: "arcgis-server",
      ...siteInput(),
    });
    const started = performance.now();
    const host = await setup.consumer.startHost({
      callTimeoutMs: 600_000,
      env,
      engineAddress: engine.address,
    });
    try {
      await host.configure();
      const importMs = performance.now() - started;
      const target = urn("fresh-site");
      const calledEpochMs = performance.timeOrigin + performance.now();
      const checked = await host.check(target, {}, news);
      if (checked.failures.length > 0) {
        throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
      }
      await host.create(target, checked.inputs, {
        additionalSecretOutputs: setup.registrations.site.options?.additionalSecretOutputs ?? [],
      });
      const callMs = performance.timeOrigin + performance.now() - calledEpochMs;
      return runOf(bench, importMs, calledEpochMs, callMs);
    } finally {
      await host.close();
    }
  } finally {
    await bench.close();
  }
}

/** The figure's rows, details and misses for the fresh-process runs. */
export type FreshPart = Pick<FigureResult, "summary" | "details" | "misses">;

/**
 * Runs both sides `runs` times each, interleaved (the side that goes first alternating), after
 * `warmUps` unmeasured runs of each (the disk cache of both sides' files), and reports them.
 */
export async function freshSideBySide(
  setup: ProviderSetup,
  runs: number,
  warmUps: number,
): Promise<FreshPart> {
  // The engine's Log, as a real run has it (in its own process, as the engine is): the Site's
  // messages are delivered, not refused.
  const engine = await startEngineLogServer(
    fs.realpathSync(path.join(setup.consumer.dir, "node_modules", "@pulumi", "pulumi")),
  );
  const esri: FreshRun[] = [];
  const ours: FreshRun[] = [];
  try {
    for (let i = 0; i < warmUps; i++) {
      await esriFreshRun();
      await ourFreshRun(setup, engine);
    }
    for (let i = 0; i < runs; i++) {
      if (i % 2 === 0) {
        esri.push(await esriFreshRun());
        ours.push(await ourFreshRun(setup, engine));
      } else {
        ours.push(await ourFreshRun(setup, engine));
        esri.push(await esriFreshRun());
      }
    }
  } finally {
    await engine.close();
  }
  const med = (sample: FreshRun[], pick: (r: FreshRun) => number): number =>
    median(sample.map(pick));
  const call = { ours: med(ours, (r) => r.callMs), esri: med(esri, (r) => r.callMs) };
  const first = {
    ours: med(ours, (r) => r.firstRequestMs),
    esri: med(esri, (r) => r.firstRequestMs),
  };
  const requests = { ours: med(ours, (r) => r.requests), esri: med(esri, (r) => r.requests) };
  const ratio = call.ours / call.esri;
  const esriName = `Esri's ArcGIS API for Python ${ARCGIS_VERSION} (Server._create)`;
  const wallRow: SummaryRow = {
    figure: `7. Fresh process, delay 0 s: Site (a new host's first Check and Create) vs ${esriName}, median from the call to its return`,
    measured: `${ms(call.ours)} vs ${ms(call.esri)} (${num(ratio)}x)`,
    target: `≤ ${TARGET_RATIO}x`,
    met: ratio <= TARGET_RATIO,
  };
  const requestRow: SummaryRow = {
    figure: "7. Fresh process, delay 0 s: requests, ours vs Esri's",
    measured: `${num(requests.ours, 0)} vs ${num(requests.esri, 0)}`,
    target: `≤ ${TARGET_REQUESTS}`,
    met: requests.ours <= TARGET_REQUESTS,
  };
  const firstRow: SummaryRow = {
    figure:
      "7. Fresh process, delay 0 s: from the call to the first request; module loading before the call, ours vs Esri's",
    measured: `${ms(first.ours)} vs ${ms(first.esri)}; ${ms(med(ours, (r) => r.importMs))} vs ${ms(med(esri, (r) => r.importMs))}`,
    target: "",
    met: null,
  };
  const rows = (
    [
      ["Site through a new dynamic-provider host (ours)", ours],
      [esriName, esri],
    ] as const
  ).map(([side, sample]) => {
    const spread = range(sample.map((r) => r.callMs));
    const gaps = sample[0]!.gapsMs.map((_, i) => ms(median(sample.map((r) => r.gapsMs[i] ?? 0))));
    return [
      side,
      String(sample.length),
      ms(med(sample, (r) => r.importMs)),
      `${ms(med(sample, (r) => r.callMs))} (${ms(spread.min)} to ${ms(spread.max)})`,
      ms(med(sample, (r) => r.firstRequestMs)),
      gaps.join(", "),
      num(
        med(sample, (r) => r.requests),
        0,
      ),
      sample.at(-1)!.timeline,
    ];
  });
  const facts = `from the call to the first request ours ${ms(first.ours)}, Esri's ${ms(first.esri)}; ours sent ${num(requests.ours, 0)} requests, Esri's ${num(requests.esri, 0)}`;
  const misses: string[] = [];
  if (wallRow.met === false) misses.push(`- ${wallRow.figure}: ${wallRow.measured}; ${facts}.`);
  if (requestRow.met === false) misses.push(`- ${requestRow.figure}: ${requestRow.measured}.`);
  return {
    summary: [wallRow, requestRow, firstRow],
    details: [
      `Fresh process (as a user's process pays it): each run a new process on each side against a new emulator (serverType arcgis-server, TLS with its own CA, zero creation delay) creating the site of the conformance case ${ansibleArcgisServerCreateSite.name}; ${runs} run${runs === 1 ? "" : "s"} of each side, interleaved with the first side alternating, after ${warmUps === 0 ? "no warm-up" : `${warmUps} unmeasured run${warmUps === 1 ? "" : "s"} of each`}. *Esri's*: Esri's own client code, the ArcGIS API for Python \`arcgis\` ${ARCGIS_VERSION} from PyPI, unmodified, in the virtualenv toolchain/python-api.cjs installs: a new \`python3\` runs bench/esri-create-site.py, which imports \`arcgis.gis.server.Server\` (its import time: *module loading*) and calls \`Server._create\` (the static method that \`SiteManager.create\` wraps) with the case's config store, directories and log settings, runAsync False, verifying the emulator's certificate against its CA (\`ca_bundles\`). Esri's Ansible collection (arcgis-gitops, whose request flow the warm rows replay) is on no package registry the project installs from, so its module code cannot run here unmodified. *Ours*: a new Pulumi dynamic-provider host (@pulumi/pulumi's, in the consumer project with the packed package, as the engine starts it; its start-up and Configure: *module loading*) whose first calls are the Site's Check and then Create with the checked inputs, sent over gRPC from the benchmark's process; the host loads the Site's implementation on the first Check, so that loading is inside the timed call. The host is given the address of the engine's Log service (tools/harness/engine-log-server.ts, in a process of its own as the engine is), so that the Site's progress message is delivered as in a real run. Timed from the call (the Check sent; Python's call) to its return (Create's answer read; Python's call returned), both as epoch ms. *First request*: the emulator's request log (millisecond resolution) against the call's start; *gaps*: between the arrivals of consecutive requests.`,
      "",
      ...table(
        [
          "Side",
          "Runs",
          "Module loading (median)",
          "Call to return, median (min to max)",
          "Call to first request (median)",
          "Gaps between requests (median)",
          "Requests",
          "Requests of the last run",
        ],
        rows,
      ),
    ],
    misses,
  };
}

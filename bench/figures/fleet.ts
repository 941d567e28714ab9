/**
 * Figure 10: a fleet of sites in one stack through `pulumi up` as users run it (the real CLI,
 * the Node.js language host, a file backend, the packed package in a consumer project), against
 * the engine's floor: an empty program, one trivial dynamic resource, and a floor fleet of 3N
 * trivial dynamic resources with the same dependency shape as N sites.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RealStack } from "../../tools/harness/real-stack";
import type { Op, RunOptions } from "../../tools/harness/stack-types";
import { closeAll, startBenchEmulator, type BenchEmulator } from "../lib/emulators";
import { sampleHosts, type HostSample } from "../lib/host-sampler";
import type { ProviderSetup } from "../lib/provider";
import { table, type FigureResult, type SummaryRow } from "../lib/report";
import { mib, ms, num } from "../lib/stats";
import { runTempDir } from "../../tools/harness/temp";

/** The program of this figure (its modes are described there). */
const PROGRAM_DIR = path.join(__dirname, "..", "fleet");
const PASSWORD = "bench-Fleet-1";
/** Ours against the floor fleet at 20 sites, each operation (issue 57). */
const TARGET_RATIO = 1.5;
/** At 100 sites: `up`, `refresh` and `destroy`; an unchanged `up` is held to {@link TARGET_RATIO}. */
const TARGET_RATIO_100 = 2;
/** The host's peak at 100 sites above the floor fleet's (issue 57). */
const TARGET_HOST_EXTRA_100_BYTES = 80 * 1024 ** 2;
/** The host's CPU per further site on `up` (issue 57). */
const TARGET_HOST_CPU_PER_SITE_MS = 20;
/** Bytes one resource's entry may take in the stack's state file (issue 57). */
const TARGET_ENTRY_BYTES = 6000;
const TARGET_HOST_EXTRA_BYTES = 60e6;
const TARGET_DELAY_RATIO = 1.2;
/** A CLI operation of a 100-site fleet may take minutes on a busy machine. */
const OP_TIMEOUT_MS = 1_800_000;

/** What one operation cost. */
interface OpResult {
  /** The `pulumi <op>` process alone, spawn to exit. */
  ms: number;
  /** Requests the emulators received during the operation. */
  requests: number;
  host: HostSample;
  /**
   * The benchmark's own process's CPU during the operation, ms: the emulators (all in it) and the
   * harness (its sampling of /proc, its reading of the engine's event log).
   */
  benchCpuMs: number;
}

interface CaseResult {
  label: string;
  resources: number;
  ops: Partial<Record<OpName, OpResult>>;
  /** The state file after `up`. */
  state?: StateSize;
}

/** The stack's state file after `up`, and what one resource of each type takes of it. */
interface StateSize {
  fileBytes: number;
  /** Resources in the file (the stack and the default providers included). */
  entries: number;
  /** Per resource type: the average entry, its inputs and outputs, and its largest fields. */
  types: Record<
    string,
    {
      count: number;
      entry: number;
      inputs: number;
      outputs: number;
      fields: Array<[string, number]>;
    }
  >;
}

/** Bytes of a value as the state file writes it (compact JSON). */
const jsonBytes = (value: unknown): number =>
  Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/** The stack's state file in the file backend under `dir`, measured. */
function stateSize(dir: string): StateSize | undefined {
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter(
    (f) => f.includes(`stacks${path.sep}`) && f.endsWith(".json") && !f.includes(".bak"),
  );
  if (files.length !== 1) return undefined;
  const file = path.join(dir, files[0]!);
  const text = fs.readFileSync(file, "utf8");
  const parsed = JSON.parse(text) as {
    checkpoint?: {
      latest?: {
        resources?: Array<{
          type: string;
          inputs?: Record<string, unknown>;
          outputs?: Record<string, unknown>;
        }>;
      };
    };
  };
  const resources = parsed.checkpoint?.latest?.resources ?? [];
  const types: StateSize["types"] = {};
  for (const r of resources) {
    const t = (types[r.type] ??= { count: 0, entry: 0, inputs: 0, outputs: 0, fields: [] });
    t.count++;
    t.entry += jsonBytes(r);
    t.inputs += jsonBytes(r.inputs ?? {});
    t.outputs += jsonBytes(r.outputs ?? {});
    if (t.count === 1) {
      const fields = new Map<string, number>();
      for (const [side, values] of [
        ["inputs", r.inputs],
        ["outputs", r.outputs],
      ] as const) {
        for (const [key, value] of Object.entries(values ?? {}))
          fields.set(`${side}.${key}`, jsonBytes(value));
      }
      t.fields = [...fields].sort((a, b) => b[1] - a[1]).slice(0, 6);
    }
  }
  for (const t of Object.values(types)) {
    t.entry = Math.round(t.entry / t.count);
    t.inputs = Math.round(t.inputs / t.count);
    t.outputs = Math.round(t.outputs / t.count);
  }
  return { fileBytes: Buffer.byteLength(text, "utf8"), entries: resources.length, types };
}

type OpName = "up" | "noop" | "refresh" | "destroy";

const OPS: ReadonlyArray<{ name: OpName; op: Op; options: RunOptions["options"] }> = [
  { name: "up", op: "up", options: {} },
  { name: "noop", op: "up", options: { expectNoChanges: true } },
  { name: "refresh", op: "refresh", options: { expectNoChanges: true } },
  { name: "destroy", op: "destroy", options: {} },
];

/** Options of figure 10. */
export interface FleetOptions {
  /** Fleet sizes (sites; the floor fleet has three trivial resources per site). */
  counts: readonly number[];
  /** The slow-creation comparison: `delayCount` sites against one, each creation `delayMs`. */
  delayMs: number;
  delayCount: number;
  /** `--parallel` of the slow-creation comparison. */
  parallel: number;
  /** Also run the slow comparison at the CLI's default parallelism (minutes; not in quick runs). */
  defaultParallelToo: boolean;
  /** Runs of the empty program before measuring (module and binary caches). */
  warmUps: number;
  /**
   * Runs of each size's fleet and floor fleet, one after the other in turn; each operation's row
   * is the run of median wall time (default 1; a quick run makes one).
   */
  runs?: number;
  /**
   * Also run each fleet and its floor with `PULUMI_SKIP_CHECKPOINTS=true`, to measure how much of
   * each operation is the engine writing its checkpoint (a measurement only).
   */
  skipCheckpointsToo?: boolean;
  /**
   * A quick run: only `up` of the empty program, of the one trivial resource and of the floor
   * fleet (the fleet of sites still runs every operation, the provider's part), and the fleet of one
   * site created with the slow comparison's delay and `--parallel`, so that its `up` is also the
   * comparison's one site instead of a stack of its own.
   */
  quick?: boolean;
}

/** A TLS certificate for 127.0.0.1 that every emulator of the figure serves, so one CA is trusted. */
interface SharedTls {
  certFile: string;
  keyFile: string;
  caCert: string;
}

async function sharedTls(dir: string): Promise<SharedTls> {
  const first = await startBenchEmulator({ createDelayMs: 0 });
  try {
    const certFile = path.join(dir, "cert.pem");
    const keyFile = path.join(dir, "key.pem");
    const generated = first.emu.caCertFile!;
    fs.copyFileSync(generated, certFile);
    fs.copyFileSync(path.join(path.dirname(generated), "key.pem"), keyFile);
    return { certFile, keyFile, caCert: fs.readFileSync(certFile, "utf8") };
  } finally {
    await first.close();
  }
}

/** `count` emulators in this process, each one machine for one site, sharing one certificate. */
async function emulators(count: number, tls: SharedTls, createDelayMs: number) {
  const started: BenchEmulator[] = [];
  try {
    for (let i = 0; i < count; i += 10) {
      const batch = Math.min(10, count - i);
      started.push(
        ...(await Promise.all(
          Array.from({ length: batch }, () =>
            startBenchEmulator({
              createDelayMs,
              exportDelayMs: 0,
              tls: { certFile: tls.certFile, keyFile: tls.keyFile },
            }),
          ),
        )),
      );
    }
  } catch (error) {
    await closeAll(started);
    throw error;
  }
  return started;
}

function requestsOf(emus: readonly BenchEmulator[]): number {
  return emus.reduce((sum, e) => sum + e.emu.requestLog().length, 0);
}

/**
 * One case: a new stack of the figure's program with `config`, its operations run one after the
 * other through the CLI; each operation's wall time, requests and host memory.
 */
async function runCase(
  setup: ProviderSetup,
  label: string,
  resources: number,
  config: Record<string, { value: string; secret?: boolean }>,
  emus: readonly BenchEmulator[],
  ops: ReadonlyArray<(typeof OPS)[number]>,
  parallel?: number,
  env?: NodeJS.ProcessEnv,
): Promise<CaseResult> {
  const name = `fleet-${label.replace(/[^a-z0-9]+/gi, "-")}-${process.pid}`;
  const stack = (
    await RealStack.create(name, setup.consumer, { dir: PROGRAM_DIR, entry: "program.cjs" })
  ).usePassphrase();
  const result: CaseResult = { label, resources, ops: {} };
  const pids: number[] = [];
  try {
    for (const { name: opName, op, options } of ops) {
      const before = requestsOf(emus);
      const benchBefore = process.cpuUsage();
      const sampler = sampleHosts(() => pids);
      let run;
      let host: HostSample;
      try {
        run = await stack.mustRun(op, {
          config,
          options: { ...options, ...(parallel === undefined ? {} : { parallel }) },
          timeoutMs: OP_TIMEOUT_MS,
          onSpawn: (pid) => pids.push(pid),
          ...(env === undefined ? {} : { env }),
        });
      } finally {
        host = sampler.stop();
      }
      if (opName === "up") {
        const created = run.changeSummary?.create ?? 0;
        // The stack itself is created too.
        if (created !== resources + 1) {
          throw new Error(`${label}: up created ${created} resources, expected ${resources + 1}`);
        }
        const measured = stateSize(stack.backendDir);
        if (measured !== undefined) result.state = measured;
      }
      const bench = process.cpuUsage(benchBefore);
      result.ops[opName] = {
        ms: run.cliMs,
        requests: requestsOf(emus) - before,
        host,
        benchCpuMs: (bench.user + bench.system) / 1000,
      };
    }
  } finally {
    fs.rmSync(stack.tmp, { recursive: true, force: true });
    fs.rmSync(path.join(stack.projectDir, `Pulumi.${name}.yaml`), { force: true });
  }
  return result;
}

/** A fleet of `count` sites, each on its own emulator. */
async function fleetCase(
  setup: ProviderSetup,
  tls: SharedTls,
  count: number,
  label: string,
  ops: ReadonlyArray<(typeof OPS)[number]>,
  createDelayMs = 0,
  parallel?: number,
  env?: NodeJS.ProcessEnv,
  caInline = false,
): Promise<CaseResult> {
  const emus = await emulators(count, tls, createDelayMs);
  try {
    const config = {
      mode: { value: "fleet" },
      adminUrls: { value: JSON.stringify(emus.map((e) => e.emu.adminUrl)) },
      caCert: { value: tls.caCert },
      sitePassword: { value: PASSWORD, secret: true },
      caInline: { value: String(caInline) },
    };
    return await runCase(setup, label, 3 * count, config, emus, ops, parallel, env);
  } finally {
    await closeAll(emus);
  }
}

function floorCase(
  setup: ProviderSetup,
  mode: "empty" | "trivial" | "floor",
  count: number,
  label: string,
  ops: ReadonlyArray<(typeof OPS)[number]> = OPS,
  env?: NodeJS.ProcessEnv,
  padBytes = 0,
): Promise<CaseResult> {
  const resources = mode === "empty" ? 0 : mode === "trivial" ? 1 : 3 * count;
  const config = {
    mode: { value: mode },
    count: { value: String(count) },
    padBytes: { value: String(padBytes) },
  };
  return runCase(setup, label, resources, config, [], ops, undefined, env);
}

const OP_LABELS: Record<OpName, string> = {
  up: "`up`",
  noop: "unchanged `up`",
  refresh: "`refresh`",
  destroy: "`destroy`",
};

/**
 * Runs figure 10.
 *
 * @param options - fleet sizes and the slow-creation comparison (see {@link FleetOptions}).
 */
export async function fleetFigure(
  setup: ProviderSetup,
  options: FleetOptions,
): Promise<Omit<FigureResult, "figure" | "otherCores" | "durationMs">> {
  const dir = runTempDir("bench-fleet-");
  try {
    const tls = await sharedTls(dir);
    for (let i = 0; i < options.warmUps; i++) {
      await floorCase(setup, "empty", 0, `warm-up ${i + 1}`);
    }
    const upOnly = OPS.slice(0, 1);
    const baseOps = options.quick === true ? upOnly : OPS;
    const empty = await floorCase(setup, "empty", 0, "empty program", baseOps);
    const trivial = await floorCase(setup, "trivial", 1, "one trivial resource", baseOps);
    const slowLabel = (n: number, p: number | undefined) =>
      `${n} site${n === 1 ? "" : "s"}, ${options.delayMs / 1000} s creation, ${p === undefined ? "default parallelism" : `--parallel ${p}`}`;
    const pairs: Pair[] = [];
    let slowOne: CaseResult | undefined;
    for (const count of options.counts) {
      const floor = await floorCase(setup, "floor", count, `floor fleet ${3 * count}`, baseOps);
      // A quick run's fleet of one is also the slow comparison's one site.
      const quickOne = options.quick === true && count === 1;
      const fleet = quickOne
        ? await fleetCase(
            setup,
            tls,
            1,
            `fleet 1 (${slowLabel(1, options.parallel)})`,
            OPS,
            options.delayMs,
            options.parallel,
          )
        : await fleetCase(setup, tls, count, `fleet ${count}`, OPS);
      if (quickOne) slowOne = fleet;
      const floorRuns = [floor];
      const fleetRuns = [fleet];
      for (let run = 2; !quickOne && run <= (options.runs ?? 1); run++) {
        floorRuns.push(await floorCase(setup, "floor", count, `floor fleet ${3 * count}`, OPS));
        fleetRuns.push(await fleetCase(setup, tls, count, `fleet ${count}`, OPS));
      }
      const pair: Pair = {
        count,
        floor: medianCase(floorRuns),
        fleet: medianCase(fleetRuns),
        ...(fleetRuns.length > 1 ? { runs: { floor: floorRuns, fleet: fleetRuns } } : {}),
      };
      if (count === options.counts[0]) {
        const label = `fleet ${count}${CA_INLINE}`;
        pair.fleetCaInline = await fleetCase(
          setup,
          tls,
          count,
          label,
          upOnly,
          0,
          undefined,
          {},
          true,
        );
      }
      const padBytes = paddingToOurs(floor, fleet);
      if (padBytes !== undefined) {
        const label = `floor fleet ${3 * count}${PADDED}`;
        pair.floorPadded = await floorCase(
          setup,
          "floor",
          count,
          label,
          baseOps,
          undefined,
          padBytes,
        );
      }
      if (!quickOne && options.skipCheckpointsToo === true) {
        const skip = { PULUMI_SKIP_CHECKPOINTS: "true" };
        const [f, label] = [3 * count, SKIPPED];
        pair.floorSkipped = await floorCase(
          setup,
          "floor",
          count,
          `floor fleet ${f}${label}`,
          OPS,
          skip,
        );
        pair.fleetSkipped = await fleetCase(
          setup,
          tls,
          count,
          `fleet ${count}${label}`,
          OPS,
          0,
          undefined,
          skip,
        );
      }
      pairs.push(pair);
    }
    slowOne ??= await fleetCase(
      setup,
      tls,
      1,
      slowLabel(1, options.parallel),
      upOnly,
      options.delayMs,
      options.parallel,
    );
    const slowMany = await fleetCase(
      setup,
      tls,
      options.delayCount,
      slowLabel(options.delayCount, options.parallel),
      upOnly,
      options.delayMs,
      options.parallel,
    );
    const slowDefault = options.defaultParallelToo
      ? await fleetCase(
          setup,
          tls,
          options.delayCount,
          slowLabel(options.delayCount, undefined),
          upOnly,
          options.delayMs,
        )
      : undefined;
    return report(options, empty, trivial, pairs, { slowOne, slowMany, slowDefault });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The label's end of a fleet that gives the CA certificate itself (`tls.caCert`), not its key. */
const CA_INLINE = ", the CA certificate given itself";

/** The label's end of a floor fleet whose state entries are padded to the size of ours. */
const PADDED = ", entries padded to ours";

/**
 * What the padding adds to an entry besides its bytes: `"pad":""` in the inputs and the outputs,
 * and `"pad":[]` in the property dependencies, each with its comma.
 */
const PAD_KEY_BYTES = 3 * '"pad":"",'.length;

/**
 * The bytes of padding that make a floor fleet resource's state entry as large as the average
 * entry of a site's resources: half the difference, since a trivial resource records its inputs
 * again as its outputs.
 */
function paddingToOurs(floor: CaseResult, fleet: CaseResult): number | undefined {
  const ours = dynamicEntries(fleet);
  const trivial = dynamicEntries(floor);
  if (ours === undefined || trivial === undefined || ours <= trivial) return undefined;
  return Math.round((ours - trivial - PAD_KEY_BYTES) / 2);
}

/** The average state entry of a case's dynamic resources (bytes), from its state after `up`. */
function dynamicEntries(c: CaseResult): number | undefined {
  const types = Object.entries(c.state?.types ?? {}).filter(([type]) =>
    type.startsWith("pulumi-nodejs:dynamic"),
  );
  const count = types.reduce((sum, [, t]) => sum + t.count, 0);
  if (count === 0) return undefined;
  return types.reduce((sum, [, t]) => sum + t.entry * t.count, 0) / count;
}

/** The label's end of a case run with `PULUMI_SKIP_CHECKPOINTS=true`. */
const SKIPPED = ", checkpoints skipped";

/** A fleet size: its floor fleet and its fleet of sites, and the same with checkpoints skipped. */
interface Pair {
  count: number;
  floor: CaseResult;
  fleet: CaseResult;
  floorSkipped?: CaseResult;
  fleetSkipped?: CaseResult;
  /** The floor fleet with each entry padded to the size of ours. */
  floorPadded?: CaseResult;
  /** The fleet (`up` only) giving the CA certificate itself, for its entries' size. */
  fleetCaInline?: CaseResult;
  /** Every run of the floor fleet and of the fleet, in order, when there were several. */
  runs?: { floor: CaseResult[]; fleet: CaseResult[] };
}

/**
 * One case made of several runs of it: each operation as the run of median wall time measured it
 * (the lower of the two middle ones for an even count), the state as the first run wrote it.
 */
function medianCase(runs: readonly CaseResult[]): CaseResult {
  const [first] = runs;
  if (first === undefined) throw new Error("medianCase: no runs");
  const ops: CaseResult["ops"] = {};
  for (const name of Object.keys(first.ops) as OpName[]) {
    const measured = runs
      .map((r) => r.ops[name])
      .filter((o): o is OpResult => o !== undefined)
      .sort((a, b) => a.ms - b.ms);
    const median = measured[Math.floor((measured.length - 1) / 2)];
    if (median !== undefined) ops[name] = median;
  }
  return { ...first, ops };
}

/** An operation's wall time, or a dash where the case did not run it (a quick run). */
function msOf(c: CaseResult, name: OpName): string {
  const found = c.ops[name];
  return found === undefined ? "–" : ms(found.ms);
}

function op(c: CaseResult, name: OpName): OpResult {
  const found = c.ops[name];
  if (found === undefined) throw new Error(`${c.label} has no ${name}`);
  return found;
}

function report(
  options: FleetOptions,
  empty: CaseResult,
  trivial: CaseResult,
  pairs: readonly Pair[],
  slow: { slowOne: CaseResult; slowMany: CaseResult; slowDefault: CaseResult | undefined },
): Omit<FigureResult, "figure" | "otherCores" | "durationMs"> {
  const summary: SummaryRow[] = [];
  const misses: string[] = [];
  const peak = (c: CaseResult): number =>
    Math.max(...Object.values(c.ops).map((o) => o.host.peakHwm));
  summary.push({
    figure: "10. Floor: empty program, `up` / unchanged `up` / `refresh` / `destroy`",
    measured: (["up", "noop", "refresh", "destroy"] as const)
      .map((n) => msOf(empty, n))
      .join(" / "),
    target: "",
    met: null,
  });
  summary.push({
    figure:
      "10. Floor: one trivial dynamic resource, `up` / unchanged `up` / `refresh` / `destroy`; host peak",
    measured: `${(["up", "noop", "refresh", "destroy"] as const).map((n) => msOf(trivial, n)).join(" / ")}; ${mib(peak(trivial))}`,
    target: "",
    met: null,
  });
  for (const {
    count,
    floor,
    fleet,
    floorSkipped,
    fleetSkipped,
    floorPadded,
    fleetCaInline,
  } of pairs) {
    const goal = count >= 20;
    const limit = (n: OpName) => (count >= 100 && n !== "noop" ? TARGET_RATIO_100 : TARGET_RATIO);
    for (const n of ["up", "noop", "refresh", "destroy"] as const) {
      const figure = `10. ${count} site${count === 1 ? "" : "s"} (${3 * count} resources) vs the floor fleet of ${3 * count} trivial resources: ${OP_LABELS[n]}`;
      if (floor.ops[n] === undefined) {
        // A quick run's floor fleet runs `up` only.
        summary.push({ figure, measured: `${ms(op(fleet, n).ms)} vs –`, target: "", met: null });
        continue;
      }
      const ratio = op(fleet, n).ms / op(floor, n).ms;
      const row: SummaryRow = {
        figure,
        measured: `${ms(op(fleet, n).ms)} vs ${ms(op(floor, n).ms)} (${num(ratio)}x)`,
        target: goal ? `≤ ${limit(n)}x` : "",
        met: goal ? ratio <= limit(n) : null,
      };
      summary.push(row);
      if (row.met === false) {
        misses.push(
          `- ${row.figure}: ${row.measured}, ${ms(op(fleet, n).ms - op(floor, n).ms)} more, ${ms((op(fleet, n).ms - op(floor, n).ms) / (3 * count))} per resource; the emulators received ${op(fleet, n).requests} requests during it (${num(op(fleet, n).requests / count, 1)} per site) and the provider host used ${ms(op(fleet, n).host.cpuMs)} of CPU against the floor's ${ms(op(floor, n).host.cpuMs)}, the engine ${ms(op(fleet, n).host.engineCpuMs)} against ${ms(op(floor, n).host.engineCpuMs)}, the benchmark's process (the emulators) ${ms(op(fleet, n).benchCpuMs)} against ${ms(op(floor, n).benchCpuMs)}.`,
        );
      }
    }
    summary.push({
      figure: `10. ${count} site${count === 1 ? "" : "s"}: requests of \`up\` / unchanged \`up\` / \`refresh\` / \`destroy\`; host peak; host CPU of \`up\``,
      measured: `${(["up", "noop", "refresh", "destroy"] as const).map((n) => op(fleet, n).requests).join(" / ")}; ${mib(peak(fleet))} (floor fleet: ${mib(peak(floor))}); ${ms(op(fleet, "up").host.cpuMs)} (floor fleet: ${ms(op(floor, "up").host.cpuMs)})`,
      target: "",
      met: null,
    });
    if (fleet.state !== undefined) {
      const state = fleet.state;
      const entries = Object.entries(state.types).filter(([type]) =>
        type.startsWith("pulumi-nodejs:dynamic/"),
      );
      const worst = Math.max(...entries.map(([, t]) => t.entry));
      const floorState =
        floor.state === undefined
          ? ""
          : `; floor fleet ${num(floor.state.fileBytes / floor.state.entries, 0)} B`;
      summary.push({
        figure: `10. ${count} site${count === 1 ? "" : "s"}: state file per resource; each type's entry`,
        measured: `${num(state.fileBytes / state.entries, 0)} B${floorState}; ${entries.map(([type, t]) => `${type.split(":").at(-1)} ${t.entry} B`).join(", ")}`,
        target: `≤ ${TARGET_ENTRY_BYTES} B each`,
        met: worst <= TARGET_ENTRY_BYTES,
      });
    }
    const inline = fleetCaInline?.state;
    if (inline !== undefined) {
      const entries = Object.entries(inline.types).filter(([type]) =>
        type.startsWith("pulumi-nodejs:dynamic/"),
      );
      summary.push({
        figure: `10. ${count} site${count === 1 ? "" : "s"}, the CA certificate given itself (\`tls.caCert\`) instead of by its config key (\`tls.caCertConfig\`): state file per resource; each type's entry`,
        measured: `${num(inline.fileBytes / inline.entries, 0)} B; ${entries.map(([type, t]) => `${type.split(":").at(-1)} ${t.entry} B`).join(", ")}`,
        target: "",
        met: null,
      });
    }
    {
      const cpu = (c: CaseResult | undefined, n: OpName): string => {
        const o = c?.ops[n];
        if (o === undefined) return "–";
        return `${ms(o.host.engineCpuMs)} / ${ms(o.host.cpuMs)} / ${ms(o.host.programCpuMs)}`;
      };
      const names = (["up", "destroy"] as const).filter((n) => floor.ops[n] !== undefined);
      summary.push({
        figure: `10. ${count} site${count === 1 ? "" : "s"}: CPU by process, engine / provider host / program, ours; the floor fleet padded to ours; the floor fleet`,
        measured: names
          .map((n) => `${OP_LABELS[n]} ${cpu(fleet, n)}; ${cpu(floorPadded, n)}; ${cpu(floor, n)}`)
          .join(" — "),
        target: "",
        met: null,
      });
    }
    if (floorPadded !== undefined) {
      const names = (["up", "noop", "refresh", "destroy"] as const).filter(
        (n) => floorPadded.ops[n] !== undefined && floor.ops[n] !== undefined,
      );
      const part = (n: OpName) => {
        const [ours, plain, padded] = [op(fleet, n).ms, op(floor, n).ms, op(floorPadded, n).ms];
        const share =
          ours > plain ? `, ${num((100 * (padded - plain)) / (ours - plain), 0)}% of the gap` : "";
        return `${OP_LABELS[n]} ${ms(padded)} (${num(ours / padded)}x ours${share})`;
      };
      summary.push({
        figure: `10. ${count} site${count === 1 ? "" : "s"}: the floor fleet with each entry padded to ours (${num(dynamicEntries(floorPadded) ?? 0, 0)} B): its time, ours against it, and the part of ours over the plain floor that the entries' size explains`,
        measured: names.map(part).join("; "),
        target: "",
        met: null,
      });
    }
    if (floorSkipped !== undefined && fleetSkipped !== undefined) {
      const share = (c: CaseResult, skipped: CaseResult, n: OpName) =>
        `${ms(op(c, n).ms)} → ${ms(op(skipped, n).ms)} (${num((100 * (op(c, n).ms - op(skipped, n).ms)) / op(c, n).ms, 0)}%)`;
      summary.push({
        figure: `10. ${count} site${count === 1 ? "" : "s"}: with PULUMI_SKIP_CHECKPOINTS=true (a measurement of the checkpoint's share, not a setting), ours then the floor fleet, \`up\` / unchanged \`up\` / \`refresh\` / \`destroy\``,
        measured: `ours ${(["up", "noop", "refresh", "destroy"] as const).map((n) => share(fleet, fleetSkipped, n)).join(" / ")}; floor ${(["up", "noop", "refresh", "destroy"] as const).map((n) => share(floor, floorSkipped, n)).join(" / ")}`,
        target: "",
        met: null,
      });
    }
  }
  const at = (count: number) => pairs.find((p) => p.count === count);
  const twenty = at(20);
  const hundred = at(100);
  const base = peak(trivial);
  if (twenty !== undefined) {
    const extra = peak(twenty.fleet) - base;
    const row: SummaryRow = {
      figure: "10. Host peak, 20 sites vs one trivial resource",
      measured: `${mib(peak(twenty.fleet))} vs ${mib(base)} (+${mib(extra)})`,
      target: `≤ + ${mib(TARGET_HOST_EXTRA_BYTES)} (60 MB)`,
      met: extra <= TARGET_HOST_EXTRA_BYTES,
    };
    summary.push(row);
    if (row.met === false) {
      misses.push(
        `- ${row.figure}: ${row.measured}; the floor fleet of 60 trivial resources peaked at ${mib(peak(twenty.floor))} (+${mib(peak(twenty.floor) - base)}), so ${mib(peak(twenty.fleet) - peak(twenty.floor))} is ours: the package's modules, loaded once (the host deserializes each distinct \`__provider\` once, and every Site shares one), and what the host keeps per site while it works (connections, TLS contexts, the heap of the operations); the per-site growth up to 100 sites (row below) is what each further site costs.`,
      );
    }
    if (hundred !== undefined) {
      const growth20 = extra / 20;
      const growth100 = (peak(hundred.fleet) - base) / 100;
      const linear: SummaryRow = {
        figure: "10. Host peak growth per site above one trivial resource: 20 sites vs 100 sites",
        measured: `${mib(growth20)} vs ${mib(growth100)} per site (100 sites: ${mib(peak(hundred.fleet))})`,
        target: "at 100 ≤ at 20 (at most linear)",
        met: growth100 <= growth20,
      };
      summary.push(linear);
      if (linear.met === false) {
        misses.push(
          `- ${linear.figure}: ${linear.measured}; the floor fleet grew from ${mib(peak(twenty.floor))} (60 resources) to ${mib(peak(hundred.floor))} (300 resources).`,
        );
      }
    }
  }
  if (hundred !== undefined) {
    const extra = peak(hundred.fleet) - peak(hundred.floor);
    summary.push({
      figure: "10. Host peak, 100 sites vs the floor fleet of 300 trivial resources",
      measured: `${mib(peak(hundred.fleet))} vs ${mib(peak(hundred.floor))} (+${mib(extra)})`,
      target: `≤ + ${mib(TARGET_HOST_EXTRA_100_BYTES)}`,
      met: extra <= TARGET_HOST_EXTRA_100_BYTES,
    });
  }
  const [first, last] = [pairs[0], pairs.at(-1)];
  if (first !== undefined && last !== undefined && last.count > first.count) {
    const perSite =
      (op(last.fleet, "up").host.cpuMs - op(first.fleet, "up").host.cpuMs) /
      (last.count - first.count);
    summary.push({
      figure: `10. Host CPU of \`up\` per further site, ${first.count} to ${last.count} sites`,
      measured: ms(perSite),
      target: `≤ ${TARGET_HOST_CPU_PER_SITE_MS} ms`,
      met: perSite <= TARGET_HOST_CPU_PER_SITE_MS,
    });
  }
  const oneUp = op(slow.slowOne, "up").ms;
  const manyUp = op(slow.slowMany, "up").ms;
  const delayRow: SummaryRow = {
    figure: `10. ${options.delayCount} sites vs 1 site, each created in ${options.delayMs / 1000} s, \`pulumi up --parallel ${options.parallel}\``,
    measured: `${ms(manyUp)} vs ${ms(oneUp)} (${num(manyUp / oneUp)}x)`,
    target: `≤ ${TARGET_DELAY_RATIO}x`,
    met: manyUp / oneUp <= TARGET_DELAY_RATIO,
  };
  summary.push(delayRow);
  if (delayRow.met === false) {
    misses.push(
      `- ${delayRow.figure}: ${delayRow.measured}, ${ms(manyUp - oneUp)} more for ${options.delayCount - 1} more sites; the same fleet without slow creations (above) shows what the engine and the provider add per site.`,
    );
  }
  if (slow.slowDefault !== undefined) {
    const d = op(slow.slowDefault, "up").ms;
    summary.push({
      figure: `10. The same ${options.delayCount} sites at the CLI's default parallelism`,
      measured: `${ms(d)} (${num(d / oneUp)}x one site)`,
      target: "",
      met: null,
    });
  }

  // A quick run's fleet of one is also the slow comparison's one site: listed once.
  const cases = [
    ...new Set([
      empty,
      trivial,
      ...pairs.flatMap((p) => [
        p.floor,
        p.fleet,
        p.fleetCaInline,
        p.floorPadded,
        p.floorSkipped,
        p.fleetSkipped,
      ]),
      slow.slowOne,
      slow.slowMany,
      ...(slow.slowDefault === undefined ? [] : [slow.slowDefault]),
    ]),
  ].filter((c): c is CaseResult => c !== undefined);
  const stateRows = pairs.flatMap(({ count, fleet, fleetCaInline }) =>
    [fleet, ...(fleetCaInline === undefined ? [] : [fleetCaInline])].flatMap((c) =>
      Object.entries(c.state?.types ?? {}).map(([type, t]) => [
        c === fleet ? String(count) : `${count}${CA_INLINE}`,
        type,
        String(t.count),
        String(t.entry),
        String(t.inputs),
        String(t.outputs),
        t.fields.map(([field, bytes]) => `${field} ${bytes}`).join(", "),
      ]),
    ),
  );
  const rows = cases.flatMap((c) =>
    (Object.entries(c.ops) as Array<[OpName, OpResult]>).map(([n, o]) => [
      c.label,
      String(c.resources),
      OP_LABELS[n],
      ms(o.ms),
      String(o.requests),
      o.host.pids.length === 0 ? "no host" : mib(o.host.peakHwm),
      o.host.pids.length === 0 ? "" : ms(o.host.cpuMs),
      ms(o.host.engineCpuMs),
      o.host.programCpuMs === 0 ? "" : ms(o.host.programCpuMs),
      ms(o.benchCpuMs),
    ]),
  );
  const perResource = pairs.length >= 2 ? slopes(pairs) : [];
  const runLines = pairs.flatMap(({ count, runs }) =>
    runs === undefined
      ? []
      : [
          `Each run at ${count} site${count === 1 ? "" : "s"}, in order, ours / the floor fleet: ${(
            ["up", "noop", "refresh", "destroy"] as const
          )
            .map(
              (n) =>
                `${OP_LABELS[n]} ${runs.fleet.map((r) => msOf(r, n)).join(", ")} / ${runs.floor.map((r) => msOf(r, n)).join(", ")}`,
            )
            .join("; ")}.`,
        ],
  );
  return {
    title: "A fleet of sites in one stack through `pulumi up`, against the engine's floor",
    summary,
    details: [
      `Method: every operation is the \`pulumi\` command a user runs (\`pulumi up --yes --skip-preview\`, the same with \`--expect-no-changes\` for the unchanged \`up\`, \`pulumi refresh --yes --skip-preview --expect-no-changes\`, \`pulumi destroy --yes --skip-preview\`), run by the engine built by toolchain/engine.cjs with the Node.js language host beside it, in a project folder of the benchmark's consumer project (the packed package installed as tools/harness/consumer.ts's prepareConsumer installs it), a file backend, a passphrase secrets provider, a private PULUMI_HOME; each case a new stack, created and configured (\`pulumi stack init\`, \`pulumi config set\`) before the timed operations. Wall time: the operation's own CLI process, from its spawn to its exit. The program is bench/fleet/program.cjs: the empty program; one resource of the bench's own trivial dynamic provider (its create answers an id); the floor fleet, N groups of three trivial resources, the second and third taking the first's id, the same dependency shape as a site's three resources; and the fleet, N sites in a loop over a config list, each a Site, a SiteExport (\`downloadTo\` a folder of the project) and a LogSettings (\`logLevel: WARNING\`) taking the Site's outputs. Each site has its own emulator (one emulator is one machine, which holds one site), all of them in the benchmark's own process on 127.0.0.1, each on its own port, with createDelayMs 0 and exportDelayMs 0 unless a row says otherwise, all serving one certificate so that the program trusts one CA, which every resource names by its stack config key (\`tls.caCertConfig: "caCert"\`, so that state records the key, docs/connection.md); at the smallest size a fleet that gives the certificate itself (\`tls.caCert\`) runs \`up\` once more, for its entries' size. Requests: what the emulators logged during the operation. Host: the dynamic-provider host (\`node …/@pulumi/pulumi/cmd/dynamic-provider\`, the CLI's child) read from /proc every 100 ms during the operation: peak is the highest VmHWM read (the kernel's own peak resident set), CPU its user + system time at the last reading; engine CPU is the same of the \`pulumi\` process itself (the engine, its checkpoints included), program CPU of the program's Node.js process (\`node …/@pulumi/pulumi/cmd/run\`, the language host's child; \`refresh\` and \`destroy\` run no program), both read the same way, so the last 100 ms before each exits may be missed; bench CPU is the benchmark's own process (all the emulators, and the harness: its /proc sampling and its reading of the engine's event log), from Node's process.cpuUsage around the operation: on this machine the emulators share the cores with the engine and the host, which a real server does not. The CLI's default parallelism is GOMAXPROCS × 4 (pkg/cmd/pulumi/operations/up.go, \`defaultParallel\`; ${os.availableParallelism()} cores here), unless PULUMI_PARALLEL or \`--parallel\` says otherwise; the rows without \`--parallel\` use it. ${options.warmUps} run${options.warmUps === 1 ? "" : "s"} of the empty program before measuring, not counted; ${(options.runs ?? 1) > 1 && options.quick !== true ? `each size's fleet and plain floor fleet run ${options.runs} times, one after the other in turn (the other cases once), each operation's row the run of median wall time (each run's times follow the table)` : "each case measured once"}.`,
      "",
      ...table(
        [
          "Case",
          "Resources",
          "Operation",
          "Wall time",
          "Requests",
          "Host peak",
          "Host CPU",
          "Engine CPU",
          "Program CPU",
          "Bench CPU",
        ],
        rows,
      ),
      ...(runLines.length === 0 ? [] : ["", ...runLines]),
      ...(perResource.length === 0 ? [] : ["", ...perResource]),
      ...(stateRows.length === 0
        ? []
        : [
            "",
            "The state file after each fleet's `up` (the file backend's own file, compact JSON), per resource type: entries, the average entry's bytes, its inputs' and its outputs' (the first entry's largest fields; a secret is its ciphertext).",
            "",
            ...table(
              [
                "Sites",
                "Type",
                "Entries",
                "Entry B",
                "Inputs B",
                "Outputs B",
                "Largest fields (B)",
              ],
              stateRows,
            ),
          ]),
    ],
    misses,
  };
}

/** Per-site cost between the smallest and the largest fleet, ours and the floor's. */
function slopes(pairs: readonly Pair[]): string[] {
  const first = pairs[0]!;
  const last = pairs.at(-1)!;
  const sites = last.count - first.count;
  if (sites <= 0) return [];
  const per = (c: (p: Pair) => number) => (c(last) - c(first)) / sites;
  const parts = (["up", "noop", "refresh", "destroy"] as const).map((n) => {
    const ours = per((p) => op(p.fleet, n).ms);
    const floor = per((p) => op(p.floor, n).ms);
    const cpu = per((p) => op(p.fleet, n).host.cpuMs);
    const floorCpu = per((p) => op(p.floor, n).host.cpuMs);
    return `${OP_LABELS[n]} ${ms(ours)} (floor ${ms(floor)}; host CPU ${ms(cpu)}, floor ${ms(floorCpu)})`;
  });
  return [
    `Each further site (three resources), from ${first.count} to ${last.count} sites: ${parts.join("; ")}.`,
  ];
}

/**
 * Figures of the fault, bad-input and security suites, written by the suites themselves so that
 * nobody types them by hand.
 *
 * How it works (jest.config.js and package.json are off limits, so there is no globalTeardown):
 * - each suite creates one {@link SuiteFigures} and records every case it ran with the counts it
 *   measured (faults injected and survived, inputs tried, data lost, requests sent...);
 * - in its `afterAll` the suite calls {@link SuiteFigures.write}: that writes the suite's own
 *   fragment `tests/results/run/<suite>.json` and then merges every fragment present into
 *   `tests/results/run/robustness.json` and a short `tests/results/run/ROBUSTNESS.md`;
 * - suites run in parallel jest workers, so the merge runs under a lock directory
 *   (`tests/results/run/.lock`) and writes through a temporary file and a rename. Whichever suite
 *   ends last writes the complete merged file; a suite that did not run this time keeps its
 *   fragment from the previous run, marked with its own `runAt`.
 * - `tests/results/run/` is git-ignored (tests/results/.gitignore): a test run must not change
 *   tracked files, or the engine harness would see a dirty tree and pack the package again for
 *   every suite. With `ROBUSTNESS_PUBLISH=1` the merged files are also copied to
 *   `tests/results/robustness.json` and `tests/results/ROBUSTNESS.md`, the committed results of
 *   a real run:
 *   `ROBUSTNESS_PUBLISH=1 npx jest tests/faults tests/fuzz tests/security`.
 *
 * A case is recorded at the end of its test, after its assertions: a test that fails records
 * nothing, so the figures only ever describe cases that passed.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./project";

/** Where the committed results are (tests/results). */
export const PUBLISHED_DIR = path.join(REPO_ROOT, "tests", "results");
/** Folder of this run's fragments and merged results (git-ignored). */
export const RESULTS_DIR = path.join(PUBLISHED_DIR, "run");
/** The merged results of this run. */
export const RESULTS_FILE = path.join(RESULTS_DIR, "robustness.json");
/** The human-readable summary generated from {@link RESULTS_FILE}. */
export const SUMMARY_FILE = path.join(RESULTS_DIR, "ROBUSTNESS.md");

/** Counters a case may report; all optional, all counted by the test itself. */
export interface CaseCounts {
  /** Faults the test injected (proxy faults, kills, expired tokens, canned answers...). */
  faultsInjected?: number;
  /** Injected faults after which the system ended in the expected state. */
  faultsSurvived?: number;
  /** Generated or hand-made inputs fed to the code under test. */
  inputsTried?: number;
  /** HTTP requests sent to the emulator by the test itself. */
  requestsSent?: number;
  /** Requests or calls that were refused as they must be. */
  refusalsVerified?: number;
  /** Archives, sites, collaborations or outputs lost or corrupted (must stay 0). */
  dataLost?: number;
  /** Secret values searched for in outputs, logs, errors and URLs. */
  secretsTracked?: number;
  /** Places where a secret was found in the clear (must stay 0). */
  secretsLeaked?: number;
}

const COUNTERS: ReadonlyArray<keyof CaseCounts> = [
  "faultsInjected",
  "faultsSurvived",
  "inputsTried",
  "requestsSent",
  "refusalsVerified",
  "dataLost",
  "secretsTracked",
  "secretsLeaked",
];

/** One recorded case. */
export interface CaseRecord extends CaseCounts {
  name: string;
  /** Measured figures of the case (durations in ms, limits...), for the record. */
  measured?: Record<string, number | string | boolean>;
}

/** A suite's fragment. */
export interface SuiteFragment {
  suite: string;
  runAt: string;
  /** Wall time from the suite's first record to its write, ms. */
  durationMs: number;
  /** Fixed seed of generated inputs, when the suite uses one. */
  seed?: number;
  casesRun: number;
  totals: Required<CaseCounts>;
  cases: CaseRecord[];
}

function emptyTotals(): Required<CaseCounts> {
  return Object.fromEntries(COUNTERS.map((k) => [k, 0])) as unknown as Required<CaseCounts>;
}

/** The figures of one suite. */
export class SuiteFigures {
  private readonly cases: CaseRecord[] = [];
  private readonly started = Date.now();

  /**
   * @param suite - file-system friendly name, e.g. `faults-site`.
   * @param seed - the fixed seed of the suite's generated inputs, if any.
   */
  constructor(
    readonly suite: string,
    readonly seed?: number,
  ) {}

  /** Records a case that passed, with what it counted. */
  record(name: string, counts: CaseCounts = {}, measured?: CaseRecord["measured"]): void {
    this.cases.push({ name, ...counts, ...(measured === undefined ? {} : { measured }) });
  }

  /** The suite's fragment as it stands. */
  fragment(): SuiteFragment {
    const totals = emptyTotals();
    for (const c of this.cases) for (const k of COUNTERS) totals[k] += c[k] ?? 0;
    return {
      suite: this.suite,
      runAt: new Date().toISOString(),
      durationMs: Date.now() - this.started,
      ...(this.seed === undefined ? {} : { seed: this.seed }),
      casesRun: this.cases.length,
      totals,
      cases: this.cases,
    };
  }

  /** Writes the fragment (unless no case passed) and merges every fragment into the results. */
  async write(): Promise<void> {
    if (this.cases.length === 0) return;
    await fs.mkdir(RESULTS_DIR, { recursive: true });
    await writeAtomically(
      path.join(RESULTS_DIR, `${this.suite}.json`),
      `${JSON.stringify(this.fragment(), null, 2)}\n`,
    );
    await withLock(mergeResults);
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, text);
  await fs.rename(temp, file);
}

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = path.join(RESULTS_DIR, ".lock");
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await fs.mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A lock left by a killed worker is taken over after the deadline.
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

/** The merged results file. */
export interface Results {
  generatedBy: string;
  generatedAt: string;
  suites: number;
  casesRun: number;
  totals: Required<CaseCounts>;
  bySuite: SuiteFragment[];
}

/** Reads every fragment and writes {@link RESULTS_FILE} and {@link SUMMARY_FILE}. */
export async function mergeResults(): Promise<Results> {
  const names = (await fs.readdir(RESULTS_DIR))
    .filter((n) => n.endsWith(".json") && n !== path.basename(RESULTS_FILE))
    .sort();
  const fragments: SuiteFragment[] = [];
  for (const name of names) {
    try {
      const parsed = JSON.parse(
        await fs.readFile(path.join(RESULTS_DIR, name), "utf8"),
      ) as SuiteFragment;
      if (typeof parsed.suite === "string" && Array.isArray(parsed.cases)) fragments.push(parsed);
    } catch {
      // Not a fragment (or one being replaced): skip it.
    }
  }
  const totals = emptyTotals();
  for (const f of fragments) for (const k of COUNTERS) totals[k] += f.totals[k] ?? 0;
  const results: Results = {
    generatedBy: "tools/harness/robustness-record.ts (merged from tests/results/run/<suite>.json)",
    generatedAt: new Date().toISOString(),
    suites: fragments.length,
    casesRun: fragments.reduce((n, f) => n + f.casesRun, 0),
    totals,
    bySuite: fragments,
  };
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const markdown = summary(results);
  await writeAtomically(RESULTS_FILE, json);
  await writeAtomically(SUMMARY_FILE, markdown);
  if (process.env.ROBUSTNESS_PUBLISH === "1") {
    await writeAtomically(path.join(PUBLISHED_DIR, path.basename(RESULTS_FILE)), json);
    await writeAtomically(path.join(PUBLISHED_DIR, path.basename(SUMMARY_FILE)), markdown);
  }
  return results;
}

function summary(results: Results): string {
  const head = ["suite", "cases", ...COUNTERS, "seed", "ms", "run at"];
  const row = (cells: Array<string | number>): string => `| ${cells.join(" | ")} |`;
  const lines = [
    "# Robustness figures",
    "",
    "Generated by `tools/harness/robustness-record.ts` from `robustness.json`, which the fault, fuzz and",
    "security suites write at the end of every run into `tests/results/run/` (git-ignored); the",
    "committed copy comes from `ROBUSTNESS_PUBLISH=1 npx jest tests/faults tests/fuzz tests/security`.",
    "Do not edit by hand. Every figure is counted by a test after its assertions passed;",
    "`dataLost` and `secretsLeaked` are asserted to be 0.",
    "",
    row(head),
    row(head.map(() => "---")),
    ...results.bySuite.map((f) =>
      row([
        f.suite,
        f.casesRun,
        ...COUNTERS.map((k) => f.totals[k] ?? 0),
        f.seed ?? "",
        f.durationMs,
        f.runAt,
      ]),
    ),
    row(["**all**", results.casesRun, ...COUNTERS.map((k) => results.totals[k]), "", "", ""]),
    "",
  ];
  return `${lines.join("\n")}\n`;
}

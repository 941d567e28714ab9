/** What each figure hands to RESULTS.md, and the rendering of the file. */
import type { MachineFacts } from "./machine";

/** One line of the summary table: a figure next to its target. */
export interface SummaryRow {
  figure: string;
  measured: string;
  target: string;
  /** null: informative, no target. */
  met: boolean | null;
}

/** The outcome of one figure. */
export interface FigureResult {
  /** The figure's number (1 to 6), as the summary rows and headings name it. */
  figure: number;
  title: string;
  summary: SummaryRow[];
  /** Markdown: the detailed numbers and how they were measured. */
  details: string[];
  /** Markdown: for each missed target, why and what would close the gap. */
  misses: string[];
  /** Cores other processes kept busy on average while the figure ran. */
  otherCores: number;
  durationMs: number;
}

/** A markdown table. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ];
}

function verdict(met: boolean | null): string {
  if (met === null) return "(info)";
  return met ? "met" : "**missed**";
}

/** Everything RESULTS.md is made of. */
export interface Report {
  command: string;
  facts: MachineFacts;
  tarball: string;
  loadBefore: number;
  loadAfter: number;
  totalMs: number;
  figures: FigureResult[];
  notes: string[];
}

/**
 * The hand-written section on `npm test`'s own time: its numbers come from Jest runs, not from
 * the benchmark, so a run of the benchmark keeps it.
 */
export const TEST_SUITE_HEADING = "## The test suite's time";

/** The hand-written section of an earlier RESULTS.md, from its heading to the end, or "". */
export function keptSection(previous: string | undefined): string {
  const at = previous?.indexOf(`\n${TEST_SUITE_HEADING}\n`) ?? -1;
  return at === -1 ? "" : previous!.slice(at + 1);
}

/** Renders RESULTS.md. */
export function render(report: Report): string {
  const { facts } = report;
  const lines: string[] = [
    "# Benchmark results",
    "",
    `Written by \`npm run bench\` (bench/main.ts) from the numbers of one run; do not edit by hand, except the section "${TEST_SUITE_HEADING.slice(3)}" at the end, which a run keeps as it was.`,
    "",
    "## Machine and run",
    "",
    ...table(
      ["", ""],
      [
        ["Command", `\`${report.command}\``],
        ["Date", facts.date],
        ["Node", facts.node],
        ["CPU", `${facts.cpuModel}, ${facts.cores} cores`],
        ["Memory", `${facts.memoryMiB} MiB`],
        ["OS", facts.os],
        [
          "Commit",
          `${facts.gitCommit}${facts.gitDirty ? " (working tree has uncommitted changes)" : ""}`,
        ],
        [
          "Package measured",
          `\`${report.tarball}\` (packed by tools/harness/pack.ts; the emulators run from this checkout's emulator/ sources)`,
        ],
        [
          "Load average (1 min) at start / end",
          `${report.loadBefore.toFixed(2)} / ${report.loadAfter.toFixed(2)}`,
        ],
        ["Total run time", `${(report.totalMs / 1000).toFixed(0)} s`],
      ],
    ),
    "",
    ...report.notes,
    "",
    "## Summary",
    "",
    ...table(
      ["Figure", "Measured", "Target", ""],
      report.figures.flatMap((f) =>
        f.summary.map((r) => [r.figure, r.measured, r.target, verdict(r.met)]),
      ),
    ),
    "",
  ];
  report.figures.forEach((f) => {
    lines.push(`## ${f.figure}. ${f.title}`, "");
    lines.push(...f.details, "");
    if (!Number.isNaN(f.otherCores)) {
      lines.push(
        `Other processes kept ${f.otherCores.toFixed(2)} of ${facts.cores} cores busy on average while this figure ran (${(f.durationMs / 1000).toFixed(0)} s).`,
        "",
      );
    }
    if (f.misses.length > 0)
      lines.push("**Missed target: why, and what would close the gap.**", "", ...f.misses, "");
  });
  return `${lines.join("\n").trimEnd()}\n`;
}

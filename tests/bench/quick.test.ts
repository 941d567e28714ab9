/**
 * `npm run bench -- --quick` in `npm test`: every figure of bench/ is computed once, at small
 * sizes, so a figure that can no longer be computed (an empty sample, a crash) fails the build.
 * Nothing here looks at the numbers: a quick run's timings mean nothing, and the full run
 * (`npm run bench`, manual) writes bench/RESULTS.md.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";

const FIGURES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

interface Outcome {
  code: number | null;
  stderr: string;
  report: string;
}

/** Runs the quick benchmark in its own process, as `npm run bench -- --quick` does. */
function runQuickBench(): Promise<Outcome> {
  const dir = runTempDir("bench-quick-");
  const out = path.join(dir, "RESULTS.md");
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(REPO_ROOT, "bench", "run.cjs"), "--quick", "--out", out],
      { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const report = fs.existsSync(out) ? fs.readFileSync(out, "utf8") : "";
      fs.rmSync(dir, { recursive: true, force: true });
      resolve({ code, stderr, report });
    });
  });
}

describe("npm run bench -- --quick", () => {
  let outcome: Outcome;
  beforeAll(async () => {
    outcome = await runQuickBench();
  }, 900_000);

  it("exits 0 having computed every figure", () => {
    expect({ code: outcome.code, tail: outcome.stderr.split("\n").slice(-30) }).toMatchObject({
      code: 0,
    });
    expect(outcome.stderr).toContain(`bench: figures computed: ${FIGURES.join(", ")}\n`);
  });

  it.each(FIGURES)("reports figure %i with a summary row and its section", (figure) => {
    expect(outcome.report).toMatch(new RegExp(`^\\| ${figure}\\. `, "m"));
    expect(outcome.report).toMatch(new RegExp(`^## ${figure}\\. `, "m"));
  });

  it("measures completion detection in both creation modes", () => {
    for (const mode of ["runAsync false", "runAsync true"]) {
      expect(outcome.report).toMatch(new RegExp(`^\\| 3\\. Completion detection, .*${mode}`, "m"));
    }
  });

  it("measures figure 7 with each side in a fresh process, against its targets", () => {
    expect(outcome.report).toMatch(/^\| 7\. Fresh process, delay 0 s: Site .*\| ≤ 1\.5x \|/m);
    expect(outcome.report).toMatch(/^\| 7\. Fresh process, delay 0 s: requests.*\| ≤ 6 \|/m);
  });

  it("says it is a quick run, whose numbers are not measurements", () => {
    expect(outcome.report).toContain("**Quick run** (`--quick`)");
  });
});

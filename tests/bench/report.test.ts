/**
 * bench/RESULTS.md's hand-written section on the test suite's time survives a benchmark run:
 * the run rewrites every figure and keeps that section as it was.
 */
import { keptSection, TEST_SUITE_HEADING } from "../../bench/lib/report";

const SECTION = `${TEST_SUITE_HEADING}\n\nJest's own figures.\n`;

it("keeps the section from its heading to the end of the earlier file", () => {
  const previous = `# Benchmark results\n\n## 10. A fleet\n\nold numbers\n\n${SECTION}`;
  expect(keptSection(previous)).toBe(SECTION);
});

it("keeps nothing when the earlier file has no such section, or there is none", () => {
  expect(keptSection("# Benchmark results\n\n## 1. Size\n")).toBe("");
  expect(keptSection(undefined)).toBe("");
});

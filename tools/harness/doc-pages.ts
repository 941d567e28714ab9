/**
 * What the contributor pages (ARCHITECTURE.md, docs/internals.md) are checked for: lines a reader
 * sees whole (at most 100 columns), the repository paths they name in backticks, and the tests
 * they cite with their titles.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The widest line a page may have, in characters. */
export const MAX_COLUMNS = 100;

/** The lines of `text` wider than {@link MAX_COLUMNS}, code blocks included. */
export function longLines(text: string): string[] {
  return text.split("\n").filter((line) => [...line].length > MAX_COLUMNS);
}

/** The backticked names that are files (by their extension) or folders (a trailing slash). */
export function namedPaths(text: string): string[] {
  const names = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  return [
    ...new Set(
      names.filter(
        (n) =>
          !/[<>*…:"]/.test(n) &&
          !n.startsWith("pulumi-arcgis-admin/") &&
          (/\.(ts|md|cjs|mjs|json)$/.test(n) || /^[\w.-]+(\/[\w.-]+)*\/$/.test(n)),
      ),
    ),
  ];
}

/** Whether git ignores `name` in the repository at `root` (a build output such as `dist/`). */
export function isIgnored(root: string, name: string): boolean {
  return (
    spawnSync("git", ["check-ignore", "--quiet", "--no-index", name], { cwd: root }).status === 0
  );
}

/** A test file a page cites, and the titles (or parts of titles) it quotes from it. */
export interface CitedTest {
  file: string;
  titles: string[];
}

/**
 * The tests cited in the list items of `text`: each backticked `tests/….test.ts`, with the quoted
 * strings that follow it in the same item (up to the next test file). A quote may stand for part
 * of a title: "…" marks what it leaves out. An item's lines are read as one, so a title may wrap.
 */
export function citedTests(text: string): CitedTest[] {
  const items = text
    .split(/\n(?=\s*(?:[-*]|\d+\.)\s|\s*\n)/)
    .map((item) => item.replace(/\s+/g, " "));
  const cited: CitedTest[] = [];
  for (const item of items) {
    let current: CitedTest | undefined;
    for (const m of item.matchAll(/`(tests\/[\w./-]+\.test\.ts)`|"([^"]+)"/g)) {
      if (m[1] !== undefined) {
        current = { file: m[1], titles: [] };
        cited.push(current);
      } else if (current !== undefined) {
        current.titles.push(m[2]!);
      }
    }
  }
  return cited;
}

/** The cited titles that `read(file)` does not contain, as "file: title". */
export function missingTitles(cited: CitedTest[], read: (file: string) => string): string[] {
  const missing: string[] = [];
  for (const { file, titles } of cited) {
    const source = read(file);
    for (const title of titles) {
      const parts = title.split("…").map((part) => part.trim());
      if (!parts.every((part) => source.includes(part))) missing.push(`${file}: ${title}`);
    }
  }
  return missing;
}

/** The text of a repository file, or "" when there is none. */
export function readIfAny(root: string, file: string): string {
  const full = path.join(root, file);
  return fs.existsSync(full) ? fs.readFileSync(full, "utf8") : "";
}

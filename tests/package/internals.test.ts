/**
 * docs/internals.md stays readable and true of the code: lines of at most 100 columns (no table
 * whose cells are paragraphs), every file or folder it names in backticks exists, and every test
 * it cites exists and holds the titles it quotes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  citedTests,
  isIgnored,
  longLines,
  missingTitles,
  namedPaths,
  readIfAny,
} from "../../tools/harness/doc-pages";

const ROOT = path.resolve(__dirname, "..", "..");
const TEXT = fs.readFileSync(path.join(ROOT, "docs", "internals.md"), "utf8");

/** The folders the page's sections are about (`## The client (`provider/client/`)`), and theirs. */
function sectionFolders(text: string): string[] {
  const named = [...text.matchAll(/^## .*?`([\w./-]+\/)`/gm)].map((m) => m[1]!);
  return named.flatMap((folder) => [
    folder,
    ...fs
      .readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name))),
  ]);
}

/**
 * The names of `text` that are no repository path: a name resolves from the repository root or
 * from a folder of a section (`common/pulumi/registration.ts` in the resources' section); a build
 * output git ignores (`dist/`, `sdk/`) is not looked for.
 */
function missingPaths(text: string): string[] {
  const bases = ["", ...sectionFolders(text)];
  return namedPaths(text).filter(
    (name) =>
      !bases.some((base) => fs.existsSync(path.join(ROOT, base, name))) && !isIgnored(ROOT, name),
  );
}

it("is wrapped at 100 columns", () => {
  expect(longLines(TEXT)).toEqual([]);
});

it("names only files and folders that exist", () => {
  expect(namedPaths(TEXT).length).toBeGreaterThan(50);
  expect(missingPaths(TEXT)).toEqual([]);
});

// The cited files themselves are named paths: the test above finds one that is gone.
it("quotes only titles the cited tests hold", () => {
  const cited = citedTests(TEXT);
  expect(cited.length).toBeGreaterThan(40);
  expect(missingTitles(cited, (file) => readIfAny(ROOT, file))).toEqual([]);
});

it("finds what is wrong: a long line, a path that is gone, a title no test has", () => {
  const page = [
    "## The client (`provider/client/`)",
    "",
    `- ${"a".repeat(99)}`,
    "- `request.ts` and `common/pulumi/registration.ts`, `no-such-file.ts`, `dist/`",
    "",
    "Tested by:",
    "",
    '- `tests/a.test.ts` "reads a site", "sends … once"; `tests/b.test.ts` "waits for',
    '  the server", "a title it has not"',
  ].join("\n");
  const sources: Record<string, string> = {
    "tests/a.test.ts": 'it("reads a site", …); it("sends createNewSite once", …);',
    "tests/b.test.ts": 'it("waits for the server", …);',
  };
  expect(longLines(page)).toEqual([`- ${"a".repeat(99)}`]);
  expect(missingPaths(page)).toEqual([
    "common/pulumi/registration.ts",
    "no-such-file.ts",
    "tests/a.test.ts",
    "tests/b.test.ts",
  ]);
  expect(missingTitles(citedTests(page), (file) => sources[file] ?? "")).toEqual([
    "tests/b.test.ts: a title it has not",
  ]);
});

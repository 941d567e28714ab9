/**
 * The benchmark and the tests share one harness, tools/harness/: the benchmark imports no test
 * file, and the harness imports nothing from tests/, so changing a test never changes what
 * `npm run bench` measures. The one exception is Esri's evidence: the conformance corpus (its
 * cases, flows and their replay), which the side-by-side figure replays as recorded.
 *
 * It is the one place of test support: tests/ holds the suites, their programs and fixtures, and
 * no support module of its own; a temporary folder is made by tools/harness/temp.ts alone (in the
 * run's folder, which the run's teardown removes); each harness file keeps to one job, short.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
/** The corpus of Esri's recorded exchanges: data the benchmark replays, not tests. */
const EVIDENCE = [
  "tests/conformance/corpus.ts",
  "tests/conformance/flow.ts",
  "tests/conformance/cases/",
  "tests/conformance/flows/",
];

function sourceFiles(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|cjs|mjs|js)$/.test(f))
    .map((f) => path.join(folder, f).replace(/\\/g, "/"));
}

/** Every relative module a file imports or requires, as a path from the repository root. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const specifiers = [
    ...text.matchAll(/(?:\bfrom|\bimport|\brequire\(|\bimport\()\s*["'](\.{1,2}\/[^"']+)["']/g),
  ].map((m) => m[1]!);
  return specifiers.map((s) =>
    path.relative(ROOT, path.resolve(ROOT, path.dirname(file), s)).replace(/\\/g, "/"),
  );
}

function intoTests(folder: string): string[] {
  return sourceFiles(folder).flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith("tests/"))
      .filter(
        (target) =>
          !EVIDENCE.some((e) => target === e.replace(/\.ts$/, "") || target.startsWith(e)),
      )
      .map((target) => `${file} -> ${target}`),
  );
}

it("finds the imports it checks", () => {
  const targets = sourceFiles("bench").flatMap(importsOf);
  expect(targets).toContain("tools/harness/consumer");
  expect(targets).toContain("tools/harness/real-stack");
});

it("bench/ imports no test file, only the shared harness", () => {
  expect(intoTests("bench")).toEqual([]);
});

it("tools/harness/ imports nothing from tests/", () => {
  expect(intoTests("tools")).toEqual([]);
});

const THIS_FILE = path.relative(ROOT, __filename).replace(/\\/g, "/");
/** The one module that makes temporary folders. */
const TEMP_MODULE = "tools/harness/temp.ts";
/** A call of Node's mkdtemp, in any of its forms (`fs.mkdtemp`, `mkdtempSync`, `fsp.mkdtemp`). */
const MAKES_TEMP_FOLDER = /\bmkdtemp(?:Sync)?\s*[(,}]/;

/** The files of `folders` that make a temporary folder by hand. */
function tempFolderMakers(folders: readonly string[]): string[] {
  return (
    folders
      .flatMap(sourceFiles)
      // This file names the calls it looks for.
      .filter((file) => file !== TEMP_MODULE && file !== THIS_FILE)
      .filter((file) => MAKES_TEMP_FOLDER.test(fs.readFileSync(path.join(ROOT, file), "utf8")))
  );
}

it("no test, benchmark or harness file makes a temporary folder by hand", () => {
  expect(MAKES_TEMP_FOLDER.test(fs.readFileSync(path.join(ROOT, TEMP_MODULE), "utf8"))).toBe(true);
  for (const call of [
    "fs.mkdtempSync(p)",
    "await fsp.mkdtemp(p)",
    "import { mkdtempSync, rmSync }",
  ]) {
    expect([call, MAKES_TEMP_FOLDER.test(call)]).toEqual([call, true]);
  }
  expect(tempFolderMakers(["tests", "bench", "tools"])).toEqual([]);
});

/** The most lines a harness file may have: one job each. */
const HARNESS_FILE_LINES = 400;

it(`each harness file keeps to ${HARNESS_FILE_LINES} lines`, () => {
  const long = sourceFiles("tools/harness")
    .map((file) => ({
      file,
      lines: fs.readFileSync(path.join(ROOT, file), "utf8").split("\n").length,
    }))
    .filter(({ lines }) => lines > HARNESS_FILE_LINES);
  expect(long).toEqual([]);
});

/** What tests/ may hold besides suites: Esri's evidence, fixtures, programs and data of suites. */
const NOT_SUPPORT = [
  /^tests\/conformance\/(corpus|flow|index|match)\.ts$/,
  /^tests\/conformance\/(cases|flows)\//,
  /\/fixtures\//,
  /^tests\/[^/]+\/[^/]+-program\//,
];

it("tests/ holds no support module of its own: test support is in tools/harness/", () => {
  const support = sourceFiles("tests")
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .filter((file) => !NOT_SUPPORT.some((allowed) => allowed.test(file)));
  expect(support).toEqual([]);
});

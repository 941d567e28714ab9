/**
 * The benchmark and the tests share one harness, tools/harness/: the benchmark imports no test
 * file, and the harness imports nothing from tests/, so changing a test never changes what
 * `npm run bench` measures. The one exception is Esri's evidence: the conformance corpus (its
 * cases, flows and their replay), which the side-by-side figure replays as recorded.
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
  expect(targets).toContain("tools/harness/host");
  expect(targets).toContain("tools/harness/real-stack");
});

it("bench/ imports no test file, only the shared harness", () => {
  expect(intoTests("bench")).toEqual([]);
});

it("tools/harness/ imports nothing from tests/", () => {
  expect(intoTests("tools")).toEqual([]);
});

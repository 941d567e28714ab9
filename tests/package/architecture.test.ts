/**
 * ARCHITECTURE.md stays an overview a contributor reads in one go (at most 15 KB, lines of at most
 * 100 columns), and true of the code: every file or folder it names exists.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { longLines, namedPaths } from "../../tools/harness/doc-pages";

const ROOT = path.resolve(__dirname, "..", "..");
const TEXT = fs.readFileSync(path.join(ROOT, "ARCHITECTURE.md"), "utf8");
/** Where a path the page names relative to its section may live (a resource folder: Site's). */
const BASES = [
  "",
  "provider/resources",
  "provider/resources/site",
  "provider/client",
  "provider/plugin",
  "emulator",
  "toolchain",
];

it("is at most 15 KB, wrapped at 100 columns", () => {
  expect(Buffer.byteLength(TEXT)).toBeLessThanOrEqual(15 * 1024);
  expect(longLines(TEXT)).toEqual([]);
});

it("names only files and folders that exist", () => {
  const named = namedPaths(TEXT);
  expect(named.length).toBeGreaterThan(30);
  const missing = named.filter(
    (name) => !BASES.some((base) => fs.existsSync(path.join(ROOT, base, name))),
  );
  expect(missing).toEqual([]);
});

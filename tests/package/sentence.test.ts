/**
 * A message that goes on after someone else's words (a client's error, a server's messages) ends
 * their sentence with provider/sentence.ts, never with a full stop written after them: those words
 * often end in one already, and the user then reads "..". The Site import's refusal of an
 * untrusted certificate is checked end to end in tests/plugin/import.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { endSentence } from "../../provider/sentence";

const ROOT = path.resolve(__dirname, "..", "..");
/** A full stop written right after an error's message or messages in a template literal. */
const STOP_AFTER_MESSAGE = /(\.message|\.messages\.join\([^)]*\)[^}]*)\}\./;

function sourcesOf(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

it("no message writes a full stop after an error's own words", () => {
  const found = sourcesOf("provider").flatMap((file) =>
    fs
      .readFileSync(path.join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, i) => (STOP_AFTER_MESSAGE.test(line) ? [`${file}:${i + 1}: ${line}`] : [])),
  );
  expect(found).toEqual([]);
});

it("ends a sentence with one full stop", () => {
  expect(endSentence("the server is busy.")).toBe("the server is busy.");
  expect(endSentence("the server is busy")).toBe("the server is busy.");
  expect(endSentence("is it busy? ")).toBe("is it busy?");
  expect(endSentence("set tls.insecureSkipVerify: true.")).toBe(
    "set tls.insecureSkipVerify: true.",
  );
});

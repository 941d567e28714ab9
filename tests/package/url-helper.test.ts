/**
 * A URL's trailing slashes are stripped in one place on each side of the wire: provider/ calls
 * provider/url.ts and emulator/ calls emulator/core/url.ts (it may not import provider/).
 * A copy written by hand elsewhere drifts from them, so none is allowed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { withoutTrailingSlash as providerStrip } from "../../provider/url";
import { withoutTrailingSlash as emulatorStrip } from "../../emulator/core/url";

const ROOT = path.resolve(__dirname, "..", "..");
const HELPERS = ["provider/url.ts", "emulator/core/url.ts"];
/** The strip as written by hand: a regex of one or more slashes at the end. */
const HAND_WRITTEN = /\/\\\/[+*]\$\//;

function sourcesOf(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|cjs|mjs|js)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

it("is written only in the two helpers", () => {
  const copies = [...sourcesOf("provider"), ...sourcesOf("emulator")].flatMap((file) =>
    fs
      .readFileSync(path.join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, i) => (HAND_WRITTEN.test(line) ? [`${file}:${i + 1}`] : [])),
  );
  expect(copies.map((c) => c.replace(/:\d+$/, "")).sort()).toEqual([...HELPERS].sort());
});

it.each([
  ["provider", providerStrip],
  ["emulator", emulatorStrip],
])("the %s helper strips every trailing slash and nothing else", (_side, strip) => {
  expect(strip("https://gis.example.com/server/admin///")).toBe(
    "https://gis.example.com/server/admin",
  );
  expect(strip("https://gis.example.com/server/admin")).toBe(
    "https://gis.example.com/server/admin",
  );
  expect(strip("/a//b/")).toBe("/a//b");
  expect(strip("///")).toBe("");
});

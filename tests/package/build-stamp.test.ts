/**
 * `npm start` builds only when dist/ is not the build of the sources as they are
 * (scripts/build-stamp.cjs): the stamp follows every source and the files that shape the build,
 * and a missing output counts as stale. `npm test` builds before jest, so the repository's own
 * dist/ is fresh here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../tools/harness/project";
import { runTempDir } from "../../tools/harness/temp";
import * as stamp from "../../scripts/build-stamp.cjs";

let root: string;

beforeEach(() => {
  root = runTempDir("build-stamp-");
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write("provider/index.ts", "export const a = 1;\n");
  write("emulator/cli.ts", "export const b = 2;\n");
  write("tsconfig.json", "{}\n");
  write("tsconfig.build.json", "{}\n");
  write("package.json", "{}\n");
  write("dist/provider/index.js", "");
  write("dist/emulator/cli.js", "");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("is fresh after a build's stamp, and stale without one", () => {
  expect(stamp.isFresh(root)).toBe(false);
  stamp.writeStamp(root);
  expect(stamp.isFresh(root)).toBe(true);
  stamp.removeStamp(root);
  expect(stamp.isFresh(root)).toBe(false);
});

it("is stale after a source or a shaping file changes, a source is added, or an output is missing", () => {
  const later = new Date(Date.now() + 5_000);
  for (const change of [
    () => fs.writeFileSync(path.join(root, "provider/index.ts"), "export const a = 22;\n"),
    () => fs.utimesSync(path.join(root, "emulator/cli.ts"), later, later),
    () => fs.writeFileSync(path.join(root, "tsconfig.build.json"), '{"x":1}\n'),
    () => fs.writeFileSync(path.join(root, "provider/new.ts"), "export {};\n"),
    () => fs.rmSync(path.join(root, "dist/emulator/cli.js")),
  ]) {
    stamp.writeStamp(root);
    expect(stamp.isFresh(root)).toBe(true);
    change();
    expect(stamp.isFresh(root)).toBe(false);
    fs.writeFileSync(path.join(root, "dist/emulator/cli.js"), "");
    fs.writeFileSync(path.join(root, "dist/provider/new.js"), "");
  }
});

it("finds the repository's own dist/ fresh: npm run build wrote its stamp", () => {
  expect(stamp.isFresh(REPO_ROOT)).toBe(true);
});

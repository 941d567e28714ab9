/**
 * docs/api.md (the API reference) against the built package: every name it lists is exported, and every
 * export is listed, read from the runtime module (values) and from its declaration file (values
 * and types), so the documentation cannot drift from the code. Also checks that the internals
 * named in the issue stay out of the entry.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { REPO_ROOT } from "../../tools/harness/project";
import { entryExports } from "../../tools/harness/entry-declarations";

/** The names of docs/api.md: the backquoted names a bullet opens with, up to its `:`. */
function documentedNames(page: string): string[] {
  const section = /^# API\n([\s\S]*)$/m.exec(page);
  if (!section) throw new Error('docs/api.md does not start with "# API"');
  const names: string[] = [];
  for (const line of section[1]!.split("\n")) {
    const bullet = /^- ((?:`[A-Za-z_$][\w$]*`(?:, )?)+):/.exec(line);
    if (!bullet) {
      if (line.startsWith("- ")) throw new Error(`Bullet without a list of names: ${line}`);
      continue;
    }
    names.push(...[...bullet[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
  }
  return names;
}

/** Every export of the entry's declaration file, and which of them are values. */
function declaredExports(): { all: string[]; values: string[] } {
  const { exports } = entryExports();
  return {
    all: exports.map((e) => e.name).sort(),
    values: exports
      .filter((e) => e.symbol.flags & ts.SymbolFlags.Value)
      .map((e) => e.name)
      .sort(),
  };
}

const page = fs.readFileSync(path.join(REPO_ROOT, "docs", "api.md"), "utf8");
const documented = documentedNames(page);
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built entry, as users load it
const runtime = Object.keys(require(path.join(REPO_ROOT, "dist", "provider")) as object).sort();
const declared = declaredExports();

it("lists each name once", () => {
  const twice = documented.filter((name, i) => documented.indexOf(name) !== i);
  expect(twice).toEqual([]);
});

it("lists exactly the exports of the declaration file, types included", () => {
  expect([...documented].sort()).toEqual(declared.all);
});

it("lists every value the built entry exports at run time, and nothing it does not", () => {
  expect(runtime).toEqual(declared.values);
  expect(runtime.filter((name) => !documented.includes(name))).toEqual([]);
});

it("keeps the client's helpers and defaults out of the entry", () => {
  for (const internal of [
    "sendRequest",
    "arcgisRequest",
    "sharedTokenCache",
    "redactSecrets",
    "withRetry",
    "retryWhile",
    "backoffDelay",
    "pause",
    "DEFAULT_RETRY_POLICY",
    "DEFAULT_TIMEOUTS",
    "DEFAULT_MAX_DOWNLOAD_BYTES",
    "DEFAULT_REFERER",
    "listsMachine",
    "createNewSiteForm",
    "joinSiteForm",
    "downloadToFile",
  ]) {
    expect(declared.all).not.toContain(internal);
    expect(runtime).not.toContain(internal);
  }
});
